"""The compact row type behind ``LogList`` and the pure formatting of its cells.

Kept free of Textual so screens and diagnosis code can build rows without a running app.
Missing values stay ``None`` on the row and are shown as ``—`` (never as 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Literal, Protocol, runtime_checkable

__all__ = [
    "MISSING",
    "PREVIEW_CHARS",
    "ListRowSource",
    "LogRow",
    "RowSource",
    "format_latency",
    "format_time",
]

MISSING = "—"
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


TimeFormat = Literal["time", "day", "year"]
TIME_WIDTHS: dict[TimeFormat, int] = {"time": 12, "day": 19, "year": 23}
"""Cells of each time format: ``20:05:14.739``, ``Dec 01 20:05:14.739``, ``2026-12-01 20:05:14.739``."""
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_time(created_at: int | None, tz: tzinfo | None = None, dates: TimeFormat = "time") -> str:
    """``HH:MM:SS.mmm`` in ``tz`` (local time when None), after ``Mon DD`` (``dates="day"``,
    English month names whatever the locale) or ``YYYY-MM-DD`` (``"year"``); ``—`` when
    missing."""
    if created_at is None:
        return MISSING
    try:
        moment = datetime.fromtimestamp(created_at / 1000, tz=tz)
    except (OverflowError, OSError, ValueError):
        return MISSING
    clock = f"{moment:%H:%M:%S}.{created_at % 1000:03d}"
    if dates == "day":
        return f"{_MONTHS[moment.month - 1]} {moment.day:02d} {clock}"
    if dates == "year":
        return f"{moment:%Y-%m-%d} {clock}"
    return clock


def format_latency(latency_ms: int | None) -> str:
    """``812ms`` under 10 s, then ``12.3s``, ``4m05s``, ``2h03m``; ``—`` when missing."""
    if latency_ms is None:
        return MISSING
    if latency_ms < 10_000:
        return f"{latency_ms}ms"
    seconds = latency_ms / 1000
    if seconds < 100:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes < 100 else f"{minutes // 60}h{minutes % 60:02d}m"
