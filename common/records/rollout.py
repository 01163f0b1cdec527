"""An agent's rollout: its steps (one completion each), the tool calls they made, and the
grader's verdict; and a step read as a ``Call``, with the one id it has everywhere.

Parsed from a platform's wire shape once, at the client's edge (Blobfish:
``api_client.blobfish.shapes_evidence.parse_rollout``; a Blobfish benchmark task:
``application.runs.bench.task_steps``), and read as they are by diagnosis, the replay, the
Inspector, the exports and the search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from common.records.call import Call

__all__ = [
    "Assertion",
    "Grade",
    "Rollout",
    "RolloutStep",
    "ToolCall",
    "TrainingSample",
    "step_call",
    "step_call_id",
    "step_number",
]


@dataclass(frozen=True, slots=True)
class Assertion:
    name: str | None
    passed: bool | None
    details: str | None


@dataclass(frozen=True, slots=True)
class Grade:
    """The grader's verdict, structured: assertions, failed and advisory conditions."""

    passed: bool | None
    reward: float | None
    explanation: str | None = None
    assertions: tuple[Assertion, ...] = ()
    failed_conditions: tuple[str, ...] = ()
    advisory_conditions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrainingSample:
    """A captured training sample; a member the agent did not capture is ``None``."""

    token_ids: tuple[int, ...] | None
    logprobs: tuple[float, ...] | None
    lineage: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One recorded tool call. ``failed``: its result reads as a failure (the platform's
    client decides how it reads one); replay never runs it again."""

    name: str | None
    args: Any
    result: Any
    failed: bool


@dataclass(frozen=True, slots=True)
class RolloutStep:
    """One step (one completion) of a rollout and what its turn recorded."""

    index: int
    """The platform's own (0-based) index: used to find a step, never shown (see ``step_number``)."""
    turn: int | None
    prompt: str | None
    final_answer: str | None
    """``None``: the step gave no final answer (it called tools); ``""``: an empty one."""
    reward: float | None = None
    grade: Grade | None = None
    training_samples: tuple[TrainingSample, ...] | None = None
    """``None``: not captured."""
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    thinking: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


@dataclass(frozen=True, slots=True)
class Rollout:
    """One rollout, its steps joined with its trace's records."""

    rollout_id: str
    task_id: str | None
    reward: float | None
    grade: Grade | None
    trace_id: str | None
    steps: tuple[RolloutStep, ...]
    max_tokens: int | None = None
    """The job's token limit per completion, when its metadata says."""
    model: str | None = None
    source: str | None = None
    """Where its steps were made (the platform: "blobfish"); each step's call's ``source``."""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The rollout and its trace as published (``{"rollout": ..., "trace": ...}``), for export."""

    @property
    def passed(self) -> bool | None:
        return None if self.grade is None else self.grade.passed

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for step in self.steps for call in step.tool_calls]

    @property
    def step_count(self) -> int | None:
        """How many steps the record lists; ``None`` when it sent no ``steps`` list at all."""
        recorded = _map(self.raw.get("rollout")).get("steps") if self.raw else None
        return len(self.steps) if not self.raw or isinstance(recorded, list) else None


def step_number(rollout: Rollout, step: RolloutStep) -> int:
    """The step as a person counts it: its place in the rollout, from 1 (the replay's "step N
    of M", the call's id, the findings' "steps N-M"); ``step.index`` is the platform's own
    (0-based) and is used only to find a step, never shown."""
    for position, candidate in enumerate(rollout.steps):
        if candidate is step:
            return position + 1
    return rollout.steps.index(step) + 1


def step_call_id(rollout_id: str, number: int) -> str:
    """The id of a rollout's step ``number`` (from 1): ``<rollout id>#<number>``, the same in
    the Inspector, the exports, the steps archive's search and diagnosis."""
    return f"{rollout_id}#{number}"


def step_call(
    rollout: Rollout,
    step: RolloutStep,
    *,
    created_at: int | None = None,
    evaluation_id: str | None = None,
) -> Call:
    """A rollout step read as one call: what ``classify``, the Inspector, the exports and the
    search take (the one place a step becomes a call).

    The reply is the step's final answer (``None`` for a step that only called tools). The
    finish reason is not recorded by the platform, so it stays ``None`` (never guessed);
    ``created_at`` is ``None`` when the platform gave no time. ``eval_id`` is the
    evaluation, ``run_id`` the rollout and ``result_id`` its task.
    """
    return Call(
        id=step_call_id(rollout.rollout_id, step_number(rollout, step)),
        model_id=step.model or rollout.model,
        source=rollout.source,
        created_at=created_at,
        prompt=step.prompt,
        response=step.final_answer,
        max_tokens=rollout.max_tokens,
        prompt_tokens=step.prompt_tokens,
        completion_tokens=step.completion_tokens,
        eval_id=evaluation_id,
        run_id=rollout.rollout_id or None,
        result_id=rollout.task_id,
    )
