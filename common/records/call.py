"""A call: one completion a model gave, whichever platform recorded it."""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["CALL_FIELDS", "Call", "ChatTurn", "time_of"]


@dataclass(frozen=True, slots=True)
class ChatTurn:
    """One turn of a structured (chat) prompt: who spoke, and what (``None``: not given)."""

    role: str
    content: str | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """One call a model answered (or failed to).

    The fields are in the archive's column order (``api_client.archives.schema.LOG_COLUMNS``),
    so a stored row is a ``Call`` by position (``Call(*row)``: the archive's bulk reading
    builds a million of them for ``report --offline``). Every field but ``id`` may be
    missing: ``None`` means the platform did not say, never 0.
    """

    id: str
    model_id: str | None = None
    source: str | None = None
    """Where the call was made: blah.dev's "eval", "chatroom", "chat", "test"; "blobfish"
    for a rollout step; unknown values kept as given."""
    created_at: int | None = None
    """Milliseconds since the Unix epoch (UTC); ``None``: the platform gave no time."""
    prompt: str | None = None
    messages: tuple[ChatTurn, ...] | None = None
    """The chat turns of a structured prompt; ``None``: a plain prompt (or not given)."""
    response: str | None = None
    """The reply; ``None``: no reply (a failed call, or a step that only called tools)."""
    error: str | None = None
    latency_ms: int | None = None
    max_tokens: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    """"stop", "length", "error", or ``None`` when not recorded (never guessed)."""
    eval_id: str | None = None
    """The evaluation the call was part of (blah.dev's eval; Blobfish's evaluation)."""
    run_id: str | None = None
    """The run it was part of (blah.dev's eval run; Blobfish's rollout)."""
    result_id: str | None = None
    """The graded result it produced (blah.dev's result; Blobfish's task)."""
    message_id: str | None = None
    """The chatroom message it answered (blah.dev)."""

    @property
    def failed(self) -> bool:
        """The call gave an error and no reply."""
        return self.error is not None and self.response is None

    def replace(self, **changes: object) -> Call:
        """A copy with ``changes`` (field name -> value)."""
        values = {name: getattr(self, name) for name in CALL_FIELDS}
        values.update(changes)
        return Call(**values)


CALL_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Call))
"""``Call``'s fields in order (the archive's columns, the dump's keys)."""


NO_TIME = -(2**63)
"""Where a call without a time sorts: before every time, as SQLite sorts NULL (the archive)."""


def order_key(created_at: int | None, call_id: str) -> tuple[int, str]:
    """The order of calls everywhere (the archive, the live list): (time, id), a call without
    a time first. Only the order uses a stand-in: the call's ``created_at`` stays ``None``."""
    return (NO_TIME if created_at is None else created_at, call_id)


def time_of(call: Call) -> int:
    """The call's time (ms), for code that orders calls which always have one: blah.dev's
    (its ``created_at`` is required), an archive's rows (stored with one). A call without a
    time raises ``ValueError`` there rather than being given one."""
    at = call.created_at
    if at is None:
        raise ValueError(f"call {call.id!r} gives no time")
    return at
