"""Compare's error bars (no Textual; the Compare screen and `blah-tui compare` share them): the
two or three models of ``/compare`` read as a board (``diagnosis.board_reading.read_board``),
paired on the rows every pair both answered with a score.

A row is one item: ``eval_id`` with its ``item_id`` when the platform sends one (the contract
does; then the items of one eval are one group, and the intervals are clustered by eval), else
the row itself (one eval, one item: the simulator's rows).
"""

from __future__ import annotations

from collections.abc import Mapping

from api_client.blahdev.shapes import Comparison
from diagnosis.board_reading import BoardReading, read_board

__all__ = ["comparison_reading", "versus_sentences"]


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


def _pts(value: float) -> str:
    return f"{value * 100:+.1f}"


def versus_sentences(reading: BoardReading, own: str, names: Mapping[str, str], me: str = "you") -> list[str]:
    """One sentence per peer: your paired difference with its interval, the Holm-corrected
    p-value and its test, and what it means (ahead, behind, or tied within noise)."""
    said = []
    for peer in (e.model for e in reading.entries if e.model != own):
        pair = reading.pair(own, peer)
        name = names.get(peer, peer)
        if pair is None or pair.comparison is None or pair.p_holm is None:
            said.append(f"{me} vs {name}: fewer than 2 evals scored for both, no paired test")
            continue
        c = pair.comparison
        sign = 1.0 if pair.a == own else -1.0  # the difference is a − b: turn it to you − peer
        low, high = sorted((sign * c.interval[0], sign * c.interval[1]))
        verdict = (
            "tied within noise"
            if not pair.separated(reading.alpha)
            else f"{me} {'are' if me == 'you' else 'is'} ahead"
            if sign * c.difference > 0
            else f"{name} is ahead"
        )
        said.append(
            f"{me} − {name}: {_pts(sign * c.difference)} points [{_pts(low)}, {_pts(high)}] over {c.n} "
            f"paired evals, p {pair.p_holm:.3g} ({c.test}, Holm): {verdict}"
        )
    return said
