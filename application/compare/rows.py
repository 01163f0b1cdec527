"""Two or three models on the same evals, ordered for the person (pure: no IO, no Textual; the
Compare screen and `blah-tui compare` both use it): the person's losses first (largest gap
first), then evals not every model was scored on, ties, and wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api_client.blahdev.shapes import CompareRow, Comparison

__all__ = ["CompareLine", "Outcome", "mean_scores", "order_for_person", "tally"]

Outcome = Literal["loss", "unscored", "tie", "win"]
_ORDER: dict[Outcome, int] = {"loss": 0, "unscored": 1, "tie": 2, "win": 3}


@dataclass(frozen=True, slots=True)
class CompareLine:
    key: str
    row: CompareRow
    outcome: Outcome
    margin: float | None  # the person's score minus the best other score (negative: a loss)


def _outcome(row: CompareRow, own_id: str, peers: Sequence[str]) -> tuple[Outcome, float | None]:
    own = row.answers.get(own_id)
    others = [row.answers.get(p) for p in peers]
    if own is None or own.score is None or any(o is None or o.score is None for o in others):
        return "unscored", None
    best = max(o.score for o in others if o is not None and o.score is not None)
    margin = own.score - best
    if abs(margin) < 1e-9:
        return "tie", 0.0
    return ("loss" if margin < 0 else "win"), margin


def order_for_person(comparison: Comparison, own_id: str) -> list[CompareLine]:
    """Every row, the person's losses first (biggest gap first), then unscored, ties, wins."""
    peers = [m for m in comparison.models if m != own_id]
    lines = []
    for i, row in enumerate(comparison.rows):
        outcome, margin = _outcome(row, own_id, peers)
        key = f"{i}:{row.eval_id or ''}"
        lines.append(CompareLine(key, row, outcome, margin))
    return sorted(lines, key=lambda ln: (_ORDER[ln.outcome], ln.margin if ln.margin is not None else 0.0))


def tally(lines: Sequence[CompareLine]) -> dict[Outcome, int]:
    counts: dict[Outcome, int] = {"loss": 0, "unscored": 0, "tie": 0, "win": 0}
    for line in lines:
        counts[line.outcome] += 1
    return counts


def mean_scores(comparison: Comparison) -> dict[str, float | None]:
    """Each model's mean over the evals it was scored on (None when none)."""
    out: dict[str, float | None] = {}
    for model in comparison.models:
        scores = [
            r.answers[model].score for r in comparison.rows if model in r.answers and r.answers[model].score is not None
        ]
        out[model] = sum(s for s in scores if s is not None) / len(scores) if scores else None
    return out
