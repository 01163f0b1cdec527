"""The compact row type behind ``LogList``; its cells are formatted by ``common.format``.

A ``LogRow`` is not a call: it is what one line of the list shows (id, time, source,
latency, finish reason, status, badges, previews), built from the product's ``Call``
(``application.logs.rows.row_from_entry``) or straight from an archive's columns; the call
itself is always read as a ``common.records.Call``.

Kept free of Textual so screens and diagnosis code can build rows without a running app.
Missing values stay ``None`` on the row and are shown as ``—`` (never as 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from common.format import DASH, TIME_WIDTHS, TimeFormat, format_latency, format_time

__all__ = [
    "MISSING",
    "PREVIEW_CHARS",
    "TIME_WIDTHS",
    "ListRowSource",
    "LogRow",
    "RowSource",
    "TimeFormat",
    "format_latency",
    "format_time",
]

MISSING = DASH
"""Shown for a value the service did not send."""

PREVIEW_CHARS = 240
"""Characters of the original prompt/reply kept on a row (wider than any preview column)."""

Status = Literal["ok", "error"]


@dataclass(slots=True, frozen=True)
class LogRow:
    """One call, reduced to what a list line shows. Previews are RAW (cut, not sanitized):
    the list sanitizes when it paints, so a row built by hand can never reach the terminal raw."""

    id: str
    created_at: int | None
    source: str | None
    latency_ms: int | None
    finish_reason: str | None
    status: Status
    badges: tuple[str, ...] = ()
    prompt_preview: str | None = None
    reply_preview: str | None = None


@runtime_checkable
class RowSource(Protocol):
    """Anything indexable that yields rows; lets ``LogList`` show millions of rows lazily."""

    def __len__(self) -> int: ...

    def row(self, index: int) -> LogRow: ...


class ListRowSource:
    """The default ``RowSource``: a plain list (``LogList`` appends/prepends to it in place)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[LogRow]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, index: int) -> LogRow:
        return self.rows[index]
