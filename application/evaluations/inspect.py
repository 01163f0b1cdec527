"""A rollout's steps as Inspector calls (``application.inspector.foreign.CallSource``)."""

from __future__ import annotations

import json
from typing import Any

from application.evaluations.evidence import PLATFORM, Evaluation, Rollout, RolloutStep
from application.inspector.foreign import ForeignCall, StepsById
from common.records import step_call, step_call_id, step_number
from diagnosis.rollouts import RolloutDiagnosis

__all__ = ["REPLAY_NOTE", "RolloutSteps", "step_id", "tool_call_line"]

REPLAY_NOTE = "Replay shows the record: no tool call is run again."


def step_id(rollout: Rollout, step: RolloutStep) -> str:
    return step_call_id(rollout.rollout_id, step_number(rollout, step))  # from 1, as the replay counts


def _compact(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tool_call_line(name: str | None, args: Any, failed: bool) -> str:
    return f"{'✖' if failed else '✓'} {name or '(unnamed tool)'}({_compact(args, 90)})"


class RolloutSteps(StepsById[RolloutStep]):
    """The steps of one rollout, by id, for the Inspector; ``n``/``p`` walk them in order."""

    platform = PLATFORM
    noun = "step"

    def __init__(self, evaluation: Evaluation, rollout: Rollout, diagnosis: RolloutDiagnosis) -> None:
        self.evaluation = evaluation
        self.rollout = rollout
        self.diagnosis = diagnosis
        super().__init__([step_id(rollout, step) for step in rollout.steps], rollout.steps)

    def call(self, call_id: str) -> ForeignCall | None:
        step = self.step(call_id)
        if step is None:
            return None
        evaluation, rollout = self.evaluation, self.rollout
        entry = step_call(
            rollout, step, created_at=evaluation.summary.created_ms, evaluation_id=evaluation.evaluation_id
        )
        origin: list[tuple[str, str]] = [
            ("platform", PLATFORM),
            ("evaluation", evaluation.evaluation_id),
            ("job", evaluation.summary.job_id or "—"),
            ("taskset", evaluation.taskset or "—"),
            ("rollout", rollout.rollout_id),
            ("task", rollout.task_id or "—"),
            ("step", f"{self.place(call_id)} (turn {step.turn if step.turn is not None else '—'})"),
        ]
        for call in step.tool_calls:
            origin.append(("tool call", tool_call_line(call.name, call.args, call.failed)))
        if step.grade is not None:
            verdict = {True: "passed", False: "failed", None: "—"}[step.grade.passed]
            reward = "—" if step.grade.reward is None else f"{step.grade.reward:g}"
            origin.append(("grade", f"{verdict}, reward {reward}"))
        loops = [f for f in self.diagnosis.tool_loops if f.detail["first_step"] <= step.index <= f.detail["last_step"]]
        wrong = [f for f in self.diagnosis.step_findings.get(step.index, []) if f.kind == "wrong_answer"]
        return ForeignCall(
            entry, PLATFORM, tuple(origin), tuple(loops + wrong), (REPLAY_NOTE,), classify=step.final_answer is not None
        )
