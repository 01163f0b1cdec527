"""Compare's error bars (no Textual; the Compare screen and `blah-tui compare` share them): the
two or three models of ``/compare`` read as a board (``diagnosis.board_reading.read_board``),
paired on the rows every pair both answered with a score.

A row is one item: ``eval_id`` with its ``item_id`` when the platform sends one (the contract
does; then the items of one eval are one group, and the intervals are clustered by eval), else
the row itself (one eval, one item: the simulator's rows).
"""

from __future__ import annotations

from api_client.blahdev.shapes import Comparison
from diagnosis.board_reading import BoardReading, read_board

__all__ = ["comparison_reading"]


def comparison_reading(comparison: Comparison, *, confidence: float = 0.95) -> BoardReading:
    """Each compared model's mean with its interval, the paired differences, Holm, tiers, MDE."""
    scores: dict[str, dict[str, float]] = {m: {} for m in comparison.models}
    clusters: dict[str, str] = {}
    grouped = any(row.item_id for row in comparison.rows)
    for index, row in enumerate(comparison.rows):
        item = f"{row.eval_id or ''}#{row.item_id or index}"
        if grouped:
            clusters[item] = row.eval_id or item
        for model, answer in row.answers.items():
            if model in scores and answer.score is not None:
                scores[model][item] = float(answer.score)
    return read_board(scores, clusters=clusters if grouped else None, confidence=confidence)
