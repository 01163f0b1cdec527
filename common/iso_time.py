"""ISO 8601 times as the platforms send them, read one way everywhere.

The platforms write ``2026-01-02T03:04:05Z`` (or ``+00:00``, or no zone at all). A time that
names no zone is taken as UTC; an absent or unreadable one is None (never a made-up moment).
"""

from __future__ import annotations

import datetime as dt


def parse_iso(text: str | None) -> dt.datetime | None:
    """``text`` as an aware datetime (UTC when it names no zone); None when absent or unreadable."""
    if not text:
        return None
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def iso_ms(text: str | None) -> int | None:
    """``text`` as milliseconds since the epoch; None when absent or unreadable."""
    moment = parse_iso(text)
    return None if moment is None else int(moment.timestamp() * 1000)
