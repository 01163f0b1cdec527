"""Did the new checkpoint get better? Two independent sets of calls, compared row by row.

Pure: no IO, no Textual. The calls arrive already classified (:class:`CallOutcome`: the eval
a call answered and the failure kinds found in it); ``application.compare.checkpoint`` reads and
classifies them.

Side A is "before" (the old checkpoint, or the older time window), side B "after". Each row
is a failure rate, so LOWER IS BETTER:

- "any failure": calls with at least one failure (``kinds.CAUSE_ONLY_KINDS`` alone is not a
  failure), over every call of the side;
- one row per failure kind found on either side, over every call of the side (a kind found
  on neither side is not listed: 0 of n against 0 of m says nothing new);
- one row per eval answered on either side: calls of that eval with a failure, over the calls
  of that eval (calls outside any eval, chat and chatroom traffic, are in the first two only).

Per row, with ``diagnosis.stats`` (its docstring has the formulas):

- each side's rate ``x / n`` with its Wilson score interval;
- the difference ``rate_B − rate_A`` with Newcombe's hybrid score interval (method 10); the
  two sets must be different calls, which two models or two time windows are;
- the verdict: "better" when the whole interval lies below 0 (fewer failures after), "worse"
  when it lies above 0, else "no detectable change at this sample size"
  (:func:`diagnosis.stats.change_verdict`; an interval touching 0 is no change);
- the calls needed per side to detect the observed difference: the two-proportion normal
  approximation (Fleiss 1981, no continuity correction), two-sided alpha = 1 − confidence
  (0.05), power 0.8, with the two observed rates as the truth
  (:func:`diagnosis.stats.sample_size_per_group`). None when the rates are equal (there is
  no difference to detect) or a side has no calls.

Never a made-up number: a side with no calls has no rate (``None``), and the row says so in
its verdict ("no calls in A").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from . import kinds
from .stats import (
    Interval,
    change_verdict,
    newcombe_difference_interval,
    sample_size_per_group,
    wilson_interval,
)

__all__ = [
    "ANY_FAILURE",
    "BETTER",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_POWER",
    "NO_CHANGE",
    "WORSE",
    "CallOutcome",
    "ChangeRow",
    "SideRate",
    "compare_counts",
    "compare_outcomes",
]

ANY_FAILURE = "any failure"
BETTER = "better"
WORSE = "worse"
NO_CHANGE = "no detectable change at this sample size"
DEFAULT_CONFIDENCE = 0.95
DEFAULT_POWER = 0.8

Section = Literal["overall", "kind", "eval"]
_VERDICT_ORDER = {WORSE: 0, BETTER: 1, NO_CHANGE: 2}


@dataclass(frozen=True, slots=True)
class CallOutcome:
    """One classified call: the eval it answered (None: chat or chatroom traffic) and the
    kinds found in it."""

    eval_id: str | None
    kinds: frozenset[str]

    @property
    def failed(self) -> bool:
        return any(k not in kinds.CAUSE_ONLY_KINDS for k in self.kinds)


@dataclass(frozen=True, slots=True)
class SideRate:
    """``failures`` of ``calls`` (``calls`` >= 1) with the rate's Wilson interval."""

    failures: int
    calls: int
    interval: Interval

    @property
    def rate(self) -> float:
        return self.failures / self.calls


@dataclass(frozen=True, slots=True)
class ChangeRow:
    """One row: a failure rate before (A) and after (B), the change and the verdict."""

    section: Section
    name: str  # ANY_FAILURE, a kind, or an eval id
    a: SideRate | None  # None: side A has no calls for this row
    b: SideRate | None
    difference: float | None  # rate_B − rate_A; None when a side has no calls
    difference_interval: Interval | None  # Newcombe; None when a side has no calls
    verdict: str  # BETTER, WORSE, NO_CHANGE, or "no calls in A" / "no calls in B" / "no calls in A or B"
    n_needed: int | None  # calls per side to detect ``difference``; see n_needed_note when None
    n_needed_note: str | None = None

    @property
    def comparable(self) -> bool:
        return self.a is not None and self.b is not None


def _side(failures: int, calls: int, confidence: float) -> SideRate | None:
    if calls <= 0:
        return None
    return SideRate(failures, calls, wilson_interval(failures, calls, confidence))


def compare_counts(
    section: Section,
    name: str,
    *,
    a_failures: int,
    a_calls: int,
    b_failures: int,
    b_calls: int,
    confidence: float = DEFAULT_CONFIDENCE,
    power: float = DEFAULT_POWER,
) -> ChangeRow:
    """One row from the counts of both sides (the failure rate: lower is better)."""
    a = _side(a_failures, a_calls, confidence)
    b = _side(b_failures, b_calls, confidence)
    if a is None or b is None:
        missing = " or ".join(side for side, rate in (("A", a), ("B", b)) if rate is None)
        return ChangeRow(section, name, a, b, None, None, f"no calls in {missing}", None, f"no calls in {missing}")
    interval = newcombe_difference_interval(b.failures, b.calls, a.failures, a.calls, confidence)
    word = change_verdict(interval, higher_is_better=False)
    verdict = NO_CHANGE if word == "no detectable change" else word
    if a.failures * b.calls == b.failures * a.calls:  # the same rate, compared exactly
        needed, note = None, "same rate"
    else:
        needed = sample_size_per_group(a.rate, b.rate, alpha=1.0 - confidence, power=power)
        note = None
    return ChangeRow(section, name, a, b, b.rate - a.rate, interval, verdict, needed, note)


def _kind_order(found: Iterable[str]) -> list[str]:
    known = [k for k in kinds.CLASSIFY_KINDS if k in found]
    return known + sorted(set(found) - set(known))


def _eval_sort_key(row: ChangeRow) -> tuple[int, float, str]:
    gap = abs(row.difference) if row.difference is not None else 0.0
    return _VERDICT_ORDER.get(row.verdict, 3), -gap, row.name


def compare_outcomes(
    a: Sequence[CallOutcome],
    b: Sequence[CallOutcome],
    *,
    confidence: float = DEFAULT_CONFIDENCE,
    power: float = DEFAULT_POWER,
) -> tuple[ChangeRow, ...]:
    """Every row: "any failure" first, then each kind found (in ``kinds.CLASSIFY_KINDS``
    order), then each eval (worse first, then better, then no detectable change, then those
    with no calls on a side; a bigger change first, then by id)."""

    def row(section: Section, name: str, af: int, an: int, bf: int, bn: int) -> ChangeRow:
        return compare_counts(
            section, name, a_failures=af, a_calls=an, b_failures=bf, b_calls=bn, confidence=confidence, power=power
        )

    rows = [row("overall", ANY_FAILURE, sum(c.failed for c in a), len(a), sum(c.failed for c in b), len(b))]
    found = {k for c in (*a, *b) for k in c.kinds}
    for kind in _kind_order(found):
        rows.append(row("kind", kind, sum(kind in c.kinds for c in a), len(a), sum(kind in c.kinds for c in b), len(b)))
    per_eval: dict[str, list[int]] = {}  # eval id -> [A failures, A calls, B failures, B calls]
    for offset, calls in ((0, a), (2, b)):
        for call in calls:
            if call.eval_id is None:
                continue
            counts = per_eval.setdefault(call.eval_id, [0, 0, 0, 0])
            counts[offset] += call.failed
            counts[offset + 1] += 1
    eval_rows = [row("eval", eval_id, *counts) for eval_id, counts in per_eval.items()]
    rows += sorted(eval_rows, key=_eval_sort_key)
    return tuple(rows)
