"""The confirmation of a new bake-off, the same words in the TUI and the CLI: what will run,
on which prompts, what is checked, what it spends on, and what to know first (a judge no
better than chance, a judge of a candidate's family)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from application.bakeoffs.assertions import assertion_name
from application.bakeoffs.cost import spend_plan
from application.bakeoffs.new_run.request import RUBRIC_TYPE_HELP, STORED, NewRun
from application.bakeoffs.words import STORED_BASELINE, STORED_BASELINE_LONG
from common.format import plural

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["confirmation_lines", "request_plan_lines"]


def request_plan_lines(request: NewRun, criterion: assumed.Criterion | None) -> list[str]:
    """What this run can answer before it is paid for (``bakeoff plan``'s figures): its
    interval and, for a certified switch, the power of its margin. A criterion run's judge
    error widens the corrected interval, so its TPR/TNR enter the plan."""
    from application.bakeoffs.planning import run_plan_lines  # the arithmetic: not on `bakeoff gate`'s path

    judge = criterion if request.eval_kind == "criterion" else None
    return run_plan_lines(
        request.sample_count,
        request.noninferiority_margin if request.certified else None,
        judge.tpr if judge is not None else None,
        judge.tnr if judge is not None else None,
    )


def confirmation_lines(
    request: NewRun, criterion: assumed.Criterion | None, runs: Sequence[assumed.Run]
) -> list[tuple[str, str]]:
    """(label, text) lines; the label ``!`` marks a warning."""
    lines: list[tuple[str, str]] = [("Bake-off", request.name.strip())]
    if request.eval_kind == "criterion":
        name = (criterion.name or criterion.id) if criterion is not None else (request.criterion_id or "—")
        lines.append(
            (
                "Kind",
                (
                    f"criterion {name}: every model's answers graded pass/fail by its frozen judge, "
                    "corrected with the judge's measured error"
                ),
            )
        )
    else:
        lines.append(
            ("Kind", "comparison, rubric type " + RUBRIC_TYPE_HELP.get(request.rubric_type, request.rubric_type))
        )
    if request.certified:
        margin = request.noninferiority_margin
        lines.append(
            (
                "Baseline",
                f"against what you shipped ({STORED_BASELINE}, not regenerated): a certified switch; the gate's "
                f"noninferiority margin {margin:.2f}, scaled by the judge's measured error"
                if margin is not None
                else f"against what you shipped ({STORED_BASELINE}, not regenerated): a certified switch",
            )
        )
    elif request.baseline_model == STORED:
        lines.append(("Baseline", STORED_BASELINE_LONG))
    else:
        lines.append(("Baseline", request.baseline_model))
    judge = criterion.judge_model if request.eval_kind == "criterion" and criterion is not None else request.judge_model
    lines.append(
        (
            "Candidates",
            (", ".join(request.candidate_keys) or "none (the baseline graded alone)")
            + f" · judge {judge or 'the queue default'}",
        )
    )
    lines.append(
        (
            "Samples",
            (
                f"{request.sample_count} from {request.filters.describe()}; answers capped at "
                f"{request.max_output_tokens:,} tokens"
            ),
        )
    )
    if request.assertions:
        lines.append(
            (
                "Assertions",
                "; ".join(assertion_name(a) for a in request.assertions) + " (free: checked on every answer)",
            )
        )
    for warning in request.warnings(criterion):
        lines.append(("!", warning))
    for line in request_plan_lines(request, criterion):
        lines.append(("Plan", line))
    plan = spend_plan(request, runs, judge)
    generations = [line for line in plan.lines if line.startswith(("baseline", "arm "))]
    lines.append(("Spends", " · ".join(generations)))
    for line in plan.lines:
        if line.startswith("judge:"):
            lines.append(("Spends", line))
        elif line not in generations:
            lines.append(("Cost", line))
    lines.append(
        (
            "",
            (
                f"{plural(plan.generations, 'generation')} and {plural(plan.judge_calls, 'judge call')}, paid from the "
                "workspace's wallet. Sent once."
            ),
        )
    )
    return lines
