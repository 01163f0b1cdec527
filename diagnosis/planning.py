"""Plan a bake-off before paying for it: what interval the run will have, how many samples a
question needs, and whether a noninferiority gate can be passed at all.

Pure arithmetic on what a person knows before spending (the sample count, an expected rate,
the tie share seen before, the judge's measured TPR/TNR, a margin); no IO.

The figures, each the one the queue will print (so a plan is read against the run it buys):

* **Half-width** of the printed rate: the Wilson 95 % interval (the queue's ``ci95``) at the
  expected rate ``p`` and ``n`` samples, half its width.
* **Corrected** (a judge with measured ``tpr``/``tnr``): the judge sees
  ``p_obs = p·tpr + (1 − p)(1 − tnr)``; the Rogan–Gladen correction divides by
  ``J = tpr + tnr − 1``, so the corrected interval is the observed one stretched by ``1/J``
  (the queue maps the observed interval's ends through the correction). A judge with
  ``J <= 0`` corrects nothing: no plan can buy certainty from it.
* **Decided pairs**: with a tie share ``t`` seen before, ``n·(1 − t)`` pairs are decided (the
  basis of ``win_rate_ties=decided`` and of the corrected win rate).
* **Noninferiority power** when the candidate is truly as good as the incumbent: the gate
  passes when the candidate's interval floor ``p̂_c − g`` reaches ``p̂_i − margin``, where
  ``g`` is how far the interval's floor lies below its point at the expected rate (Wilson's
  floor, stretched by ``1/J`` for a judge). With the two estimates independent and each of
  standard error ``se = √(p_obs(1 − p_obs)/n) / J``, the difference ``p̂_c − p̂_i`` is normal
  with mean 0 and sd ``se·√2``, so

      power = Φ( (margin − g) / (se·√2) )

  (assumption said once: the two rates are estimated independently on ``n`` samples each;
  answers to the same prompts are usually positively correlated, which makes the real power
  somewhat higher: this plan errs on the side of more samples).
* **Samples for a half-width / a margin**: the smallest ``n`` that reaches it (the functions
  above decrease monotonically in ``n``), found by doubling then bisection.
* **Smallest margin the cap certifies**: the margin whose power reaches the target at the
  queue's sample cap (500).

Every figure is checked in ``tests`` by simulating runs (2,000 of them) and counting.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TypedDict

from common.constants import QUEUE_SAMPLE_CAP, QUEUE_SAMPLE_FLOOR
from diagnosis.stats import wilson_interval

SAMPLE_CAP = QUEUE_SAMPLE_CAP  # the queue's, defined once in common.constants
SAMPLE_FLOOR = QUEUE_SAMPLE_FLOOR
DEFAULT_POWER = 0.8
_Z95 = NormalDist().inv_cdf(0.975)
_SEARCH_LIMIT = 10_000_000


def youden(tpr: float | None, tnr: float | None) -> float | None:
    """``tpr + tnr − 1`` (Youden's J), or None when either is unknown."""
    if tpr is None or tnr is None:
        return None
    return tpr + tnr - 1.0


def observed_rate(rate: float, tpr: float | None, tnr: float | None) -> float:
    """The rate a judge with ``tpr``/``tnr`` reports when the true rate is ``rate``."""
    if tpr is None or tnr is None:
        return rate
    return rate * tpr + (1.0 - rate) * (1.0 - tnr)


def wilson_half_width(n: float, rate: float) -> float:
    """Half the width of the Wilson 95 % interval at ``rate`` over ``n`` trials."""
    if n <= 0:
        return math.inf
    lower, upper = wilson_interval(rate * n, n)
    return (upper - lower) / 2.0


def expected_half_width(n: float, rate: float, tpr: float | None = None, tnr: float | None = None) -> float:
    """The half-width the run's interval will have: printed, or corrected when a judge's
    ``tpr``/``tnr`` are given (``inf`` for a judge no better than chance)."""
    j = youden(tpr, tnr)
    if j is None:
        return wilson_half_width(n, rate)
    if j <= 0.0:
        return math.inf
    return wilson_half_width(n, observed_rate(rate, tpr, tnr)) / j


def _floor_gap(n: float, rate: float, tpr: float | None, tnr: float | None) -> float:
    """How far below the point estimate the interval's floor lies at the expected rate (the
    Wilson interval is not symmetric away from 0.5, so this is not the half-width)."""
    j = youden(tpr, tnr)
    if j is not None and j <= 0.0:
        return math.inf
    seen = observed_rate(rate, tpr, tnr)
    lower, _ = wilson_interval(seen * n, n)
    return (seen - lower) / (1.0 if j is None else j)


def _standard_error(n: float, rate: float, tpr: float | None, tnr: float | None) -> float:
    j = youden(tpr, tnr)
    seen = observed_rate(rate, tpr, tnr)
    return math.sqrt(seen * (1.0 - seen) / n) / (1.0 if j is None else j)


def noninferiority_power(
    n: float,
    rate: float,
    margin: float,
    tpr: float | None = None,
    tnr: float | None = None,
) -> float:
    """The chance a noninferiority gate with ``margin`` passes when the candidate is truly as
    good as the incumbent (formula in the module docstring)."""
    gap = _floor_gap(n, rate, tpr, tnr)
    if not math.isfinite(gap):
        return 0.0
    se = _standard_error(n, rate, tpr, tnr)
    if se == 0.0:
        return 1.0 if margin >= gap else 0.0
    return NormalDist().cdf((margin - gap) / (se * math.sqrt(2.0)))


def _smallest_n(reaches: Callable[[int], bool]) -> int | None:
    """The smallest whole ``n >= 1`` for which ``reaches(n)`` holds (monotone), or None past
    the search limit."""
    high = 1
    while not reaches(high):
        high *= 2
        if high > _SEARCH_LIMIT:
            return None
    low = high // 2 + 1 if high > 1 else 1
    while low < high:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return high


def samples_for_half_width(
    half_width: float,
    rate: float,
    tpr: float | None = None,
    tnr: float | None = None,
) -> int | None:
    """The fewest samples whose interval is at most ``half_width`` wide on each side."""
    if half_width <= 0.0:
        raise ValueError(f"a half-width must be above 0, got {half_width!r}")
    j = youden(tpr, tnr)
    if j is not None and j <= 0.0:
        return None
    return _smallest_n(lambda n: expected_half_width(n, rate, tpr, tnr) <= half_width)


def samples_for_margin(
    margin: float,
    rate: float,
    tpr: float | None = None,
    tnr: float | None = None,
    power: float = DEFAULT_POWER,
) -> int | None:
    """The fewest samples that pass a noninferiority gate with ``margin`` with ``power`` when
    the candidate is truly as good."""
    if margin <= 0.0:
        raise ValueError(f"a margin must be above 0, got {margin!r}")
    j = youden(tpr, tnr)
    if j is not None and j <= 0.0:
        return None
    return _smallest_n(lambda n: noninferiority_power(n, rate, margin, tpr, tnr) >= power)


def smallest_margin(
    n: int,
    rate: float,
    tpr: float | None = None,
    tnr: float | None = None,
    power: float = DEFAULT_POWER,
) -> float | None:
    """The smallest margin that ``n`` samples pass with ``power`` (None for a chance judge)."""
    gap = _floor_gap(n, rate, tpr, tnr)
    if not math.isfinite(gap):
        return None
    return gap + NormalDist().inv_cdf(power) * _standard_error(n, rate, tpr, tnr) * math.sqrt(2.0)


@dataclass(frozen=True, slots=True)
class PlanQuestion:
    """What a person knows before spending. ``rate`` None means "not known": the plan then
    uses 0.5, where an interval is widest, and says so."""

    samples: int | None = None
    rate: float | None = None
    half_width: float | None = None
    margin: float | None = None
    tie_share: float | None = None
    tpr: float | None = None
    tnr: float | None = None
    power: float = DEFAULT_POWER

    def problems(self) -> list[str]:
        """Each value a person got wrong, as a sentence (empty when all are usable)."""
        said: list[str] = []
        if self.samples is not None and not SAMPLE_FLOOR <= self.samples <= SAMPLE_CAP:
            said.append(
                f"samples must be a whole number {SAMPLE_FLOOR}..{SAMPLE_CAP} (the queue's range), got {self.samples}"
            )
        for name in ("rate", "tie_share", "tpr", "tnr"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                said.append(f"{name.replace('_', '-')} must be a rate 0..1 (0.55, not 55), got {value:g}")
        for name in ("half_width", "margin"):
            value = getattr(self, name)
            if value is not None and not 0.0 < value < 1.0:
                said.append(f"{name.replace('_', '-')} must be above 0 and below 1 (0.05 = 5 points), got {value:g}")
        if self.tie_share is not None and self.tie_share >= 1.0:
            said.append("tie-share must be below 1: with every pair a tie nothing is decided")
        if (self.tpr is None) != (self.tnr is None):
            said.append("give --tpr and --tnr together (the judge's two measured rates)")
        if not 0.0 < self.power < 1.0:
            said.append(f"power must be between 0 and 1, got {self.power:g}")
        return said


class _PlanFigures(TypedDict, total=False):
    """The figures of a :class:`Plan` that its question asked for."""

    half_width: float | None
    decided_pairs: float | None
    decided_half_width: float | None
    samples_for_half_width: int | None
    power: float | None
    samples_for_margin: int | None
    smallest_margin_at_cap: float | None


@dataclass(frozen=True, slots=True)
class Plan:
    """The answer: each figure None where the question did not ask for it (or it cannot be
    had), with ``notes`` saying why in plain words."""

    question: PlanQuestion
    rate: float
    rate_assumed: bool
    judge_youden: float | None
    half_width: float | None = None
    decided_pairs: float | None = None
    decided_half_width: float | None = None
    samples_for_half_width: int | None = None
    power: float | None = None
    samples_for_margin: int | None = None
    smallest_margin_at_cap: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def underpowered(self) -> bool:
        """A margin was asked for and the planned samples pass it less often than ``power``."""
        return self.power is not None and self.power < self.question.power


def plan(question: PlanQuestion) -> Plan:
    """Every figure the question allows (raise ``ValueError`` on a question with problems)."""
    problems = question.problems()
    if problems:
        raise ValueError("; ".join(problems))
    rate = 0.5 if question.rate is None else question.rate
    tpr, tnr = question.tpr, question.tnr
    j = youden(tpr, tnr)
    notes: list[str] = []
    if question.rate is None:
        notes.append("no expected rate given: 0.5 assumed, where an interval is widest")
    chance_judge = j is not None and j <= 0.0
    if chance_judge:
        notes.append(
            f"the judge is no better than chance (TPR+TNR-1 = {j:+.3f}): no sample "
            "count makes its verdict mean anything; calibrate or pick another criterion"
        )
    elif j is not None:
        notes.append(f"corrected for the judge (TPR+TNR-1 = {j:.3f}): intervals are {1 / j:.2f}x the printed ones")
    values: _PlanFigures = {}
    n = question.samples
    if n is not None:
        half = expected_half_width(n, rate, tpr, tnr)
        values["half_width"] = half if math.isfinite(half) else None
        if question.tie_share is not None:
            decided = n * (1.0 - question.tie_share)
            values["decided_pairs"] = decided
            values["decided_half_width"] = expected_half_width(decided, rate, tpr, tnr) if decided >= 1 else None
    if question.half_width is not None and not chance_judge:
        values["samples_for_half_width"] = samples_for_half_width(question.half_width, rate, tpr, tnr)
    if question.margin is not None and not chance_judge:
        if n is not None:
            values["power"] = noninferiority_power(n, rate, question.margin, tpr, tnr)
        values["samples_for_margin"] = samples_for_margin(question.margin, rate, tpr, tnr, question.power)
        notes.append(
            "noninferiority assumes the candidate and the incumbent are estimated "
            "independently (same prompts usually correlate, so this errs toward more samples)"
        )
    if not chance_judge:
        values["smallest_margin_at_cap"] = smallest_margin(SAMPLE_CAP, rate, tpr, tnr, question.power)
    return Plan(question=question, rate=rate, rate_assumed=question.rate is None, judge_youden=j, notes=notes, **values)


def underpowered_advice(
    samples: int,
    margin: float,
    rate: float | None,
    tpr: float | None,
    tnr: float | None,
    power: float = DEFAULT_POWER,
    *,
    queue_needed: int | None = None,
) -> str:
    """What would be enough for a certified switch the queue refused as underpowered (412), with
    one sample count only: the larger of the queue's own minimum (``queue_needed``, when its
    answer named one) and the count that gives ``power`` at ``margin``, when that fits in one
    run; past the queue's cap, the queue's minimum (if any) with the power it buys, then what to
    do instead (:func:`beyond_cap`), never a run larger than the queue takes."""
    p = 0.5 if rate is None else rate
    j = youden(tpr, tnr)
    if j is not None and j <= 0.0:
        return "no sample count is enough: the judge is no better than chance (calibrate the criterion first)"
    basis = "an assumed rate of 0.5" if rate is None else f"a rate of {p:g}"
    asks = f"the {margin * 100:.1f}-point margin (no more than {margin * 100:.1f} points worse?)"
    needed = samples_for_margin(margin, p, tpr, tnr, power)
    floor = queue_needed or 0
    if needed is not None and needed <= SAMPLE_CAP:
        enough = max(needed, floor)
        at = noninferiority_power(enough, p, margin, tpr, tnr)
        why = (
            f"the queue's minimum for this judge; there a candidate truly as good passes {asks} {at:.0%} of the time"
            if enough == floor
            else f"{power:.0%} power for {asks}" + ("; the queue's own minimum is lower" if floor else "")
        )
        return (
            f"{enough} samples would be enough (ask for sample_count {enough} instead of {samples}): {why} (at {basis})"
        )
    widest = smallest_margin(SAMPLE_CAP, p, tpr, tnr, power)
    what = f"reach {power:.0%} power" + ("" if floor else f" for the {margin * 100:.1f}-point margin")
    instead = beyond_cap(what, needed, widest, "a sharper calibrated criterion")
    if floor:
        at = noninferiority_power(floor, p, margin, tpr, tnr)
        return (
            f"the queue takes it from {floor} samples (ask for sample_count {floor} instead of {samples}), where a "
            f"candidate truly as good passes {asks} {at:.0%} of the time; {instead} (at {basis})"
        )
    return f"{instead} (at {basis})"


def runs_for(needed: int) -> int:
    """How many runs of the queue's cap hold ``needed`` samples between them."""
    return max(1, math.ceil(needed / SAMPLE_CAP))


def beyond_cap(what: str, needed: int | None, margin_at_cap: float | None, calibrate: str) -> str:
    """What to do when one run cannot ``what`` (``needed`` samples, None: no count would, is
    past the queue's cap): the alternatives, never a run larger than the queue takes.

    ``margin_at_cap``: the smallest noninferiority margin a run at the cap would settle;
    ``calibrate``: the calibrated-criterion option in the caller's words."""
    wider = (
        f"a margin of at least {margin_at_cap * 100:.1f} points ({SAMPLE_CAP} samples reach that)"
        if margin_at_cap is not None and 0.0 < margin_at_cap < 1.0
        else "a wider margin"
    )
    several = f"about {runs_for(needed)} runs of {SAMPLE_CAP} read together" if needed is not None else "several runs"
    cap = f"the queue caps a run at {SAMPLE_CAP} samples"
    return f"one run cannot {what}: {cap}; instead: {wider}, {calibrate}, or {several}"
