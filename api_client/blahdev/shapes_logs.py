"""The blah.dev wire models of the logs: a call (``LogEntry``), the totals (``LogStats``) and a
page of calls. Their own module because the Logs screen and the archive need them at start-up
and the other ~40 models not: defining a pydantic model costs ~1 ms even with ``defer_build``.
The rules every model follows are in ``api_client.blahdev.shapes``, which re-exports these.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from api_client.blahdev.shapes_base import BlahModel, Millis

__all__ = ["ChatMessage", "LogEntry", "LogPage", "LogSource", "LogStats", "SourceStats"]

LogSource = Literal["eval", "chatroom", "chat", "test"]


class ChatMessage(BlahModel):
    role: str
    content: str | None = None


class LogEntry(BlahModel):
    id: str
    model_id: str | None = None
    source: str | None = None  # "eval" | "chatroom" | "chat" | "test"; unknown kept as is
    created_at: Millis
    prompt: str | None = None
    messages: list[ChatMessage] | None = None
    response: str | None = None
    error: str | None = None
    latency_ms: int | None = None
    max_tokens: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None  # "stop" | "length" | "error" | None
    eval_id: str | None = None
    run_id: str | None = None
    result_id: str | None = None
    message_id: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None and self.response is None


class SourceStats(BlahModel):
    total: int | None = None
    errors: int | None = None
    mean_latency_ms: float | None = None


class LogStats(BlahModel):
    total: int | None = None
    errors: int | None = None
    mean_latency_ms: float | None = None
    by_source: dict[str, SourceStats] = Field(default_factory=dict)

    @property
    def error_rate(self) -> float | None:
        if not self.total or self.errors is None:
            return None
        return self.errors / self.total


class LogPage(BlahModel):
    logs: list[LogEntry] = Field(default_factory=list)
    next_since: Millis | None = None
    next_before: Millis | None = None
    stats: LogStats | None = None

    @classmethod
    def from_decoded(cls, data: Any) -> LogPage:
        """A page from decoded JSON: an object, or a bare list of entries (no cursors given)."""
        return cls.model_validate({"logs": data} if isinstance(data, list) else data)
