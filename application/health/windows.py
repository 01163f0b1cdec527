"""Outage windows and uptime from a model's health checks (pure: no IO, no Textual).

The outage windows themselves are ``diagnosis.health``'s (one definition for the whole app,
so the Health screen, the Logs and Diagnosis screens and the report agree on which failures
fall in an outage): a window starts at the first failed check of a run of consecutive failed
checks and ends at the first ok check after it (exclusive; ``end`` None while still down).
Checks whose ``ok`` is None neither open nor close a window.

To mark calls, build ``OutageIndex(outage_windows(health))`` once and ask
``index.window_for(created_at_ms)`` per call (a binary search).

This module adds what the Health screen needs on top: the uptime (share of checks that were
ok among those that said, over how many checks and what span; no checks -> no numbers, never
0 %), and the last ok check before each window (the host went down somewhere after it).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

from api_client.blahdev.shapes import Health, HealthCheck
from diagnosis.health import OutageIndex, OutageWindow, outage_windows

__all__ = ["OutageIndex", "OutageWindow", "Uptime", "last_ok_before", "outage_windows", "uptime", "uptime_sentence"]


@dataclass(frozen=True, slots=True)
class Uptime:
    """Counts of checks. ``ratio`` and ``span_ms`` are None when there is nothing to count."""

    ok: int
    failed: int
    unknown: int  # checks with ok None: not counted either way
    span_from: int | None
    span_to: int | None

    @property
    def counted(self) -> int:
        return self.ok + self.failed

    @property
    def ratio(self) -> float | None:
        return self.ok / self.counted if self.counted else None

    @property
    def span_ms(self) -> int | None:
        if self.span_from is None or self.span_to is None:
            return None
        return self.span_to - self.span_from


def _checks(health: Health | Iterable[HealthCheck] | None) -> list[HealthCheck]:
    if health is None:
        return []
    checks = health.checks if isinstance(health, Health) else list(health)
    return sorted(checks, key=lambda c: c.checked_at)  # the platform sends newest first


def uptime(health: Health | Iterable[HealthCheck] | None) -> Uptime:
    """Counts of ok / failed / unknown checks and the time span they cover."""
    ordered = _checks(health)
    return Uptime(
        ok=sum(1 for c in ordered if c.ok is True),
        failed=sum(1 for c in ordered if c.ok is False),
        unknown=sum(1 for c in ordered if c.ok is None),
        span_from=ordered[0].checked_at if ordered else None,
        span_to=ordered[-1].checked_at if ordered else None,
    )


def last_ok_before(health: Health | Iterable[HealthCheck] | None, window: OutageWindow) -> int | None:
    """The last ok check before ``window`` started (None when the history starts down)."""
    ok_times = [c.checked_at for c in _checks(health) if c.ok is True]
    i = bisect.bisect_left(ok_times, window.start) - 1
    return ok_times[i] if i >= 0 else None


def uptime_sentence(up: Uptime) -> str:
    """``97.5% of checks ok (234 of 240) from … to … (4h 00m)``; no checks -> says so."""
    from common.format import DASH, format_duration, format_utc

    if up.counted == 0:
        if up.unknown:
            return f"{up.unknown} checks, none of which said whether the endpoint was up: no uptime"
        return "the platform returned no health checks"
    unknown = f"; {up.unknown} did not say" if up.unknown else ""
    span = format_duration(up.span_ms / 1000) if up.span_ms is not None else DASH
    ratio = DASH if up.ratio is None else f"{up.ratio * 100:.1f}%"
    return (
        f"{ratio} of checks ok ({up.ok} of {up.counted}{unknown}) "
        f"from {format_utc(up.span_from)} to {format_utc(up.span_to)} ({span})"
    )
