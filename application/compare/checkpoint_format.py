"""The checkpoint comparison as cells and as JSON: one wording for the Compare screen's
Checkpoints view and ``blah-tui report --compare`` (no Textual).

Rates are percentages with one decimal, their 95 % interval in brackets (``46.2% [44.0–48.4]``)
and the counts they come from (``924/2000``); a difference is in percentage points (B − A:
negative means fewer failures after).
A side with no calls says "no calls" (the verdict says which side, the difference and the calls
needed are a dash); nothing is filled in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from application.compare.checkpoint import CheckpointComparison, Side
from common.format import DASH, format_utc
from common.safe_strings import one_line
from diagnosis.checkpoint import ANY_FAILURE, BETTER, NO_CHANGE, WORSE, ChangeRow, SideRate
from diagnosis.kinds import CAUSE_ONLY_KINDS, describe

__all__ = [
    "COLUMNS",
    "METHOD",
    "METHOD_SHORT",
    "difference_cell",
    "n_needed_cell",
    "rate_cell",
    "row_cells",
    "row_label",
    "side_line",
    "tally",
    "to_json",
]

COLUMNS: tuple[str, ...] = (
    "row",
    "A rate [95% CI] n",
    "B rate [95% CI] n",
    "B − A, pts [Newcombe]",
    "verdict",
    "n needed/side",
)

METHOD = (
    "failure rates (failed/calls), lower is better, with 95% Wilson intervals; B − A in "
    "percentage points with Newcombe's hybrid score 95% interval; n needed per side to detect "
    "the observed difference: two-proportion normal approximation, two-sided alpha 0.05, power 0.8"
)


METHOD_SHORT = (
    "failed/calls, lower is better, 95% Wilson · B − A in points, Newcombe 95% · "
    "n needed/side: normal approximation, alpha 0.05, power 0.8"
)


def tally(rows: Sequence[ChangeRow], section: str) -> str:
    """``1 better, 7 worse, 1 no detectable change`` over one section's rows (kinds or evals)."""
    picked = [r for r in rows if r.section == section]
    parts = [f"{sum(r.verdict == w for r in picked)} {w}" for w in (BETTER, WORSE)]
    parts.append(f"{sum(r.verdict == NO_CHANGE for r in picked)} no detectable change")
    missing = sum(not r.comparable for r in picked)
    if missing:
        parts.append(f"{missing} with no calls on a side")
    return ", ".join(parts)


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _pts(value: float) -> str:
    # Signed, with a real minus sign; -0.0 reads as 0.0.
    shown = f"{abs(value) * 100:.1f}"
    if shown == "0.0":
        return "0.0"
    return ("+" if value > 0 else "−") + shown


def row_label(row: ChangeRow) -> str:
    """``any failure``, a kind's label (``cut off``), or ``eval ID`` (inert, one line)."""
    if row.section == "overall":
        return ANY_FAILURE
    if row.section == "kind":
        label = describe(row.name).label
        # A cause (e.g. the wrong chat template) is not a failure by itself: its rate can
        # exceed "any failure", which would read as a contradiction without the mark.
        return f"{label} (cause only)" if row.name in CAUSE_ONLY_KINDS else label
    return "eval " + one_line(row.name, max_len=40)


def rate_cell(side: SideRate | None) -> str:
    if side is None:
        return "no calls"
    low, high = side.interval
    return f"{_pct(side.rate)} [{low * 100:.1f}–{high * 100:.1f}] {side.failures}/{side.calls}"


def difference_cell(row: ChangeRow) -> str:
    if row.difference is None or row.difference_interval is None:
        return DASH  # a side has no calls: the verdict cell says which
    low, high = row.difference_interval
    return f"{_pts(row.difference)} [{_pts(low)}, {_pts(high)}]"


def n_needed_cell(row: ChangeRow) -> str:
    if row.n_needed is None:
        return DASH if not row.comparable else (row.n_needed_note or DASH)
    return f"{row.n_needed:,}"


def row_cells(row: ChangeRow) -> tuple[str, str, str, str, str, str]:
    """The six cells of ``COLUMNS`` for one row."""
    return (row_label(row), rate_cell(row.a), rate_cell(row.b), difference_cell(row), row.verdict, n_needed_cell(row))


def side_line(name: str, side: Side) -> str:
    """``A: model-id, 2,000 calls, 2025-11-28 10:00Z to 2025-11-29 09:58Z`` (inert)."""
    what = one_line(side.model_id, max_len=60)
    if side.calls == 0:
        return f"{name}: {what}, no calls read"
    span = f"{format_utc(side.first_ms, seconds=False)} to {format_utc(side.last_ms, seconds=False)}"
    text = f"{name}: {what}, {side.calls:,} calls, {span}"
    if side.note:
        text += f" ({one_line(side.note, max_len=120)})"
    return text


def _rate_json(side: SideRate | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {"failures": side.failures, "calls": side.calls, "rate": side.rate, "interval": list(side.interval)}


def _side_json(side: Side) -> dict[str, Any]:
    return {
        "model_id": side.model_id,
        "calls": side.calls,
        "first_ms": side.first_ms,
        "last_ms": side.last_ms,
        "source": side.source,
        "note": side.note,
    }


def to_json(comparison: CheckpointComparison) -> dict[str, Any]:
    """Every number with what it is; ``null`` where a side had no calls."""
    from application.compare.checkpoint_error_bars import checkpoint_mde_sentence, row_tests

    tests = {(t.section, t.name): t for t in row_tests(comparison.rows)}
    return {
        "mode": comparison.mode,
        "a": _side_json(comparison.a),
        "b": _side_json(comparison.b),
        "split_at_ms": comparison.split_at_ms,
        "calls_limit": comparison.limit,
        "confidence": comparison.confidence,
        "power": comparison.power,
        "method": METHOD,
        "rows": [
            {
                "section": row.section,
                "name": row.name,
                "a": _rate_json(row.a),
                "b": _rate_json(row.b),
                "difference": row.difference,
                "difference_interval": list(row.difference_interval) if row.difference_interval else None,
                "verdict": row.verdict,
                "n_needed_per_side": row.n_needed,
                "n_needed_note": row.n_needed_note,
                "p_value": t.p_value if (t := tests.get((row.section, row.name))) else None,
                "p_holm": t.p_holm if t else None,
            }
            for row in comparison.rows
        ],
        "minimum_detectable": checkpoint_mde_sentence(comparison.rows),
    }
