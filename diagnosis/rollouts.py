"""Diagnosis of agent rollouts: ``classify`` on every completion step, tool-call loops, the
share of failed tool calls, and a grade that failed with nothing in the steps to explain it.

Pure (no IO, no Textual). A rollout is the product's own record (``common.records.Rollout``),
as the platform's client parsed it (never copied); a diagnosis holds that very object, typed
as given (``RolloutDiagnosis[R]``). A rollout's per-step findings are the same detectors as a
blah.dev call's (``classify`` on the step read as a call by ``common.records.step_call``: its
prompt, its final answer as the reply, its completion tokens against the job's
``max_tokens``), so a step and a call read alike.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from common.records import Rollout, RolloutStep, ToolCall, step_call, step_number

from . import kinds
from .classifier import classify, kinds_of
from .finding import Finding

R = TypeVar("R", bound=Rollout)
"""The caller's rollout type (``common.records.Rollout`` or a subclass), kept as given."""

__all__ = [
    "TOOL_LOOP_MIN_REPEATS",
    "EvaluationDiagnosis",
    "RolloutDiagnosis",
    "diagnose_evaluation",
    "diagnose_rollout",
    "find_tool_loops",
    "step_number",
]

TOOL_LOOP_MIN_REPEATS = 3
"""The same tool with the same arguments this many times in a row is a tool-call loop (a
healthy agent that needs a result again asks differently, or uses the one it has)."""


def _args_key(call: ToolCall) -> str:
    try:
        return json.dumps(call.args, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(call.args)


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def find_tool_loops(steps: Sequence[RolloutStep], min_repeats: int = TOOL_LOOP_MIN_REPEATS) -> list[Finding]:
    """Runs of at least ``min_repeats`` consecutive tool calls with the same tool and the same
    arguments (compared as canonical JSON), across step boundaries. ``detail``: tool, args,
    repeats, first_step, last_step, failed (how many of the repeats failed)."""
    calls = [(step.index, call) for step in steps for call in step.tool_calls]
    number = {step.index: position + 1 for position, step in enumerate(steps)}  # as a person counts
    findings: list[Finding] = []
    start = 0
    while start < len(calls):
        first_step, first = calls[start]
        key = (first.name, _args_key(first))
        end = start + 1
        while end < len(calls) and (calls[end][1].name, _args_key(calls[end][1])) == key:
            end += 1
        repeats = end - start
        if repeats >= min_repeats:
            last_step = calls[end - 1][0]
            failed = sum(call.failed for _, call in calls[start:end])
            name = first.name or "(unnamed tool)"
            first_n, last_n = number.get(first_step, first_step), number.get(last_step, last_step)
            where = f"step {first_n}" if first_step == last_step else f"steps {first_n}–{last_n}"
            outcome = "all failed" if failed == repeats else f"{failed} failed" if failed else "all succeeded"
            evidence = f"The same tool call {repeats} times in a row ({where}; {outcome}): {name}({_short(key[1])})"
            detail = {
                "tool": first.name,
                "args": key[1],
                "repeats": repeats,
                "first_step": first_step,
                "last_step": last_step,
                "failed": failed,
            }
            findings.append(Finding(kinds.TOOL_LOOP, evidence, None, detail))
        start = end
    return findings


@dataclass(frozen=True)
class RolloutDiagnosis(Generic[R]):
    """What is wrong with one rollout."""

    rollout: R
    step_findings: dict[int, list[Finding]] = field(default_factory=dict)
    """``classify`` per step index (only steps with findings)."""
    tool_loops: list[Finding] = field(default_factory=list)
    rollout_findings: list[Finding] = field(default_factory=list)
    """Findings about the whole rollout (failed tool calls, an unexplained failed grade)."""
    tool_calls: int = 0
    failed_tool_calls: int = 0

    @property
    def failed_tool_share(self) -> float | None:
        """Failed / all tool calls; ``None`` when the rollout called no tool."""
        return self.failed_tool_calls / self.tool_calls if self.tool_calls else None

    @property
    def findings(self) -> list[Finding]:
        every = [f for index in sorted(self.step_findings) for f in self.step_findings[index]]
        return every + self.tool_loops + self.rollout_findings

    @property
    def kinds(self) -> list[str]:
        return kinds_of(self.findings)

    def findings_at(self, step_index: int) -> list[Finding]:
        """The step's own findings, and the tool loops it takes part in."""
        own = list(self.step_findings.get(step_index, []))
        loops = [f for f in self.tool_loops if f.detail["first_step"] <= step_index <= f.detail["last_step"]]
        return own + loops


def diagnose_rollout(
    rollout: R, *, trained_template: str | None = None, min_repeats: int = TOOL_LOOP_MIN_REPEATS
) -> RolloutDiagnosis[R]:
    step_findings: dict[int, list[Finding]] = {}
    for step in rollout.steps:
        if step.final_answer is None:
            continue  # a step that only called tools: no reply to read
        found = classify(step_call(rollout, step), trained_template=trained_template)
        if found:
            step_findings[step.index] = found
    loops = find_tool_loops(rollout.steps, min_repeats)
    calls = rollout.tool_calls
    failed = sum(call.failed for call in calls)
    extra: list[Finding] = []
    if failed:
        extra.append(
            Finding(
                kinds.TOOL_FAILURES,
                f"{failed} of {len(calls)} tool calls failed ({failed / len(calls):.0%}).",
                None,
                {"failed": failed, "total": len(calls)},
            )
        )
    grade = rollout.grade
    explained = bool(step_findings or loops)
    if grade is not None and grade.passed is False and not explained:
        conditions = "; ".join(grade.failed_conditions) or grade.explanation or "no reason given"
        last = rollout.steps[-1].index if rollout.steps else None
        evidence = f"The grader failed it ({_short(conditions, 160)}) and nothing in the steps explains it."
        wrong = Finding(kinds.WRONG_ANSWER, evidence, None, {"reward": grade.reward, "step": last})
        if last is not None:
            step_findings.setdefault(last, []).append(wrong)
        else:
            extra.append(wrong)
    return RolloutDiagnosis(rollout, step_findings, loops, extra, len(calls), failed)


@dataclass(frozen=True)
class EvaluationDiagnosis(Generic[R]):
    """One evaluation's rollouts, diagnosed, and the numbers the list sorts by."""

    rollouts: list[RolloutDiagnosis[R]]

    @property
    def failed_rollouts(self) -> int:
        """Rollouts whose grade did not pass (ungraded ones are not counted as failed)."""
        return sum(d.rollout.passed is False for d in self.rollouts)

    @property
    def ungraded_rollouts(self) -> int:
        return sum(d.rollout.grade is None for d in self.rollouts)

    @property
    def tool_loop_rollouts(self) -> int:
        return sum(bool(d.tool_loops) for d in self.rollouts)

    @property
    def tool_calls(self) -> int:
        return sum(d.tool_calls for d in self.rollouts)

    @property
    def failed_tool_calls(self) -> int:
        return sum(d.failed_tool_calls for d in self.rollouts)

    @property
    def failed_tool_share(self) -> float | None:
        return self.failed_tool_calls / self.tool_calls if self.tool_calls else None

    def kind_counts(self) -> dict[str, int]:
        """How many rollouts show each kind, in the canonical order."""
        counts: dict[str, int] = {}
        for diagnosis in self.rollouts:
            for kind in diagnosis.kinds:
                counts[kind] = counts.get(kind, 0) + 1
        order = kinds_of(Finding(kind, "") for kind in counts)
        return {kind: counts[kind] for kind in order}

    @property
    def findings(self) -> int:
        """Rollouts with at least one finding."""
        return sum(bool(d.findings) for d in self.rollouts)


def diagnose_evaluation(rollouts: Iterable[R], *, trained_template: str | None = None) -> EvaluationDiagnosis[R]:
    return EvaluationDiagnosis([diagnose_rollout(r, trained_template=trained_template) for r in rollouts])


def sort_value(diagnosis: EvaluationDiagnosis[Any] | None, key: str) -> Any:
    """What the evaluation list sorts by (larger = worse = first); ``None`` sorts last."""
    if diagnosis is None:
        return None
    return {
        "failed": diagnosis.failed_rollouts,
        "tool_loops": diagnosis.tool_loop_rollouts,
        "failed_tools": diagnosis.failed_tool_share,
        "findings": diagnosis.findings,
    }[key]
