"""What happened to a run between two polls, worth telling the person once: it ended,
stalled, came back, or stopped moving while the platform still says running (pure logic).

How often the run is polled is not decided here: :class:`RunWatch.observe` says whether the
run moved (progress, for :class:`application.poller.Poller`), the poller decides the wait.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from api_client.blahdev.shapes import Run
from application.runs.blah.statuses import ACTIVE_STATUSES, ATTENTION_STATUSES
from application.runs.eta import Eta, EtaEstimator
from common.format import DASH, format_duration

__all__ = ["RunEvent", "RunWatch", "ended_message"]


@dataclass(frozen=True, slots=True)
class RunEvent:
    """Something about the run the person should hear about (once)."""

    kind: Literal["ended", "resumed", "no_progress"]
    status: str | None
    message: str

    @property
    def severity(self) -> Literal["information", "warning", "error"]:
        if self.kind == "ended" and self.status == "completed":
            return "information"
        if self.kind == "resumed":
            return "information"
        return "error" if self.status == "failed" else "warning"


def ended_message(run: Run) -> str:
    """One sentence for a run that ended (or stalled)."""
    done = run.completed_count
    total = run.total_items
    counts = f"{done if done is not None else DASH} of {total if total is not None else DASH} items"
    status = run.status or "unknown"
    if status == "completed":
        return f"Run {run.id} completed: {counts}."
    if status == "stalled":
        return f"Run {run.id} stalled part-way ({counts}); it can be resumed."
    if status == "failed":
        why = f": {run.error}" if run.error else ""
        return f"Run {run.id} failed after {counts}{why}"
    return f"Run {run.id} {status} ({counts})."


class RunWatch:
    """Follows one run across polls: the ETA, and the transitions worth a notification.

    ``observe`` returns the events of this poll; each transition is reported once. A run
    that is already finished when first seen is not news (no event). The live service has
    no "stalled" status, so a run that has not moved for ``stall_after_s`` while the
    platform still says running is reported once as ``no_progress``.
    """

    def __init__(
        self,
        run_id: str,
        *,
        clock: Callable[[], float],
        stall_after_s: float = 300.0,
        estimator: EtaEstimator | None = None,
    ) -> None:
        self.run_id = run_id
        self.clock = clock
        self.stall_after_s = stall_after_s
        self.estimator = estimator or EtaEstimator()
        self.latest: Run | None = None
        self._no_progress_said = False

    @property
    def status(self) -> str | None:
        return self.latest.status if self.latest else None

    @property
    def active(self) -> bool:
        """True while the run may still move on its own (keep polling at the normal pace)."""
        return self.latest is None or (self.latest.status not in ATTENTION_STATUSES)

    def observe(self, run: Run) -> tuple[list[RunEvent], bool]:
        """Take one polled state of the run: (events to tell, whether the run moved: its
        status or completed count changed, or it is the first look)."""
        now = self.clock()
        previous = self.latest
        self.latest = run
        events: list[RunEvent] = []
        was = previous.status if previous else None
        if previous is not None and run.status != was:
            if run.status in ATTENTION_STATUSES:
                events.append(RunEvent("ended", run.status, ended_message(run)))
            elif run.status in ACTIVE_STATUSES and was in ATTENTION_STATUSES:
                events.append(RunEvent("resumed", run.status, f"Run {run.id} is {run.status} again."))
                self.estimator.reset()
                self._no_progress_said = False
        if previous is not None and run.status in ACTIVE_STATUSES and run.completed_count != previous.completed_count:
            self._no_progress_said = False
        self.estimator.add(now, run.completed_count)
        changed = previous is None or run.completed_count != previous.completed_count or run.status != was
        eta = self.eta()
        if (
            run.status == "running"
            and not self._no_progress_said
            and eta.phase == "no_progress"
            and eta.idle_s is not None
            and eta.idle_s >= self.stall_after_s
        ):
            self._no_progress_said = True
            events.append(
                RunEvent(
                    "no_progress",
                    run.status,
                    f"Run {run.id} has not moved for {format_duration(eta.idle_s)} "
                    "although the platform still says running.",
                )
            )
        return events, changed

    def eta(self) -> Eta:
        return self.estimator.estimate(self.latest.total_items if self.latest else None)
