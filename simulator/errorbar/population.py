"""Which prompts a run samples (contract 3.2 "Population"), and the page's certified-switch
rules on top of it.

- Logged traffic (the default), narrowed by ``tag``, ``model`` and ``segment``.
- ``dataset_id``: a managed dataset's rows instead of live logs (each with its assistant turn
  as the reference); an unknown id is a 404, fewer than 5 usable rows a 400.
- ``trace_replay``: the completed agent runs of the last 7 days, one teacher-forced sample
  per step (at most 12 steps per run); needs ``__stored__`` and at least 5 replayable steps.
- An ``adherence`` rubric needs a text reference: rows whose reply is text (an agent step
  that called a tool has none).
- A criterion run's tag/segment must be the criterion's calibrated population (400 naming
  both); on a certified switch (``__stored__`` with a criterion) an unfiltered run on a
  scoped judge refuses too (strict matching, no warning), the criterion must be calibrated
  (TPR+TNR−1 > 0), and a run too small to conclude answers 412.

ASSUMED (the contract does not say): the dataset and trace contents below; "underpowered"
means the corrected pass rate's 95 % interval would be wider than ±``MAX_HALF_WIDTH`` at the
worst case p = 0.5 (half-width 1.96·0.5/(√n·(TPR+TNR−1))), and the 412's text names the
sample count that would be enough ("at least N samples").
"""

from __future__ import annotations

import math
import random
from typing import Any

from simulator.errorbar.errors import QueueError
from simulator.errorbar.world import PROMPTS, STORED, Criterion, LoggedRequest

MAX_HALF_WIDTH = 0.15
Z95 = 1.959963984540054
MAX_STEPS = 12


def _dataset(dataset_id: str, size: int, seed: int) -> list[LoggedRequest]:
    rng = random.Random(f"errorbar-dataset:{dataset_id}:{seed}")
    rows = []
    for index in range(size):
        prompt = PROMPTS[(index * 5 + 3) % len(PROMPTS)]
        rows.append(
            LoggedRequest(
                f"{dataset_id}_row_{index:03d}",
                f"SYSTEM: You are a support agent.\nUSER: {prompt}",
                "Qwen/Qwen3-235B-A22B",
                "holdout",
                f"Reference answer {index}: the vetted reply.",
                reference_good=rng.random() < 0.9,
            )
        )
    return rows


DATASETS: dict[str, list[LoggedRequest]] = {
    "ds_holdout": _dataset("ds_holdout", 16, 1),  # a vetted holdout split: references mostly good
    "ds_tiny": _dataset("ds_tiny", 3, 2),  # too small to sample from
}


def agent_traces() -> list[LoggedRequest]:
    """Completed agent runs as their steps: each step's prompt is the conversation so far
    (teacher-forced on the logged turns), its reply the logged next turn; the last is text."""
    steps = []
    for run in range(4):
        count = 3 + run  # 3..6 steps
        history = f"SYSTEM: You are a support agent with tools.\nUSER: {PROMPTS[run * 3 % len(PROMPTS)]}"
        for step in range(min(count, MAX_STEPS)):
            final = step == count - 1
            reply = f"Resolved (trace {run}): here is the answer." if final else f"TOOL_CALL lookup_order(step={step})"
            steps.append(
                LoggedRequest(
                    f"trace_{run}_step_{step:02d}",
                    history,
                    "Qwen/Qwen3-32B",
                    "agent",
                    reply,
                    text_reply=final,
                    trace_id=f"trace_{run}",
                    step=step,
                )
            )
            history += f"\nASSISTANT: {reply}\nTOOL: result of step {step}"
    return steps


TRACES = agent_traces()


def population(traffic: list[LoggedRequest], filters: dict[str, Any]) -> list[LoggedRequest]:
    """The rows a run samples from (no refusal here; see ``check_population``)."""
    if filters.get("dataset_id"):
        rows = list(DATASETS.get(str(filters["dataset_id"]), []))
    elif filters.get("trace_replay"):
        rows = list(TRACES)
    else:
        rows = traffic
    for name in ("tag", "model"):
        if filters.get(name):
            rows = [r for r in rows if getattr(r, name) == filters[name]]
    if filters.get("segment"):
        rows = [r for r in rows if filters["segment"] in r.prompt]
    return rows


def check_population(
    rows: list[LoggedRequest], filters: dict[str, Any], *, needs_reference: bool
) -> list[LoggedRequest]:
    """The usable rows, or the contract's refusal."""
    if filters.get("dataset_id"):
        if filters["dataset_id"] not in DATASETS:
            raise QueueError(404, "Dataset not found", "not_found")
        if len(rows) < 5:
            raise QueueError(400, f"Dataset '{filters['dataset_id']}' has fewer than 5 usable rows.")
    if filters.get("trace_replay") and len(rows) < 5:
        raise QueueError(400, "Not enough replayable steps (need at least 5 from completed agent runs).")
    if needs_reference:
        rows = [r for r in rows if r.text_reply]
    if len({r.prompt for r in rows}) < 5:
        extra = " with references" if needs_reference else ""
        raise QueueError(
            400, f"Not enough logged traffic for this filter (need at least 5 distinct prompts{extra} with this filter)"
        )
    return rows


def _scope(population_: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(population_.items())) or "all traffic"


def check_criterion_binding(criterion: Criterion, filters: dict[str, Any], *, certified: bool) -> None:
    """400 when the run's population is not the one the criterion was calibrated on."""
    scoped = {k: v for k, v in criterion.population.items() if k in ("tag", "segment")}
    asked = {k: filters[k] for k in ("tag", "segment") if filters.get(k)}
    differs = any(k in asked and asked[k] != v for k, v in scoped.items()) or any(k not in scoped for k in asked)
    unfiltered_on_scoped = bool(scoped) and not asked
    if differs or (certified and unfiltered_on_scoped):
        strict = (
            " (a certified switch matches populations strictly: it refuses instead of warning)" if certified else ""
        )
        raise QueueError(
            400,
            f"Population mismatch: criterion '{criterion.name}' was calibrated on "
            f"{_scope(scoped)}, this run samples {_scope(asked)}{strict}.",
        )


def samples_needed(youden: float) -> int:
    return math.ceil((Z95 * 0.5 / (youden * MAX_HALF_WIDTH)) ** 2)


def check_certified(criterion: Criterion | None, kind: str, sample_count: int) -> None:
    """The certified switch (``__stored__`` baseline, not a replay): a calibrated criterion is
    required (400), and a run too small to conclude answers 412."""
    if kind != "criterion" or criterion is None:
        raise QueueError(
            400,
            f'baseline_model "{STORED}" (a certified switch) requires a calibrated criterion: '
            "eval_kind criterion with criterion_id.",
        )
    if criterion.tpr is None or criterion.tnr is None:
        raise QueueError(
            400,
            f"Criterion '{criterion.name}' is not calibrated (no alignment run): a certified "
            "switch requires a calibrated criterion.",
        )
    youden = criterion.tpr + criterion.tnr - 1
    if youden <= 0:
        raise QueueError(
            400,
            f"Criterion '{criterion.name}' is no better than chance (TPR+TNR-1 = {youden:.2f}): "
            "a certified switch requires a calibrated criterion.",
        )
    needed = samples_needed(youden)
    if sample_count < needed:
        raise QueueError(
            412,
            f"Underpowered: with this judge (TPR+TNR-1 = {youden:.2f}) the corrected pass rate "
            f"cannot be bounded within ±{MAX_HALF_WIDTH:.2f} from {sample_count} samples; ask for "
            f"at least {needed} samples.",
            "precondition_failed",
        )
