"""A running bake-off's progress and ETA, from ``progress_ratio`` over the watcher's own time.

The queue sends a ratio, not counts: it is read as thousandths so ``EtaEstimator`` (the run
watch's estimator) measures its rate over a recent window. Once the run is DONE, ERROR or
CANCELLED there is no ETA, only the final status.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from api_client.errorbar.shapes_fixed import TERMINAL
from application.runs.eta import EtaEstimator
from common.format import format_duration

__all__ = ["RunProgress"]

STEPS = 1000


@dataclass
class RunProgress:
    run_id: str
    estimator: EtaEstimator = field(default_factory=lambda: EtaEstimator(min_items=3, min_span_s=2.0))

    def add(self, at: float, ratio: float | None) -> None:
        self.estimator.add(at, None if ratio is None else round(ratio * STEPS))

    def describe(self, status: str | None, ratio: float | None) -> str:
        done = "—" if ratio is None else f"{ratio * 100:.0f}%"
        if status in TERMINAL:
            return f"{status} · {done}"
        if ratio is None:
            return f"{status or 'status unknown'} · the platform sent no progress"
        eta = self.estimator.estimate(STEPS)
        if eta.phase == "eta":
            tail = f"ETA {format_duration(eta.seconds_left)}"
        elif eta.phase == "no_progress":
            tail = f"no progress for {format_duration(eta.idle_s)}"
        else:
            tail = "ETA: estimating…"
        return f"{status or 'status unknown'} · {done} done · {tail}"
