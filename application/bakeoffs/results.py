"""A finished bake-off's results as the rows the screen draws: only what the platform sent.

Each figure is the platform's own (``results.per_candidate``, ``results.per_model``, the
pairwise spec sheet); a figure it did not send stays None and the screen shows a dash with
``MISSING`` saying why. Nothing here recomputes a rate: a test recomputes them from the
samples instead, to hold the platform to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from diagnosis.stats import rogan_gladen_detail

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = [
    "CandidateRow",
    "CriterionRow",
    "JudgeFigures",
    "candidate_rows",
    "criterion_rows",
    "judge_figures",
    "win_verdict",
]

MISSING = "the platform did not send it"


@dataclass(frozen=True)
class CandidateRow:
    key: str
    model: str | None
    wins: int | None
    ties: int | None
    losses: int | None
    failed: int | None
    win_rate: float | None
    ci: tuple[float, float] | None
    unreportable: bool | None
    truncated: int | None
    latency_ms: float | None
    cost_micros: int | None
    savings_pct: float | None
    disagreement: float | None
    """The share of pairs with both readings whose two orderings disagreed."""
    disagreeing_pairs: int | None
    read_pairs: int | None
    position_bias: float | None
    """Points: picks of the answer shown first minus picks of the one shown second."""


def _interval(value: list[float] | None) -> tuple[float, float] | None:
    return (value[0], value[1]) if value else None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _spec_sheet(pairwise: assumed.Pairwise | None, key: str) -> dict[str, Any]:
    if pairwise is None:
        return {}
    entry = pairwise.candidates.get(key)
    sheet = entry.spec_sheet if entry is not None else None
    return sheet if isinstance(sheet, dict) else {}


def candidate_rows(run: assumed.Run, pairwise: assumed.Pairwise | None) -> list[CandidateRow]:
    """One row per candidate arm of a comparison run, in the platform's order."""
    results = run.results
    if results is None:
        return []
    rows = []
    for result in results.per_candidate:
        sheet = _spec_sheet(pairwise, result.key)
        pairs, failed_pairs = _count(sheet.get("pairs")), _count(sheet.get("failed_pairs"))
        read = pairs - failed_pairs if pairs is not None and failed_pairs is not None else None
        disagreeing = _count(sheet.get("disagreement_ties"))
        share = disagreeing / read if disagreeing is not None and read else None
        rows.append(
            CandidateRow(
                result.key,
                result.model,
                result.wins,
                result.ties,
                result.losses,
                result.failed,
                result.win_rate,
                _interval(result.ci95),
                result.unreportable,
                result.truncated,
                result.avg_latency_ms,
                result.eval_cost_micros,
                result.savings_pct,
                share,
                disagreeing,
                read,
                _number(sheet.get("first_minus_second")),
            )
        )
    return rows


def win_verdict(ci: tuple[float, float] | None) -> str:
    """Where the queue's interval lies against the 50% line (a tie counts half a win), said as
    that: the answer to "switch?" is the verdict's (``application.bakeoffs.decision``), which
    also reads the paired difference, so this phrase never claims "no difference" on its own."""
    if ci is None:
        return "no interval: the platform sent none"
    if ci[0] > 0.5:
        return "interval above 0.500"
    if ci[1] < 0.5:
        return "interval below 0.500"
    return "interval crosses 0.500: see the verdict"


@dataclass(frozen=True)
class JudgeFigures:
    """The frozen judge of a criterion run (from the run's ``criterion_snapshot``)."""

    name: str | None
    tpr: float | None
    tnr: float | None
    kappa: float | None


def judge_figures(run: assumed.Run) -> JudgeFigures | None:
    snapshot = run.criterion_snapshot
    if not snapshot:
        return None
    name = snapshot.get("name")
    return JudgeFigures(
        name if isinstance(name, str) else None,
        _number(snapshot.get("tpr")),
        _number(snapshot.get("tnr")),
        _number(snapshot.get("kappa")),
    )


@dataclass(frozen=True)
class CriterionRow:
    model: str
    judged_pass: int | None
    judged_fail: int | None
    unparsed: int | None
    truncated: int | None
    observed: float | None
    observed_ci: tuple[float, float] | None
    corrected: float | None
    corrected_ci: tuple[float, float] | None
    correction: str
    """What the correction did, in words ("clamped at 0", "none: the judge is no better than chance")."""


def correction_note(observed: float | None, judge: JudgeFigures | None, corrected: float | None) -> str:
    """What the Rogan–Gladen correction did to ``observed`` with the frozen judge's TPR/TNR."""
    if observed is None:
        return "nothing judged: no rate to correct"
    if judge is None or judge.tpr is None or judge.tnr is None:
        return "none: the frozen judge was never aligned (no TPR/TNR)"
    detail = rogan_gladen_detail(observed, judge.tpr, judge.tnr)
    if detail is None:
        return "none: the judge is no better than chance (TPR + TNR − 1 ≤ 0)"
    if corrected is None:
        return "the platform sent no corrected rate"
    if detail.clamped:
        return "clamped at 0" if detail.raw < 0 else "clamped at 1"
    shift = (corrected - observed) * 100
    return f"moved it {shift:+.1f} points"


def criterion_rows(run: assumed.Run) -> list[CriterionRow]:
    results = run.results
    if results is None:
        return []
    judge = judge_figures(run)
    return [
        CriterionRow(
            m.model,
            m.judged_pass,
            m.judged_fail,
            m.unparsed,
            m.truncated,
            m.observed_pass_rate,
            _interval(m.observed_ci),
            m.corrected_pass_rate,
            _interval(m.corrected_ci),
            correction_note(m.observed_pass_rate, judge, m.corrected_pass_rate),
        )
        for m in results.per_model
    ]
