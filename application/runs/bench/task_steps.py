"""A graded benchmark task's recorded steps as Inspector calls (a ``CallSource``), no Textual.

A benchmark task records tool calls, not completions: each step is one tool call and its
result. It is read (``api_client.blobfish.records.rollout_from_task``) into the same
``Rollout`` (``common.records``) an SDK evaluation's rollout becomes, so the same detectors
run (tool-call loops, failed tool calls, a failed grade nothing explains); the Inspector
shows the call as the prompt side and the recorded result as the reply side, and lists those
findings (``classify`` does not run: there is no model reply).
"""

from __future__ import annotations

import json
from typing import Any

from api_client.blobfish.records import rollout_from_task
from api_client.blobfish.shapes_bench import TaskResult
from application.evaluations.evidence import PLATFORM, RolloutStep
from application.evaluations.inspect import tool_call_line
from application.inspector.foreign import ForeignCall, StepsById
from common.records import Call, step_call_id
from diagnosis.rollouts import RolloutDiagnosis, diagnose_rollout

__all__ = ["TaskSteps"]

NOTE = "A benchmark task records tool calls and their results, not the model's completions; nothing is run again."


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


class TaskSteps(StepsById[RolloutStep]):
    """One task's steps, by id, for ``InspectorScreen(id, source=...)``; n/p walk them."""

    platform = PLATFORM
    noun = "step"

    def __init__(self, slug: str, run_id: str, task: TaskResult, model: str | None) -> None:
        self.slug = slug
        self.run_id = run_id
        self.task = task
        self.rollout = rollout_from_task(run_id, task, model)
        self.diagnosis: RolloutDiagnosis = diagnose_rollout(self.rollout)
        super().__init__(
            [step_call_id(self.rollout.rollout_id, n) for n in range(1, len(self.rollout.steps) + 1)],
            self.rollout.steps,
        )

    def call(self, call_id: str) -> ForeignCall | None:
        step = self.step(call_id)
        if step is None:
            return None
        call = step.tool_calls[0]
        # The task records no time for a step: created_at stays None ("not given").
        entry = Call(
            id=call_id,
            model_id=self.rollout.model,
            source=PLATFORM,
            created_at=None,
            prompt=f"{call.name or '(unnamed tool)'}({_text(call.args) or ''})",
            response=_text(call.result),
            run_id=self.run_id,
            result_id=self.task.task_id,
        )
        task = self.task
        origin: list[tuple[str, str]] = [
            ("platform", PLATFORM),
            ("benchmark", self.slug),
            ("run", self.run_id),
            ("task", f"{task.task_id or '—'} · {task.name or '—'}"),
            ("step", self.place(call_id)),
            ("tool call", tool_call_line(call.name, call.args, call.failed)),
            (
                "grade",
                (
                    f"score {'—' if task.score is None else f'{task.score:.2f}'}, strict pass "
                    f"{ {True: 'yes', False: 'no', None: '—'}[task.strict_pass] }"
                ),
            ),
        ]
        findings = [*self.diagnosis.findings_at(step.index), *self.diagnosis.rollout_findings]
        return ForeignCall(entry, PLATFORM, tuple(origin), tuple(findings), (NOTE,), classify=False)
