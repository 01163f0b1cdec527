"""Watching an eval run: ETA, polling back-off and the events worth telling the person about.

Pure logic (no IO, no Textual): the Runs screens feed it what they polled and a clock, and
show what it says. Everything is unit-tested with a fake clock.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from api_client.errors import AuthError, BlahError, NotFoundError, RateLimitedError
from api_client.models import Result, Run
from common.format import DASH, format_duration

__all__ = [
    "ACTIVE_STATUSES",
    "ATTENTION_STATUSES",
    "Eta",
    "EtaEstimator",
    "EvalProgress",
    "PollBackoff",
    "RunEvent",
    "RunWatch",
    "ended_message",
    "eval_progress",
    "format_duration",
]

ACTIVE_STATUSES = frozenset({"queued", "running"})
"""Statuses in which the run is still moving (polling continues at the normal pace)."""
ATTENTION_STATUSES = frozenset({"completed", "failed", "stalled", "cancelled"})
"""Statuses that end a run (or pause it: stalled) and are worth a notification."""
RESUMABLE_STATUSES = frozenset({"stalled", "failed"})
CANCELLABLE_STATUSES = frozenset({"running", "queued"})


# --------------------------------------------------------------------------- ETA


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
        change_index = max(
            (i for i, (at, _c) in enumerate(self._samples) if at == self._last_change_at), default=None
        )
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


# --------------------------------------------------------------------------- polling


@dataclass
class PollBackoff:
    """How long to wait before the next poll of a run.

    Progress -> back to ``base``. No change -> the wait grows by ``factor`` up to ``max_idle``.
    Errors -> doubling from ``base`` up to ``max_error`` (a 429's Retry-After wins when
    longer). Transient errors never stop the watch; ``fatal(error)`` says which ones do.
    """

    base: float = 1.0
    factor: float = 1.5
    max_idle: float = 10.0
    max_error: float = 30.0
    current: float = 1.0
    errors: int = 0

    def after_poll(self, *, changed: bool) -> float:
        self.errors = 0
        self.current = self.base if changed else min(self.current * self.factor, self.max_idle)
        return self.current

    def after_error(self, error: BaseException) -> float:
        self.errors += 1
        delay = min(self.base * (2 ** self.errors), self.max_error)
        if isinstance(error, RateLimitedError) and error.retry_after is not None:
            delay = max(delay, min(error.retry_after, self.max_error))
        self.current = delay
        return delay

    @staticmethod
    def fatal(error: BaseException) -> bool:
        """Errors that polling again cannot fix: the run is gone, or the key is refused."""
        return isinstance(error, (NotFoundError, AuthError)) or not isinstance(error, BlahError)


# --------------------------------------------------------------------------- events


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
        self.backoff = PollBackoff()
        self.latest: Run | None = None
        self._no_progress_said = False

    @property
    def status(self) -> str | None:
        return self.latest.status if self.latest else None

    @property
    def active(self) -> bool:
        """True while the run may still move on its own (keep polling at the normal pace)."""
        return self.latest is None or (self.latest.status not in ATTENTION_STATUSES)

    def observe(self, run: Run) -> tuple[list[RunEvent], float]:
        """Take one polled state of the run: (events to tell, seconds until the next poll)."""
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
        return events, self.backoff.after_poll(changed=changed)

    def observe_error(self, error: BaseException) -> float:
        """A poll failed: seconds until the next try (the caller stops when ``fatal``)."""
        return self.backoff.after_error(error)

    def eta(self) -> Eta:
        return self.estimator.estimate(self.latest.total_items if self.latest else None)


# --------------------------------------------------------------------------- per-eval status


@dataclass(frozen=True, slots=True)
class EvalProgress:
    """Results landed so far for one eval of a run."""

    eval_id: str
    results: int
    errors: int
    models: int  # distinct models with at least one result
    mean_score: float | None  # over scored results only; None when none is scored
    last_at: int | None  # newest result's created_at (ms), when the platform gave ms

    def status(self, expected_models: int | None, run_status: str | None) -> str:
        if expected_models is not None and self.models >= expected_models and run_status == "completed":
            return "done"
        if run_status in ATTENTION_STATUSES:
            return run_status or DASH
        return "landing"


def eval_progress(results: Iterable[Result], eval_order: Sequence[str] = ()) -> list[EvalProgress]:
    """Group a run's results by eval (in ``eval_order`` first, then first-seen order)."""
    groups: dict[str, list[Result]] = {eid: [] for eid in eval_order}
    for result in results:
        groups.setdefault(result.eval_id or DASH, []).append(result)
    out: list[EvalProgress] = []
    for eval_id, items in groups.items():
        scores = [r.score for r in items if r.score is not None]
        times = [r.created_at for r in items if isinstance(r.created_at, int)]
        out.append(
            EvalProgress(
                eval_id=eval_id,
                results=len(items),
                errors=sum(1 for r in items if r.error),
                models=len({r.model_id for r in items if r.model_id}),
                mean_score=sum(scores) / len(scores) if scores else None,
                last_at=max(times) if times else None,
            )
        )
    return out
