"""The record of an agent rollout, as diagnosis reads it: steps, tool calls, grade, samples.

Platform-neutral, frozen and Textual-free. ``application.evaluations.evidence`` builds these from
a Blobfish evaluation's evidence; another platform's rollouts would build the same types.
A member that is ``None`` was not recorded (never read it as 0); an empty tuple means the
record says "none".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Assertion", "Grade", "Rollout", "RolloutStep", "ToolCall", "TrainingSample"]


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
    """One recorded tool call. ``failed``: its result reads as a failure (see
    ``application.evaluations.evidence.result_failed``); replay never runs it again."""

    name: str | None
    args: Any
    result: Any
    failed: bool


@dataclass(frozen=True, slots=True)
class RolloutStep:
    """One step (one completion) of a rollout and what its turn recorded."""

    index: int
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


@dataclass(frozen=True, slots=True)
class Rollout:
    rollout_id: str
    task_id: str | None
    reward: float | None
    grade: Grade | None
    trace_id: str | None
    steps: tuple[RolloutStep, ...]
    max_tokens: int | None = None
    """The job's token limit per completion, when its metadata says."""
    model: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The rollout and its trace as published (``{"rollout": ..., "trace": ...}``), for export."""

    @property
    def passed(self) -> bool | None:
        return None if self.grade is None else self.grade.passed

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [call for step in self.steps for call in step.tool_calls]
