"""What a new bake-off will run and spend on, said before it is sent (contract 1: create
spends on all baseline and arm generations plus judge calls; best-of-N pays N times).

Counts are exact from the request. A cost figure is made only from what the queue measured:
the per-answer and per-judge-call costs of this workspace's earlier finished runs
(``eval_cost_micros`` over the answers it paid for, ``judge_cost_micros`` over the judge
calls), and a screening run's ``est_usd_per_request``. Both are said in dollars, one unit
(``*_micros`` read as millionths of a dollar: ASSUMED in ``api_client.errorbar.shapes``); a
model no run measured has no figure, and the sentence says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING

from application.bakeoffs.new_run.request import STORED, NewRun
from application.bakeoffs.words import STORED_BASELINE_LONG, micros_usd_text, usd_text
from common.format import plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["RunSize", "SpendPlan", "measured_costs", "run_size", "spend_plan"]


@dataclass(frozen=True)
class SpendPlan:
    generations: int
    judge_calls: int
    lines: tuple[str, ...]
    """What runs, one line each (generations per model, judge calls, the estimate)."""
    estimate_micros: float | None
    """The whole run in the queue's unit, when every part was measured; else None."""


@dataclass(frozen=True)
class RunSize:
    """What a run of that shape asks for (contract 1), before any price."""

    generations: int
    """The baseline's answers (none when it is __stored__) and every arm's, best-of-N counted N times."""
    pairs: int
    """Pairs judged: one per sample and arm."""
    knockouts: int
    """Best-of-N knockouts: N-1 per sample of an arm with N answers."""


def run_size(samples: int, answers_per_arm: Sequence[int], stored: bool) -> RunSize:
    """The counts of a run of ``samples`` samples whose arms give these answers per sample
    (best-of-N: N, else 1); ``stored``: the baseline is the logged answers (__stored__)."""
    return RunSize(
        generations=(0 if stored else samples) + sum(samples * answers for answers in answers_per_arm),
        pairs=samples * len(answers_per_arm),
        knockouts=sum(samples * (answers - 1) for answers in answers_per_arm),
    )


@dataclass(frozen=True)
class MeasuredCosts:
    per_answer: dict[str, float]
    """model -> micros per generated answer (median over earlier runs)."""
    per_judge_call: dict[str, float]
    """judge model -> micros per judge call."""
    usd_per_request: dict[str, float]
    """model -> the screening's estimated $ per request."""


def _median(values: dict[str, list[float]]) -> dict[str, float]:
    return {k: median(v) for k, v in values.items() if v}


def measured_costs(runs: Sequence[assumed.Run]) -> MeasuredCosts:
    answers: dict[str, list[float]] = {}
    judges: dict[str, list[float]] = {}
    usd: dict[str, list[float]] = {}
    for run in runs:
        results = run.results
        if results is None or run.status != "DONE":
            continue
        models = {arm.key: arm.model or arm.key for arm in run.arms}
        calls = 0
        for row in results.per_candidate:
            model = row.model or models.get(row.key)
            if model and row.eval_cost_micros is not None and row.attempted:
                answers.setdefault(model, []).append(row.eval_cost_micros / row.attempted)
            calls += 2 * (row.attempted or 0)
        base = results.baseline
        if (
            base is not None
            and not base.stored_answers
            and base.eval_cost_micros is not None
            and run.baseline_model
            and run.baseline_model != STORED
            and results.sample_count
        ):
            answers.setdefault(run.baseline_model, []).append(base.eval_cost_micros / results.sample_count)
        for model_row in results.per_model:
            graded = sum(v or 0 for v in (model_row.judged_pass, model_row.judged_fail, model_row.unparsed))
            model = models.get(model_row.model, model_row.model)
            if model != STORED and model_row.eval_cost_micros and graded:
                answers.setdefault(model, []).append(model_row.eval_cost_micros / graded)
            calls += graded
        if run.judge_model and results.judge_cost_micros is not None and calls:
            judges.setdefault(run.judge_model, []).append(results.judge_cost_micros / calls)
        for entry in results.screening.per_candidate if results.screening is not None else []:
            if entry.model and entry.est_usd_per_request is not None:
                usd.setdefault(entry.model, []).append(entry.est_usd_per_request)
    return MeasuredCosts(_median(answers), _median(judges), _median(usd))


def spend_plan(request: NewRun, runs: Sequence[assumed.Run], judge_model: str | None = None) -> SpendPlan:
    """The counts and the estimate. ``judge_model``: the judge that will read (a criterion's
    frozen one); else the request's, else the queue's default (not known here)."""
    samples = request.sample_count
    costs = measured_costs(runs)
    size = run_size(samples, [arm.answers for arm in request.arms], request.baseline_model == STORED)
    lines: list[str] = []
    to_price: list[tuple[str, int]] = []
    if request.baseline_model == STORED:
        lines.append(f"baseline: {STORED_BASELINE_LONG}: 0 generations")
    else:
        to_price.append((request.baseline_model, samples))
        lines.append(f"baseline {request.baseline_model}: {plural(samples, 'generation')}")
    for arm in request.arms:
        count = samples * arm.answers
        to_price.append((arm.model, count))
        best = f" ({samples} samples × best-of-{arm.n})" if arm.n else ""
        lines.append(f"arm {arm.key}: {plural(count, 'generation')}{best}")
    if request.eval_kind == "criterion":
        graded = 1 + len(request.arms)
        judge_calls = samples * graded
        judge_line = (
            f"judge: {plural(judge_calls, 'call')} (one pass/fail grading per answer: "
            f"{plural(samples, 'sample')} × {plural(graded, 'model')})"
        )
    else:
        judge_calls = 2 * (size.pairs + size.knockouts)
        judge_line = f"judge: {plural(judge_calls, 'call')} (two per pair, both orderings: {plural(size.pairs, 'pair')}"
        judge_line += (
            f", plus {size.knockouts} best-of-N knockouts, two calls each like every pair)" if size.knockouts else ")"
        )
    lines.append(judge_line)
    judge = judge_model or request.judge_model
    judge_cost = (
        costs.per_judge_call.get(judge)
        if judge
        else (median(costs.per_judge_call.values()) if costs.per_judge_call else None)
    )
    missing = sorted({model for model, _ in to_price if model not in costs.per_answer})
    estimate = None
    if judge_cost is None:
        missing.append(f"the judge {judge}" if judge else "the queue's default judge")
    if not missing and judge_cost is not None:
        estimate = sum(costs.per_answer[m] * k for m, k in to_price) + judge_cost * judge_calls
        lines.append(
            f"estimate: about {micros_usd_text(estimate)} for the whole run (generations and judge calls), "
            "as measured on this workspace's earlier runs"
        )
    elif len(missing) < len(to_price) + 1:
        lines.append(f"no full cost estimate: no earlier run measured {', '.join(missing)}")
    else:
        lines.append("no cost estimate: no earlier run or screening measured these models")
    priced = [(m, k) for m, k in to_price if m in costs.usd_per_request]
    if priced:
        usd = sum(costs.usd_per_request[m] * k for m, k in priced)
        lines.append(
            f"screening's estimate for {', '.join(sorted({m for m, _ in priced}))}: about {usd_text(usd)} "
            "for these generations alone (its estimated $ per request)"
        )
    return SpendPlan(size.generations, judge_calls, tuple(lines), estimate)
