"""Blobfish's records read as the product's own types (``common.records``), one function each:
an SDK evaluation's rollout and trace (``shapes_evidence.parse_rollout``, re-exported here)
and a benchmark task's recorded steps (``rollout_from_task``)."""

from __future__ import annotations

from api_client.blobfish.shapes_bench import TaskResult
from api_client.blobfish.shapes_evidence import PLATFORM, parse_rollout, result_failed
from common.records import Grade, Rollout, RolloutStep, ToolCall

__all__ = ["parse_rollout", "rollout_from_task"]


def rollout_from_task(run_id: str, task: TaskResult, model: str | None) -> Rollout:
    """A graded benchmark task as a rollout: one step per recorded tool call (no completion,
    so no prompt and no final answer), the grader's verdict as its grade. Its id is
    ``<run>/<task>`` (``?`` when the task has no id), so a step's call id is
    ``<run>/<task>#<n>`` (``common.records.step_call_id``)."""
    steps = []
    for n, call in enumerate(task.steps or []):
        index = call.index if call.index is not None else n
        failed = result_failed({"result": call.result})
        steps.append(
            RolloutStep(
                index=index,
                turn=None,
                prompt=None,
                final_answer=None,
                model=model,
                tool_calls=(ToolCall(call.tool, call.arguments, call.result, failed),),
            )
        )
    explanation = task.grader.explanation if task.grader else None
    grade = Grade(passed=task.strict_pass, reward=task.score, explanation=explanation)
    return Rollout(
        rollout_id=f"{run_id}/{task.task_id or '?'}",
        task_id=task.task_id,
        reward=task.score,
        grade=grade,
        trace_id=None,
        steps=tuple(steps),
        model=model,
        source=PLATFORM,
    )
