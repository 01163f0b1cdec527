"""The Evaluations list: rows, filters (task, reward, model, failed only) and sort orders.

A row starts as the platform's summary; its detail and diagnosis arrive later (the list is
diagnosed in the background), so every filter and sort says what it does with a row not yet
diagnosed: the task filter leaves it out (its taskset is not known yet), the sorts put it last.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from application.evaluations.evidence import Evaluation, EvaluationSummary
from diagnosis.rollouts import EvaluationDiagnosis, sort_value

__all__ = ["REWARD_BANDS", "SORTS", "EvaluationFilter", "EvaluationRow", "filter_rows", "sort_rows"]

REWARD_BANDS: dict[str, str] = {
    "any": "any reward",
    "full": "reward 1",
    "below_1": "reward < 1",
    "below_half": "reward < 0.5",
    "none": "no reward recorded",
}
"""Reward filter id -> what it is called on screen (on the mean reward of the evaluation)."""

SORTS: dict[str, str] = {
    "newest": "newest first",
    "failed": "most failed rollouts",
    "tool_loops": "most tool-call loops",
    "failed_tools": "highest failed tool-call share",
    "findings": "most rollouts with findings",
    "reward": "lowest mean reward",
}


@dataclass
class EvaluationRow:
    summary: EvaluationSummary
    evaluation: Evaluation | None = None
    diagnosis: EvaluationDiagnosis | None = None
    problem: str | None = None
    """Why the detail could not be read (the row stays, with its summary)."""

    @property
    def evaluation_id(self) -> str:
        return self.summary.evaluation_id

    @property
    def taskset(self) -> str | None:
        return None if self.evaluation is None else self.evaluation.taskset


@dataclass(frozen=True)
class EvaluationFilter:
    task: str | None = None
    model: str | None = None
    reward: str = "any"
    failed_only: bool = False

    def keeps(self, row: EvaluationRow) -> bool:
        if self.task is not None and row.taskset != self.task:
            return False
        if self.model is not None and row.summary.model != self.model:
            return False
        mean = row.summary.mean_reward
        band = self.reward
        if band == "full" and (mean is None or mean < 1):
            return False
        if band == "below_1" and (mean is None or mean >= 1):
            return False
        if band == "below_half" and (mean is None or mean >= 0.5):
            return False
        if band == "none" and mean is not None:
            return False
        if self.failed_only:
            if row.diagnosis is not None:
                return row.diagnosis.failed_rollouts > 0
            return mean is not None and mean < 1  # not diagnosed yet: the summary's reward says
        return True


def filter_rows(rows: Iterable[EvaluationRow], how: EvaluationFilter) -> list[EvaluationRow]:
    return [row for row in rows if how.keeps(row)]


def sort_rows(rows: Sequence[EvaluationRow], key: str) -> list[EvaluationRow]:
    """Newest first, or worst first by ``key``; rows without the number (not diagnosed, or no
    tool calls) last, in newest-first order."""
    newest = sorted(rows, key=lambda r: r.summary.created_at or "", reverse=True)
    if key == "newest":
        return newest
    if key == "reward":
        rewarded = [(reward, r) for r in newest if (reward := r.summary.mean_reward) is not None]
        rewarded.sort(key=lambda pair: pair[0])  # stable: ties stay newest first
        return [r for _, r in rewarded] + [r for r in newest if r.summary.mean_reward is None]
    valued = [(sort_value(r.diagnosis, key), r) for r in newest]
    known = [(v, r) for v, r in valued if v is not None]
    known.sort(key=lambda pair: pair[0], reverse=True)  # stable: ties stay newest first
    return [r for _, r in known] + [r for v, r in valued if v is None]


def choices(rows: Iterable[EvaluationRow]) -> tuple[list[str], list[str]]:
    """The tasksets and models seen so far, sorted (what the filters offer)."""
    tasks = {r.taskset for r in rows if r.taskset}
    models = {r.summary.model for r in rows if r.summary.model}
    return sorted(tasks), sorted(models)
