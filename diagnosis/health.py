"""Outage windows from the platform's health checks: is it the model, or its host?

A window spans consecutive failed checks (``ok`` False). It starts at the first failed check
and ends at the first ok check after the last failed one (the host was not known to be up
again before that), exclusive; when the newest check failed the outage is ongoing
(``end`` None). Checks with ``ok`` None say nothing and neither open nor close a window.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

from .inputs import HealthCheck, HealthRecord


@dataclass(frozen=True, slots=True)
class OutageWindow:
    """``start`` <= t < ``end`` (ms); ``end`` None means still down at the newest check."""

    start: int
    end: int | None
    last_failed_at: int
    failed_checks: int
    errors: tuple[str, ...]  # distinct error texts / status codes seen, in order

    def contains(self, ms: int) -> bool:
        return self.start <= ms and (self.end is None or ms < self.end)


def outage_windows(health: HealthRecord | Iterable[HealthCheck] | None) -> list[OutageWindow]:
    """The outage windows, oldest first. ``None`` (no health data) gives no windows."""
    if health is None:
        return []
    given = getattr(health, "checks", None)  # a health record, or its checks as they are
    checks: Iterable[HealthCheck] = list(health) if given is None else given  # type: ignore[arg-type]
    ordered = sorted((c for c in checks if c.ok is not None), key=lambda c: c.checked_at)
    windows: list[OutageWindow] = []
    run: list[HealthCheck] = []
    for check in ordered:
        if check.ok is False:
            run.append(check)
            continue
        if run:
            windows.append(_window(run, check.checked_at))
            run = []
    if run:
        windows.append(_window(run, None))
    return windows


def _window(run: list[HealthCheck], end: int | None) -> OutageWindow:
    errors: list[str] = []
    for check in run:
        for text in (check.error, f"HTTP {check.status_code}" if check.status_code is not None else None):
            if text and text not in errors:
                errors.append(text)
    return OutageWindow(run[0].checked_at, end, run[-1].checked_at, len(run), tuple(errors))


class OutageIndex:
    """Fast ``window_for(ms)`` over many calls (windows are disjoint and sorted)."""

    def __init__(self, windows: list[OutageWindow]) -> None:
        self.windows = sorted(windows, key=lambda w: w.start)
        self._starts = [w.start for w in self.windows]

    def window_for(self, ms: int) -> OutageWindow | None:
        if not self.windows:
            return None
        i = bisect.bisect_right(self._starts, ms) - 1
        if i < 0:
            return None
        window = self.windows[i]
        return window if window.contains(ms) else None

    def __bool__(self) -> bool:
        return bool(self.windows)
