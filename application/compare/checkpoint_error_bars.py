"""The checkpoint comparison's board-wide honesty (no Textual; the Checkpoints view and
``blah-tui report --compare`` share it). Each row already carries its Wilson and Newcombe
intervals (``diagnosis.checkpoint``); across the rows:

- the p-values of the comparable rows (pooled two-proportion z test: the two sides are
  different calls, nothing to pair) Holm-corrected over the rows of a section, so that one row
  among many crossing 5 % by chance is not read as a change;
- the minimum detectable change of the "any failure" row at 80 % power: "with 2,000 calls a
  side, a change under 3.1 points cannot be seen".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from diagnosis.board_stats import holm, two_proportion_mde, two_proportion_p
from diagnosis.checkpoint import ChangeRow, SideRate

__all__ = ["RowTest", "checkpoint_mde_sentence", "holm_sentence", "row_tests"]


@dataclass(frozen=True, slots=True)
class RowTest:
    section: str
    name: str
    p_value: float
    p_holm: float


def _sides(row: ChangeRow) -> tuple[SideRate, SideRate] | None:
    return (row.a, row.b) if row.a is not None and row.b is not None else None


def row_tests(rows: Sequence[ChangeRow]) -> list[RowTest]:
    """Every comparable row's p-value and its Holm-corrected p-value within its section."""
    tests: list[RowTest] = []
    for section in dict.fromkeys(r.section for r in rows):
        picked = [(r, sides) for r in rows if r.section == section and (sides := _sides(r)) is not None]
        raw = [two_proportion_p(b.failures, b.calls, a.failures, a.calls) for _, (a, b) in picked]
        tests += [RowTest(r.section, r.name, p, q) for (r, _), p, q in zip(picked, raw, holm(raw), strict=True)]
    return tests


def checkpoint_mde_sentence(rows: Sequence[ChangeRow]) -> str:
    """What the "any failure" row can see, in points of failure rate."""
    overall = next((r for r in rows if r.section == "overall" and r.a is not None and r.b is not None), None)
    if overall is None or overall.a is None or overall.b is None:
        return "a side has no calls: no difference can be seen"
    mde = two_proportion_mde(overall.b.failures, overall.b.calls, overall.a.failures, overall.a.calls)
    if mde is None:
        return "no failures on either side (or only failures): no change can be measured"
    return (
        f"with {overall.a.calls:,} calls in A and {overall.b.calls:,} in B, a change in the failure rate under "
        f"{mde * 100:.1f} points cannot be seen reliably (80% power, alpha 0.05)"
    )


def holm_sentence(rows: Sequence[ChangeRow], alpha: float = 0.05) -> str:
    """How many of the per-kind and per-eval changes survive Holm's correction."""
    tests = {(t.section, t.name): t for t in row_tests(rows)}
    said = []
    for section, noun in (("kind", "kinds"), ("eval", "evals")):
        tested = [t for t in tests.values() if t.section == section]
        if not tested:
            continue
        raw = sum(t.p_value < alpha for t in tested)
        held = sum(t.p_holm < alpha for t in tested)
        said.append(f"{noun}: {held} of {raw} changes at p < {alpha:g} hold after Holm across {len(tested)}")
    return " · ".join(said) if said else "no row can be tested (a side has no calls)"
