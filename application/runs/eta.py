"""The ETA of an eval run, from the completed count seen at each poll (pure; a fake clock in tests).

How the ETA is estimated
------------------------
Each poll adds a sample ``(t, completed_count)`` where ``t`` is the watcher's own monotonic
clock (never the platform's timestamps mixed with ours). The rate is measured over a recent
window: the samples of the last ``window_s`` seconds (60 by default), extended further back
when fewer than ``min_items`` items (3) completed in that window, so a slow run still gets
an estimate from its last few completions. The rate is the items completed between the
window's first and last sample divided by the seconds between them (an average over the
window, not the last poll, so one burst does not swing the estimate); the ETA is the items
left divided by that rate.

The estimate says "estimating…" (and gives no number) until the window holds at least
``min_points`` samples (3) spanning at least ``min_span_s`` seconds (3) with at least one
completion. When nothing completed during the window it says "no progress for N s" rather
than an infinite ETA, and also when the count has not moved for longer than both the window
and three times the usual gap between items (a run that went quiet does not keep showing an
ETA computed from before). When the total is unknown there is a rate but no ETA.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from common.format import format_duration

__all__ = ["Eta", "EtaEstimator"]


@dataclass(frozen=True, slots=True)
class Eta:
    """What the estimator can honestly say right now."""

    phase: Literal["estimating", "eta", "no_progress", "done", "no_total"]
    rate_per_s: float | None = None
    remaining: int | None = None
    seconds_left: float | None = None
    window_s: float | None = None  # seconds the rate was measured over
    idle_s: float | None = None  # seconds since the count last moved (no_progress)

    def describe(self) -> str:
        if self.phase == "done":
            return "all items done"
        if self.phase == "estimating":
            return "estimating…"
        if self.phase == "no_progress":
            return f"no progress for {format_duration(self.idle_s)}"
        rate = self.rate_text()
        if self.phase == "no_total":
            return f"{rate} (total unknown: no ETA)"
        return f"{rate}, ETA {format_duration(self.seconds_left)}"

    def rate_text(self) -> str:
        if self.rate_per_s is None:
            return "rate —"
        if self.rate_per_s >= 1:
            return f"{self.rate_per_s:.1f} items/s"
        return f"{self.rate_per_s * 60:.1f} items/min"


@dataclass
class EtaEstimator:
    """Completion rate over a recent window -> ETA. See the module docstring."""

    window_s: float = 60.0
    min_points: int = 3
    min_span_s: float = 3.0
    min_items: int = 3
    max_samples: int = 2000
    _samples: deque[tuple[float, int]] = field(default_factory=deque, repr=False)
    _last_change_at: float | None = field(default=None, repr=False)

    def reset(self) -> None:
        self._samples.clear()
        self._last_change_at = None

    def add(self, at: float, completed: int | None) -> None:
        """Record that ``completed`` items were done at time ``at`` (seconds, monotonic)."""
        if completed is None:
            return
        if self._samples:
            last_at, last_count = self._samples[-1]
            if at < last_at or completed < last_count:
                # The clock went back or the count did (a different run, a reset): start over.
                self.reset()
            elif completed != last_count:
                self._last_change_at = at
        if self._last_change_at is None:
            self._last_change_at = at
        self._samples.append((at, completed))
        while len(self._samples) > self.max_samples:
            self._samples.popleft()

    @property
    def points(self) -> int:
        return len(self._samples)

    def _window(self, end: int | None = None) -> list[tuple[float, int]]:
        """Samples of the last ``window_s`` seconds before ``end`` (default: the newest sample),
        extended back until at least ``min_items`` completions are inside."""
        samples = list(self._samples)
        stop = len(samples) - 1 if end is None else end
        last_at, last_count = samples[stop]
        start = stop
        while start > 0:
            at, _count = samples[start - 1]
            inside_time = last_at - at <= self.window_s
            too_few_items = last_count - samples[start][1] < self.min_items
            if not inside_time and not too_few_items:
                break
            start -= 1
        return samples[start : stop + 1]

    def _usual_rate(self) -> float | None:
        """The rate over the window that ends where the count last moved."""
        change_index = max((i for i, (at, _c) in enumerate(self._samples) if at == self._last_change_at), default=None)
        if change_index is None:
            return None
        window = self._window(change_index)
        span = window[-1][0] - window[0][0]
        done = window[-1][1] - window[0][1]
        return done / span if span > 0 and done > 0 else None

    def estimate(self, total: int | None) -> Eta:
        if not self._samples:
            return Eta("estimating")
        last_at, last_count = self._samples[-1]
        remaining = None if total is None else max(total - last_count, 0)
        window = self._window()
        first_at, first_count = window[0]
        span = last_at - first_at
        done = last_count - first_count
        if remaining == 0:
            measured = done / span if span >= self.min_span_s and done > 0 else None
            return Eta("done", rate_per_s=measured, remaining=0, seconds_left=0.0, window_s=span if measured else None)
        idle = last_at - self._last_change_at if self._last_change_at is not None else None
        if len(window) < self.min_points or span < self.min_span_s:
            return Eta("estimating", remaining=remaining)
        if done <= 0:
            return Eta("no_progress", remaining=remaining, window_s=span, idle_s=idle)
        rate = done / span
        # Quiet for longer than the window and three usual gaps between items: say so rather
        # than keep showing an ETA that the silence has made stale.
        usual = self._usual_rate() or rate
        if idle is not None and idle >= max(self.window_s, 3.0 / usual):
            return Eta("no_progress", remaining=remaining, window_s=span, idle_s=idle)
        if remaining is None:
            return Eta("no_total", rate_per_s=rate, window_s=span)
        return Eta("eta", rate_per_s=rate, remaining=remaining, seconds_left=remaining / rate, window_s=span)
