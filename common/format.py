"""How the app writes times, durations, latencies, sizes, counts and a missing value.

One module for every screen, widget, subcommand and report, so the same value reads the same
everywhere. Pure standard library (no Textual, no Rich): callers sanitise untrusted strings
themselves; everything here formats numbers only, and a value the platform did not send is
``DASH``, never 0.

Latency has one format (``format_latency``): ``812 ms`` below 10 s, ``12.3 s`` below a minute,
then the duration format ``4m 05s`` / ``2h 03m`` (``format_duration``).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, tzinfo
from typing import Literal

__all__ = [
    "DASH",
    "TIME_WIDTHS",
    "TimeFormat",
    "format_count",
    "format_duration",
    "format_latency",
    "format_size",
    "format_time",
    "format_timestamp",
    "format_utc",
    "plural",
]

DASH = "—"
"""Shown for a value the platform did not send (never 0, never a guess)."""

TimeFormat = Literal["time", "day", "year"]
TIME_WIDTHS: dict[TimeFormat, int] = {"time": 12, "day": 19, "year": 23}
"""Cells of each ``format_time`` format: ``20:05:14.739``, ``Dec 01 20:05:14.739``, ``2026-12-01 20:05:14.739``."""
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _moment(ms: int, tz: tzinfo | None) -> datetime | None:
    """Milliseconds since the epoch as a datetime in ``tz`` (local when None); None when the
    number is outside what the platform's clock can mean."""
    try:
        return datetime.fromtimestamp(ms / 1000, tz=tz)
    except (OverflowError, OSError, ValueError):
        return None


def format_time(ms: int | None, tz: tzinfo | None = None, dates: TimeFormat = "time") -> str:
    """The log list's time: ``HH:MM:SS.mmm`` in ``tz`` (local when None), after ``Mon DD``
    (``dates="day"``, English month names whatever the locale) or ``YYYY-MM-DD`` (``"year"``)."""
    moment = None if ms is None else _moment(ms, tz)
    if ms is None or moment is None:
        return DASH
    clock = f"{moment:%H:%M:%S}.{ms % 1000:03d}"
    if dates == "day":
        return f"{_MONTHS[moment.month - 1]} {moment.day:02d} {clock}"
    if dates == "year":
        return f"{moment:%Y-%m-%d} {clock}"
    return clock


def format_timestamp(ms: int | None, tz: tzinfo | None = None) -> str:
    """One moment in full: ``2025-11-29 10:04:05.123 UTC`` (local time and its zone when tz is None)."""
    moment = None if ms is None else _moment(ms, tz)
    if ms is None or moment is None:
        return DASH
    moment = moment.astimezone(tz)
    zone = moment.strftime("%Z") or moment.strftime("%z")
    return f"{moment:%Y-%m-%d %H:%M:%S}.{ms % 1000:03d} {zone}".rstrip()


def format_utc(ms: int | None, *, date: bool = True, seconds: bool = True, zone: str = "Z", missing: str = DASH) -> str:
    """A platform time in UTC: ``2026-11-29 10:04:41Z``; ``seconds=False``: ``2026-11-29 10:04Z``;
    ``date=False``: the time of day only; ``zone`` is what follows (``"Z"``, ``" UTC"``, ``""``).
    ``missing`` for None; a number no clock can mean is shown as sent."""
    if ms is None:
        return missing
    moment = _moment(ms, UTC)
    if moment is None:
        return str(ms)
    clock = f"{moment:%H:%M:%S}" if seconds else f"{moment:%H:%M}"
    return f"{moment:%Y-%m-%d} {clock}{zone}" if date else f"{clock}{zone}"


def format_duration(seconds: float | None) -> str:
    """``1h 02m``, ``3m 05s``, ``42s``; ``DASH`` for None."""
    if seconds is None or math.isnan(seconds):
        return DASH
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def format_latency(ms: float | None) -> str:
    """``812 ms`` below 10 s, ``12.3 s`` below a minute, then ``4m 05s``, ``2h 03m``; at most 7
    cells, so it fits the log list's column; ``DASH`` for None."""
    if ms is None or math.isnan(ms):
        return DASH
    if ms < 9_999.5:
        return f"{ms:.0f} ms"
    if ms < 59_950:
        return f"{ms / 1000:.1f} s"
    return format_duration(ms / 1000)


def format_size(size: int | None) -> str:
    """Bytes in binary units: ``512 B``, ``176.8 KiB``, ``1.2 MiB``, ``3.4 GiB``; ``DASH`` for None."""
    if size is None:
        return DASH
    if size < 1024:
        return f"{size} B"
    value = float(size)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if round(value, 1) < 1024 or unit == "TiB":
            break
    return f"{value:.1f} {unit}"


def format_count(value: int | None) -> str:
    """``12,345``; ``DASH`` for None (a count the platform did not give is not 0)."""
    return DASH if value is None else f"{value:,}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 run"`` / ``"3 runs"`` / ``"0 runs"``: a count and its noun, agreed. Every
    "N things" the app prints goes through here, so no view says "1 benchmark runs"."""
    return f"{count} {singular if count == 1 else (plural_form or singular + 's')}"
