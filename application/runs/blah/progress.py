"""Per-eval status of a run: the results landed so far, grouped by eval (pure logic)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from api_client.blahdev.shapes import Result
from application.runs.blah.statuses import ATTENTION_STATUSES
from common.format import DASH

__all__ = ["EvalProgress", "eval_progress"]


@dataclass(frozen=True, slots=True)
class EvalProgress:
    """Results landed so far for one eval of a run."""

    eval_id: str
    results: int
    errors: int
    models: int  # distinct models with at least one result
    mean_score: float | None  # over scored results only; None when none is scored
    last_at: int | None  # newest result's created_at (ms), when the platform gave ms

    def status(self, expected_models: int | None, run_status: str | None) -> str:
        if expected_models is not None and self.models >= expected_models and run_status == "completed":
            return "done"
        if run_status in ATTENTION_STATUSES:
            return run_status or DASH
        return "landing"


def eval_progress(results: Iterable[Result], eval_order: Sequence[str] = ()) -> list[EvalProgress]:
    """Group a run's results by eval (in ``eval_order`` first, then first-seen order)."""
    groups: dict[str, list[Result]] = {eid: [] for eid in eval_order}
    for result in results:
        groups.setdefault(result.eval_id or DASH, []).append(result)
    out: list[EvalProgress] = []
    for eval_id, items in groups.items():
        scores = [r.score for r in items if r.score is not None]
        times = [r.created_at for r in items if isinstance(r.created_at, int)]
        out.append(
            EvalProgress(
                eval_id=eval_id,
                results=len(items),
                errors=sum(1 for r in items if r.error),
                models=len({r.model_id for r in items if r.model_id}),
                mean_score=sum(scores) / len(scores) if scores else None,
                last_at=max(times) if times else None,
            )
        )
    return out
