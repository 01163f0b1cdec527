"""One board of models read honestly: who is really ahead and who is tied within noise.

The one function every board uses (the blah.dev Leaderboard and Compare, the Blobfish community
board, the checkpoint comparison): :func:`read_board`, from each model's per-item scores.

- Each model's mean with its 95 % interval (``diagnosis.board_stats.mean_estimate``: Wilson,
  CLT, or clustered with its design effect).
- Every pair of models compared **paired** on the items both answered
  (``paired_comparison``: paired t, clustered paired t, or exact McNemar), and the p-values
  Holm-corrected across the board's pairs.
- **Tiers**, top down: the best remaining model heads a tier, and every remaining model whose
  corrected p-value against it is at least ``alpha`` (or that shares fewer than 2 items with
  it, so nothing tells them apart) joins that tier; repeat with the rest. Tier 1 is "tied with
  the leader within noise".
- The **minimum detectable effect** at 80 % power for the board's typical pair: the median
  standard error of the compared pairs' differences (so it reflects the board's item count,
  its spread and its grouping); None when no pair was compared or every difference is 0.
- A model with only an average (the platform sent no per-item scores) keeps its average and
  gets no interval, no pair and no tier: never an invented one (``averages_only``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from statistics import median
from typing import Any

from diagnosis.board_stats import (
    MeanEstimate,
    PairedComparison,
    holm,
    mean_estimate,
    minimum_detectable_effect,
    paired_comparison,
)

__all__ = ["BoardEntry", "BoardPair", "BoardReading", "read_board"]

DEFAULT_ALPHA = 0.05
DEFAULT_POWER = 0.8


@dataclass(frozen=True, slots=True)
class BoardPair:
    """Two models on their shared items, ``a`` the higher on the board; ``p_holm`` corrected."""

    a: str
    b: str
    comparison: PairedComparison | None  # None: fewer than 2 shared items
    p_holm: float | None

    def separated(self, alpha: float) -> bool:
        """Whether the corrected test tells the two apart."""
        return self.p_holm is not None and self.p_holm < alpha

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "p_holm": self.p_holm,
            "paired": self.comparison.to_json() if self.comparison is not None else None,
        }


@dataclass(frozen=True, slots=True)
class BoardEntry:
    model: str
    rank: int
    estimate: MeanEstimate | None  # None: no per-item scores (see average)
    average: float | None  # the platform's own average (averages-only boards), else the mean
    tier: int | None  # None: no per-item scores, no tier
    vs_leader: BoardPair | None = None  # None for the leader itself or an untiered model

    @property
    def mean(self) -> float | None:
        return self.estimate.mean if self.estimate is not None else self.average

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "rank": self.rank,
            "mean": self.mean,
            "estimate": self.estimate.to_json() if self.estimate is not None else None,
            "tier": self.tier,
            "vs_leader": self.vs_leader.to_json() if self.vs_leader is not None else None,
        }


@dataclass(frozen=True, slots=True)
class BoardReading:
    entries: list[BoardEntry]
    pairs: list[BoardPair]
    mde: float | None
    mde_items: int | None  # the typical pair's shared items
    alpha: float = DEFAULT_ALPHA
    power: float = DEFAULT_POWER
    confidence: float = 0.95
    averages_only: list[str] = field(default_factory=list)  # models with no per-item scores

    def pair(self, a: str, b: str) -> BoardPair | None:
        for pair in self.pairs:
            if {pair.a, pair.b} == {a, b}:
                return pair
        return None

    def tier_members(self, tier: int) -> list[str]:
        return [e.model for e in self.entries if e.tier == tier]

    def to_json(self) -> dict[str, Any]:
        tiers = sorted({e.tier for e in self.entries if e.tier is not None})
        return {
            "confidence": self.confidence,
            "alpha": self.alpha,
            "power": self.power,
            "entries": [e.to_json() for e in self.entries],
            "tiers": [self.tier_members(t) for t in tiers],
            "pairs": [p.to_json() for p in self.pairs],
            "mde": self.mde,
            "mde_items": self.mde_items,
            "averages_only": list(self.averages_only),
        }


def _paired(
    scores: Mapping[str, Mapping[str, float]], a: str, b: str, clusters: Mapping[str, str] | None, confidence: float
) -> PairedComparison | None:
    shared = [item for item in scores[a] if item in scores[b]]
    labels = [clusters.get(item, item) for item in shared] if clusters is not None else None
    return paired_comparison([scores[a][i] for i in shared], [scores[b][i] for i in shared], labels, confidence)


def read_board(
    scores: Mapping[str, Mapping[str, float]],
    *,
    clusters: Mapping[str, str] | None = None,
    averages: Mapping[str, float | None] | None = None,
    confidence: float = 0.95,
    alpha: float = DEFAULT_ALPHA,
    power: float = DEFAULT_POWER,
) -> BoardReading:
    """The board read from ``scores`` (model -> item -> 0-1 score; items are matched by key
    across models). ``clusters``: item -> its group (eval, task) when items come in groups.
    ``averages``: models the platform gave only an average for (model -> average or None); they
    are ranked by it, with no interval and no tier."""
    estimates: dict[str, MeanEstimate | None] = {}
    for model, by_item in scores.items():
        items = list(by_item)
        labels = [clusters.get(i, i) for i in items] if clusters is not None else None
        estimates[model] = mean_estimate([by_item[i] for i in items], labels, confidence)
    measured = {m: e for m, e in estimates.items() if e is not None}
    scored = sorted(measured, key=lambda m: -measured[m].mean)
    only_averages = {m: v for m, v in (averages or {}).items() if estimates.get(m) is None}
    unscored = [m for m in scores if estimates[m] is None and m not in only_averages]

    raw = [(a, b, _paired(scores, a, b, clusters, confidence)) for a, b in combinations(scored, 2)]
    tested = [c.p_value for _, _, c in raw if c is not None]
    corrected = iter(holm(tested))
    pairs = [BoardPair(a, b, c, next(corrected) if c is not None else None) for a, b, c in raw]
    by_key = {frozenset((p.a, p.b)): p for p in pairs}

    tier_of: dict[str, int] = {}
    remaining = list(scored)
    tier = 0
    while remaining:
        tier += 1
        head = remaining[0]
        members = [head] + [m for m in remaining[1:] if not by_key[frozenset((head, m))].separated(alpha)]
        for m in members:
            tier_of[m] = tier
        remaining = [m for m in remaining if m not in members]

    leader = scored[0] if scored else None
    ranked_others = sorted(
        [*unscored, *only_averages],
        key=lambda m: (only_averages.get(m) is None, -(only_averages.get(m) or 0.0)),
    )
    entries = [
        BoardEntry(
            m,
            rank,
            measured[m],
            measured[m].mean,
            tier_of[m],
            by_key.get(frozenset((leader, m))) if leader is not None and m != leader else None,
        )
        for rank, m in enumerate(scored, start=1)
    ]
    entries += [
        BoardEntry(m, len(scored) + i, None, only_averages.get(m), None) for i, m in enumerate(ranked_others, start=1)
    ]

    ses = [p.comparison.se for p in pairs if p.comparison is not None]
    typical_se = median(ses) if ses else 0.0
    compared = [p.comparison.n for p in pairs if p.comparison is not None]
    mde = minimum_detectable_effect(typical_se, alpha, power) if typical_se > 0 else None
    return BoardReading(
        entries,
        pairs,
        mde,
        int(median(compared)) if compared and mde is not None else None,
        alpha,
        power,
        confidence,
        averages_only=list(only_averages),
    )
