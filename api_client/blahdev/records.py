"""blah.dev's records of what a model did, read as the product's own ``Call``: the one place
that maps them. ``call_from_log_entry`` maps a call (``LogEntry``, the wire model, which the
rest of the app never sees), ``call_from_chatroom_message`` a model's chatroom message (its
text read as a reply, for the loop detector).

Every field keeps its value: blah.dev's names are the product's (``response``, ``eval_id``,
``run_id``, ``result_id``, ``message_id``), and a field the platform left out stays ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api_client.blahdev.shapes_logs import ChatMessage, LogEntry, LogPage, LogStats
from common.records import Call, ChatTurn

if TYPE_CHECKING:  # loaded on first use (see shapes): not at start-up
    from api_client.blahdev.shapes_platform import ChatroomMessage

__all__ = [
    "CallPage",
    "call_from_chatroom_message",
    "call_from_log_entry",
    "call_page",
    "calls_from_log_entries",
    "parse_call",
    "turns_of",
]


def turns_of(messages: Iterable[ChatMessage] | None) -> tuple[ChatTurn, ...] | None:
    """blah.dev's chat messages as the call's turns (``None``: a plain prompt)."""
    if messages is None:
        return None
    return tuple(ChatTurn(m.role, m.content) for m in messages)


def call_from_log_entry(entry: LogEntry) -> Call:
    """One blah.dev call as the product's ``Call``."""
    return Call(
        entry.id,
        entry.model_id,
        entry.source,
        entry.created_at,
        entry.prompt,
        turns_of(entry.messages),
        entry.response,
        entry.error,
        entry.latency_ms,
        entry.max_tokens,
        entry.prompt_tokens,
        entry.completion_tokens,
        entry.finish_reason,
        entry.eval_id,
        entry.run_id,
        entry.result_id,
        entry.message_id,
    )


def calls_from_log_entries(entries: Iterable[LogEntry]) -> list[Call]:
    return [call_from_log_entry(entry) for entry in entries]


def parse_call(data: Any) -> Call:
    """A call as blah.dev writes it in JSON (a ``/logs`` item, a line of ``export``), validated
    as its wire model, then read as a ``Call``; raises pydantic's ``ValidationError``."""
    return call_from_log_entry(LogEntry.model_validate(data))


@dataclass(frozen=True, slots=True)
class CallPage:
    """A page of ``GET /models/{id}/logs`` (``BlahClient.get_logs``): its calls as ``Call``
    (newest first, as sent), its cursors and, when asked, the totals (blah.dev's own)."""

    logs: list[Call]
    next_since: int | None = None
    next_before: int | None = None
    stats: LogStats | None = None


def call_page(page: LogPage) -> CallPage:
    """A validated page of blah.dev's calls as a ``CallPage``."""
    return CallPage(calls_from_log_entries(page.logs), page.next_since, page.next_before, page.stats)


def call_from_chatroom_message(message: ChatroomMessage) -> Call:
    """A chatroom message as a call's reply (its log's id when it names one), so the
    diagnosis detectors can read it; a message without text reads as an empty reply."""
    return Call(
        id=message.log_id or message.id,
        model_id=message.model_id,
        source="chatroom",
        created_at=message.created_at,
        response=message.content or "",
        message_id=message.id,
    )
