"""Stop a bake-off once it is decided (no Textual; the watch screen and `bakeoff watch
--stop-when-decided` share it).

While the run is RUNNING its samples are read in order (the queue's samples route answers
while RUNNING) and every candidate's anytime-valid reading is updated
(``diagnosis.early_stop``): a comparison run's win rate against 50 % (with the margin:
noninferior), a criterion run's paired difference against the incumbent and the margin. Once
every candidate is decided the watch says "decided at N of M samples", what the rest would
cost, and asks (``confirm``) before cancelling: the cancel is sent once, never resent. A run
that ended meanwhile (the cancel answered "already done", or the re-read shows DONE) is
reported as finished, not as an error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from api_client.errors import BlahError
from application.bakeoffs.words import micros_usd_text
from common.format import plural
from diagnosis.early_stop import EarlyReading, check_margin, criterion_reading, remaining_cost, win_rate_reading

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient
    from application.bakeoffs.cost import MeasuredCosts

__all__ = [
    "EarlyStop",
    "per_sample_cost",
    "run_readings",
    "saving_sentence",
    "watch_until_decided",
]

Ending = Literal["finished", "stopped_early", "declined"]


def run_readings(
    run: assumed.Run, samples: Sequence[assumed.Sample], margin: float | None = None
) -> list[EarlyReading]:
    """Every candidate's reading over the samples read so far (in the queue's order)."""
    check_margin(margin)
    planned = run.sample_count or len(samples)
    arms = [a.key for a in run.arms] or list(run.candidate_models)
    if (run.eval_kind or "comparison") == "criterion":
        incumbent = run.baseline_model or ""
        readings = []
        for arm in arms:
            if arm == incumbent:
                continue
            candidate, baseline = [], []
            for sample in samples:
                by_key = {a.model: a.outcome for a in sample.candidates}
                if arm in by_key and incumbent in by_key:
                    candidate.append(by_key[arm])
                    baseline.append(by_key[incumbent])
            readings.append(criterion_reading(arm, candidate, baseline, planned, margin))
        return readings
    return [
        win_rate_reading(arm, [a.outcome for s in samples for a in s.candidates if a.model == arm], planned, margin)
        for arm in arms
    ]


def per_sample_cost(run: assumed.Run, costs: MeasuredCosts) -> float | None:
    """One more sample's generations and judge calls, in the queue's ``*_micros``, from this
    workspace's measured costs (None when a model or the judge was never measured)."""
    models = [a.model or a.key for a in run.arms]
    answers = [a.n or 1 for a in run.arms]
    if run.eval_kind == "criterion":
        calls = 1 + len(run.arms)  # one pass/fail grading per answer, the baseline's included
    else:
        calls = sum(2 * k for k in answers)  # two per pair (both orderings), best-of-N knockouts too
    if run.baseline_model and run.baseline_model != "__stored__":
        models.append(run.baseline_model)
        answers.append(1)
    if any(m not in costs.per_answer for m in models):
        return None
    judge = costs.per_judge_call.get(run.judge_model or "")
    if judge is None:
        return None
    generation = sum(costs.per_answer[m] * k for m, k in zip(models, answers, strict=True))
    return generation + calls * judge


@dataclass(frozen=True)
class EarlyStop:
    """How a watch ended: the run as last read, the readings, the cancels sent (0 or 1)."""

    ending: Ending
    run: assumed.Run
    readings: list[EarlyReading]
    cancels_sent: int = 0
    saved: float | None = None  # what the samples not run would have cost (the queue's *_micros)
    notes: list[str] = field(default_factory=list)

    @property
    def decided_at(self) -> int | None:
        return max((r.read for r in self.readings), default=None) if self.readings else None


def saving_sentence(readings: Sequence[EarlyReading], saved: float | None) -> str:
    """``cancelling now saves about $0.0123 of generations and judge calls (12 samples not run)``."""
    if not readings:
        return "no reading yet"
    left = max(r.planned - r.read for r in readings)
    if saved is None:
        whose = plural(left, "sample's", "samples'")
        return (
            f"cancelling now skips {whose} generations and judge calls (their cost was "
            "never measured in this workspace, so no figure)"
        )
    return (
        f"cancelling now saves about {micros_usd_text(saved)} of generations and judge calls "
        f"({plural(left, 'sample')} not run)"
    )


async def watch_until_decided(
    client: ErrorbarClient,
    run_id: str,
    *,
    margin: float | None,
    sleep: Callable[[float], Awaitable[None]],
    confirm: Callable[[list[EarlyReading], float | None], Awaitable[bool]],
    costs: MeasuredCosts | None = None,
    interval: float = 2.0,
    on_poll: Callable[[assumed.Run, list[EarlyReading]], None] | None = None,
) -> EarlyStop:
    """Poll ``run_id`` until it ends, or until it is decided and ``confirm`` agrees to cancel
    (asked once; declined, the watch goes on to the end). Errors of reading propagate; the
    cancel is sent once and a run that ended meanwhile is reported as finished."""
    check_margin(margin)
    asked = False
    while True:
        run = await client.get_run(run_id)
        samples = await client.samples(run_id)
        readings = run_readings(run, samples, margin)
        if on_poll is not None:
            on_poll(run, readings)
        if run.terminal:
            return EarlyStop("finished", run, readings, notes=[] if not asked else ["declined to stop early"])
        if not asked and readings and all(r.decided for r in readings):
            asked = True
            per_sample = per_sample_cost(run, costs) if costs is not None else None
            saved = remaining_cost(max(r.read for r in readings), max(r.planned for r in readings), per_sample)
            if await confirm(readings, saved):
                return await _cancel_once(client, run_id, readings, saved)
        await sleep(interval)


async def _cancel_once(
    client: ErrorbarClient, run_id: str, readings: list[EarlyReading], saved: float | None
) -> EarlyStop:
    try:
        run = await client.cancel_run(run_id)
    except BlahError as error:
        # "already done" (400) or a lost answer: the run as it now is decides what to say.
        run = await client.get_run(run_id)
        if run.status == "CANCELLED":
            return EarlyStop("stopped_early", run, readings, 1, saved)
        if run.terminal:
            return EarlyStop(
                "finished", run, readings, 1, None, [f"the run ended while the cancel was on its way ({error.message})"]
            )
        raise
    if run.status != "CANCELLED":  # a slice in flight can still land it DONE: re-read
        run = await client.get_run(run_id)
    if run.status == "DONE":
        return EarlyStop("finished", run, readings, 1, None, ["the run finished while the cancel was on its way"])
    return EarlyStop("stopped_early", run, readings, 1, saved)
