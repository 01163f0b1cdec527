"""The error bars of a board, as every board says them (no Textual): the blah.dev Leaderboard,
Compare, the Blobfish community board and their commands read the board with
``diagnosis.board_reading.read_board`` and word it here.

- :func:`leaderboard_reading`: the blah.dev leaderboard's rows read from each model's results
  in the run its row is over (``/models/{id}/results``, grouped by run): one score per result,
  matched across models by eval. Several results of one eval in a run (items of one eval, or
  repeated samples) are items of one group: the k-th result of an eval (in the order the
  platform made them) is matched with the other model's k-th, and the intervals are clustered
  by eval. A model whose results could not be read, or that has no scored result in that run,
  keeps the platform's average and gets no interval ("average only").
- The words: :func:`mean_cell`, :func:`tier_cell`, :func:`mde_sentence`, :func:`tier_sentence`,
  :func:`method_sentence`, all in score points (a 0-1 score times 100).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from api_client.blahdev.shapes import LeaderboardEntry, Result, Run
from common.format import DASH
from diagnosis.board_reading import BoardEntry, BoardReading, read_board
from diagnosis.board_stats import MeanEstimate, mean_estimate

__all__ = [
    "AVERAGE_ONLY",
    "leaderboard_reading",
    "mde_sentence",
    "mean_cell",
    "method_sentence",
    "model_error_bars",
    "results_scores",
    "run_estimates",
    "tier_cell",
    "tier_sentence",
]

AVERAGE_ONLY = "average only: no per-item scores, no interval"
METHODS = {"wilson": "Wilson", "clt": "CLT", "clustered": "clustered"}


def _when(result: Result) -> tuple[int, str]:
    """A result's time for ordering: milliseconds as numbers, a string as sent (after them)."""
    at = result.created_at
    return (at, "") if isinstance(at, int) else (-1, str(at or ""))


def results_scores(results: Sequence[Result]) -> tuple[dict[str, float], dict[str, str]]:
    """(item -> score, item -> its eval) over the scored results; an eval's k-th result (by
    creation, then id) is item ``eval#k``."""

    def order(result: Result) -> tuple[tuple[int, str], str]:
        return (_when(result), result.id)

    scores: dict[str, float] = {}
    groups: dict[str, str] = {}
    seen: dict[str, int] = {}
    for result in sorted(results, key=order):
        if result.score is None:
            continue
        eval_id = result.eval_id or f"result:{result.id}"
        k = seen.get(eval_id, 0)
        seen[eval_id] = k + 1
        item = f"{eval_id}#{k}"
        scores[item] = float(result.score)
        groups[item] = eval_id
    return scores, groups


class _History(Protocol):
    @property
    def current_run(self) -> Run | None: ...
    @property
    def current_results(self) -> tuple[Result, ...]: ...


class _Standing(Protocol):
    """``standings.Standing`` as read here (that module imports this one)."""

    @property
    def entry(self) -> LeaderboardEntry: ...
    @property
    def history(self) -> _History | None: ...


def leaderboard_reading(rows: Sequence[_Standing], *, confidence: float = 0.95) -> BoardReading:
    """The board read from each standing's results in its current run (see the module)."""
    scores: dict[str, dict[str, float]] = {}
    clusters: dict[str, str] = {}
    averages: dict[str, float | None] = {}
    for row in rows:
        history = row.history
        per_item: dict[str, float] = {}
        if history is not None and history.current_run is not None:
            per_item, groups = results_scores(history.current_results)
            clusters.update(groups)
        if per_item:
            scores[row.entry.model_id] = per_item
        else:
            averages[row.entry.model_id] = row.entry.avg_score
    return read_board(scores, clusters=clusters, averages=averages, confidence=confidence)


def _points(value: float) -> str:
    return f"{value * 100:.0f}" if abs(value) >= 0.095 else f"{value * 100:.1f}"


def mean_cell(estimate: MeanEstimate | None, average: float | None = None) -> str:
    """``0.72 [0.61–0.81]``; an average only: ``0.72 (no interval)``; nothing: a dash."""
    if estimate is None:
        return DASH if average is None else f"{average:.2f} (no interval)"
    low, high = estimate.interval
    return f"{estimate.mean:.2f} [{low:.2f}–{high:.2f}]"


def tier_cell(entry: BoardEntry, reading: BoardReading) -> str:
    """``1 leader``, ``1 tied``, ``2``; a dash for a model with no interval."""
    if entry.tier is None:
        return DASH
    if entry.rank == 1:
        return "1 leader"
    if entry.tier == 1:
        return "1 tied"
    return str(entry.tier)


def tier_sentence(reading: BoardReading, name: dict[str, str] | None = None) -> str:
    """Who is really ahead: the leader's tier and why."""
    tiered = [e for e in reading.entries if e.tier is not None]
    if not tiered:
        return "no model has per-item scores: no interval and no tier can be given"
    names = name or {}
    leader = tiered[0]
    tied = [e.model for e in tiered[1:] if e.tier == 1]
    said = names.get(leader.model, leader.model)
    if len(tiered) == 1:
        return f"{said} is the only model with per-item scores"
    if not tied:
        return (
            f"{said} is ahead of every other model beyond noise (paired tests, Holm-corrected, alpha {reading.alpha:g})"
        )
    others = ", ".join(names.get(m, m) for m in tied)
    return (
        f"tied with the leader within noise: {said}, {others} (paired tests, Holm-corrected, alpha {reading.alpha:g})"
    )


def mde_sentence(reading: BoardReading, unit: str = "evals") -> str:
    """``with 40 evals, a difference under 9 points cannot be seen (80% power, ...)``."""
    if reading.mde is None or reading.mde_items is None:
        return "no two models share enough scored items to say what difference this board can see"
    return (
        f"with {reading.mde_items} {unit}, a difference under {_points(reading.mde)} points cannot be "
        f"seen reliably ({reading.power:.0%} power, alpha {reading.alpha:g}, the typical pair's spread)"
    )


def method_sentence(reading: BoardReading) -> str:
    """How the intervals were made, and the design effect where items came in groups."""
    methods = sorted({METHODS[e.estimate.method] for e in reading.entries if e.estimate is not None})
    text = f"{reading.confidence:.0%} intervals ({', '.join(methods) or 'none'})"
    effects = [
        e.estimate.design_effect
        for e in reading.entries
        if e.estimate is not None and e.estimate.design_effect is not None
    ]
    if effects:
        groups = max(e.estimate.clusters or 0 for e in reading.entries if e.estimate is not None)
        text += (
            f"; items come in groups ({groups} evals): design effect {min(effects):.1f}–{max(effects):.1f}"
            if len(effects) > 1 and min(effects) != max(effects)
            else f"; items come in groups ({groups} evals): design effect {effects[0]:.1f}"
        )
    if reading.averages_only:
        text += f"; {len(reading.averages_only)} with the platform's average only (no interval)"
    return text


def model_error_bars(reading: BoardReading, model_id: str) -> dict[str, Any]:
    """One model's error bars for ``--json`` (beside its row's own fields): its estimate, tier,
    its paired comparison with every other model (``difference`` = this model − the other),
    and the board's MDE and method, so each row reads on its own."""
    entry = next((e for e in reading.entries if e.model == model_id), None)
    pairs = []
    for pair in reading.pairs:
        if model_id not in (pair.a, pair.b):
            continue
        other, sign = (pair.b, 1.0) if pair.a == model_id else (pair.a, -1.0)
        c = pair.comparison
        pairs.append(
            {
                "other": other,
                "p_holm": pair.p_holm,
                "difference": None if c is None else sign * c.difference,
                "interval": None if c is None else sorted((sign * c.interval[0], sign * c.interval[1])),
                "p_value": None if c is None else c.p_value,
                "test": None if c is None else c.test,
                "n": None if c is None else c.n,
            }
        )
    return {
        "estimate": entry.estimate.to_json() if entry is not None and entry.estimate is not None else None,
        "average_only": entry is not None and entry.estimate is None,
        "tier": entry.tier if entry is not None else None,
        "tied_with_leader": None if entry is None or entry.tier is None else entry.tier == 1,
        "pairs": pairs,
        "board": {
            "confidence": reading.confidence,
            "alpha": reading.alpha,
            "power": reading.power,
            "mde": reading.mde,
            "mde_items": reading.mde_items,
            "method": method_sentence(reading),
            "multiple_comparisons": "Holm across every pair on the board",
        },
    }


def run_estimates(results: Sequence[Result]) -> list[tuple[str, MeanEstimate | None]]:
    """A model's mean score per run with its interval (clustered by eval when an eval has
    several results), newest run first by its latest result; None where nothing was scored."""
    by_run: dict[str, list[Result]] = {}
    for result in results:
        if result.eval_run_id:
            by_run.setdefault(result.eval_run_id, []).append(result)

    def newest(run: list[Result]) -> tuple[int, str]:
        return max(_when(r) for r in run)

    out: list[tuple[str, MeanEstimate | None]] = []
    for run_id, run in sorted(by_run.items(), key=lambda item: newest(item[1]), reverse=True):
        scores, groups = results_scores(run)
        items = list(scores)
        out.append((run_id, mean_estimate([scores[i] for i in items], [groups[i] for i in items])))
    return out
