"""What diagnosis reads of an agent rollout, as Protocols: its steps, tool calls and grade.

The rollout itself is parsed once, at the edge, by the platform's client
(``api_client.blobfish.shapes_evidence``: an SDK evaluation's rollouts, and the benchmark
tasks ``application.runs.bench.task_steps`` reads the same way); diagnosis takes that object as it
is, through these Protocols, and never builds a copy of its own. They name only what the
detectors read, so diagnosis stays platform-neutral (another platform's rollout with these
members is diagnosed alike) and does not depend on one platform's ASSUMED shapes.

A member that is ``None`` was not recorded (never read it as 0); an empty sequence means the
record says "none".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["Grade", "Rollout", "RolloutStep", "ToolCall"]


class Grade(Protocol):
    """The grader's verdict: what decides an unexplained failed grade."""

    @property
    def passed(self) -> bool | None: ...
    @property
    def reward(self) -> float | None: ...
    @property
    def explanation(self) -> str | None: ...
    @property
    def failed_conditions(self) -> Sequence[str]: ...


class ToolCall(Protocol):
    """One recorded tool call; ``failed``: its result reads as a failure."""

    @property
    def name(self) -> str | None: ...
    @property
    def args(self) -> Any: ...
    @property
    def failed(self) -> bool: ...


class RolloutStep(Protocol):
    """One step (one completion) of a rollout, read like a call by ``classify``."""

    @property
    def index(self) -> int: ...
    @property
    def model(self) -> str | None: ...
    @property
    def prompt(self) -> str | None: ...
    @property
    def final_answer(self) -> str | None:
        """``None``: the step gave no final answer (it called tools); ``""``: an empty one."""
    @property
    def prompt_tokens(self) -> int | None: ...
    @property
    def completion_tokens(self) -> int | None: ...
    @property
    def tool_calls(self) -> Sequence[ToolCall]: ...


class Rollout(Protocol):
    """One rollout: its steps in order, its grade, the job's token limit and model."""

    @property
    def rollout_id(self) -> str: ...
    @property
    def model(self) -> str | None: ...
    @property
    def max_tokens(self) -> int | None: ...
    @property
    def grade(self) -> Grade | None: ...
    @property
    def passed(self) -> bool | None: ...
    @property
    def steps(self) -> Sequence[RolloutStep]: ...
    @property
    def tool_calls(self) -> Sequence[ToolCall]: ...
