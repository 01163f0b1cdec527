"""Outage windows and uptime from a model's health checks (pure: no IO, no Textual).

The platform checks each model's endpoint now and then (``GET /models/{id}/health``, newest
first). A run of consecutive failed checks is an *outage window*: calls that failed inside it
say the host was down, not that the model answered badly. The logs and diagnosis screens use
``outage_at`` / ``OutageIndex`` to mark such failures.

Definitions (documented because every screen must agree on them):

- A window spans consecutive checks with ``ok is False``, in time order. ``start_ms`` is the
  first failed check, ``end_ms`` the last one, ``count`` the number of failed checks.
- ``ok is None`` (the platform did not say) neither opens nor closes a window: it is skipped,
  never counted as up or down.
- ``bounded_from`` / ``bounded_to`` are the neighbouring ok checks (``None`` at either end of
  the history, or while the outage is still going on): the host went down somewhere after
  ``bounded_from`` and came back somewhere before ``bounded_to``.
- ``outage_at(ts)`` is true for ``start_ms <= ts <= end_ms``; with ``slack="bounds"`` it also
  covers the uncertain edges (from the last ok check before to the first ok check after).
- Uptime is the share of checks that were ok among checks that said ok or not, over the
  span from the oldest to the newest check. No checks -> no numbers (``None``), never 0 %.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from api_client.models import HealthCheck

__all__ = ["OutageIndex", "OutageWindow", "Uptime", "outage_at", "outage_windows", "uptime"]


@dataclass(frozen=True, slots=True)
class OutageWindow:
    """Consecutive failed checks: from ``start_ms`` to ``end_ms`` (both failed checks)."""

    start_ms: int
    end_ms: int
    count: int
    bounded_from: int | None  # the last ok check before, if any
    bounded_to: int | None  # the first ok check after, if any (None: still down, or history ends)
    first_error: str | None  # the first failed check's error text (untrusted: sanitise to show)
    status_codes: tuple[int, ...]  # distinct status codes seen in the window, in order

    @property
    def ongoing(self) -> bool:
        """True when the newest check of the history is part of this window."""
        return self.bounded_to is None

    @property
    def duration_ms(self) -> int:
        """From the first to the last failed check (0 for a single failed check)."""
        return self.end_ms - self.start_ms

    def contains(self, ts_ms: int, *, slack: Literal["none", "bounds"] = "none") -> bool:
        if slack == "bounds":
            lo = self.bounded_from if self.bounded_from is not None else self.start_ms
            hi = self.bounded_to if self.bounded_to is not None else self.end_ms
            return lo <= ts_ms <= hi if self.bounded_to is not None else lo <= ts_ms
        return self.start_ms <= ts_ms <= self.end_ms


@dataclass(frozen=True, slots=True)
class Uptime:
    """Share of ok checks. Every field is None when there is nothing to count."""

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


def _in_time_order(checks: Iterable[HealthCheck]) -> list[HealthCheck]:
    # The platform sends newest first; sort anyway (stable) so any order works.
    return sorted(checks, key=lambda c: c.checked_at)


def outage_windows(checks: Iterable[HealthCheck]) -> list[OutageWindow]:
    """Every outage window in the history, oldest first."""
    ordered = _in_time_order(checks)
    windows: list[OutageWindow] = []
    last_ok: int | None = None
    run: list[HealthCheck] = []

    def close(bounded_to: int | None) -> None:
        codes: list[int] = []
        for check in run:
            if check.status_code is not None and check.status_code not in codes:
                codes.append(check.status_code)
        windows.append(
            OutageWindow(
                start_ms=run[0].checked_at,
                end_ms=run[-1].checked_at,
                count=len(run),
                bounded_from=last_ok,
                bounded_to=bounded_to,
                first_error=next((c.error for c in run if c.error), None),
                status_codes=tuple(codes),
            )
        )

    for check in ordered:
        if check.ok is None:
            continue
        if check.ok:
            if run:
                close(check.checked_at)
                run = []
            last_ok = check.checked_at
        else:
            run.append(check)
    if run:
        close(None)
    return windows


def uptime(checks: Iterable[HealthCheck]) -> Uptime:
    """Counts of ok / failed / unknown checks and the time span they cover."""
    ordered = _in_time_order(checks)
    ok = sum(1 for c in ordered if c.ok is True)
    failed = sum(1 for c in ordered if c.ok is False)
    unknown = sum(1 for c in ordered if c.ok is None)
    return Uptime(
        ok=ok,
        failed=failed,
        unknown=unknown,
        span_from=ordered[0].checked_at if ordered else None,
        span_to=ordered[-1].checked_at if ordered else None,
    )


class OutageIndex:
    """Fast "was the host down at this time?" lookups for many log entries.

    Build once per health history; ``window_at`` is a binary search (O(log n)).
    """

    def __init__(
        self, windows: Sequence[OutageWindow], *, slack: Literal["none", "bounds"] = "none"
    ) -> None:
        self.windows = sorted(windows, key=lambda w: w.start_ms)
        self.slack = slack
        self._starts = [self._lo(w) for w in self.windows]

    @classmethod
    def from_checks(
        cls, checks: Iterable[HealthCheck], *, slack: Literal["none", "bounds"] = "none"
    ) -> OutageIndex:
        return cls(outage_windows(checks), slack=slack)

    def _lo(self, window: OutageWindow) -> int:
        if self.slack == "bounds" and window.bounded_from is not None:
            return window.bounded_from
        return window.start_ms

    def window_at(self, ts_ms: int) -> OutageWindow | None:
        """The outage window containing ``ts_ms`` (ms since the epoch), or None."""
        i = bisect.bisect_right(self._starts, ts_ms) - 1
        # Windows never overlap without slack; with slack, neighbours may share an ok check.
        for j in (i, i - 1):
            if 0 <= j < len(self.windows) and self.windows[j].contains(ts_ms, slack=self.slack):
                return self.windows[j]
        return None

    def __bool__(self) -> bool:
        return bool(self.windows)

    def __len__(self) -> int:
        return len(self.windows)


def outage_at(
    ts_ms: int, windows: Sequence[OutageWindow], *, slack: Literal["none", "bounds"] = "none"
) -> OutageWindow | None:
    """The window containing ``ts_ms`` or None (linear; use ``OutageIndex`` for many lookups)."""
    for window in windows:
        if window.contains(ts_ms, slack=slack):
            return window
    return None
