"""Rates with honest uncertainty: the arithmetic every screen, command and test shares.

Pure and standard library only (``math``, ``statistics.NormalDist`` for the normal quantile).
Every interval is two-sided; ``confidence`` is its level (0.95 means alpha = 0.05) and must lie
strictly between 0 and 1. Throughout, ``z = Φ⁻¹((1 + confidence) / 2)`` (1.959964 at 95 %).

Wilson score interval (Wilson 1927; method 3 of Newcombe 1998a), for ``x`` successes of ``n``,
``p = x / n``::

    centre    = (p + z²/(2n)) / (1 + z²/n)
    halfwidth = z / (1 + z²/n) · √( p(1 − p)/n + z²/(4n²) )
    (L, U)    = (centre − halfwidth, centre + halfwidth)

``x`` may be fractional (a tie counts one half). ``x = 0`` gives ``L = 0`` and ``x = n`` gives
``U = 1`` exactly (set, not left to rounding).

Newcombe's hybrid score interval for a difference of two independent rates (method 10 of
Newcombe 1998b), ``θ = p₁ − p₂`` ("after" minus "before"), from the Wilson intervals
``(l₁, u₁)`` of ``p₁ = x₁/n₁`` and ``(l₂, u₂)`` of ``p₂ = x₂/n₂``::

    δ = z · √( l₁(1 − l₁)/n₁ + u₂(1 − u₂)/n₂ )
    ε = z · √( u₁(1 − u₁)/n₁ + l₂(1 − l₂)/n₂ )
    (L, U) = (θ − δ, θ + ε)

(equivalently ``δ = √((p₁ − l₁)² + (u₂ − p₂)²)`` and ``ε = √((u₁ − p₁)² + (p₂ − l₂)²)``, since
the Wilson limits solve ``(p − l)² = z² l(1 − l)/n``). Newcombe's example: 56/70 − 48/80 =
0.2000, 95 % interval 0.0524 to 0.3339.

Rogan–Gladen correction (Rogan & Gladen 1978) of an observed rate for a judge with
sensitivity ``tpr`` and specificity ``tnr``, with Youden's ``J = tpr + tnr − 1``::

    corrected = (observed + tnr − 1) / J        (undefined when J <= 0: the judge is no
                                                  better than a coin; we return None)

The raw value can fall outside [0, 1] (fewer positives observed than the false-positive rate
alone would give, or more than the judge could find); it is clamped and ``CorrectedRate`` says
so.

Lang & Reiczigel (2014) interval for that corrected rate when ``tpr`` and ``tnr`` were
themselves measured on labelled sets (``tp`` of ``positives_labelled`` truly positive items
flagged, ``tn`` of ``negatives_labelled`` truly negative items passed), the sample being
``positives`` flagged of ``n``. Agresti–Coull-style adjustment: ``z²/2`` successes and
``z²/2`` failures added to the sample, one success and one failure to each labelled set::

    n'   = n + z²                    AP' = (positives + z²/2) / n'
    nSe' = positives_labelled + 2    Se' = (tp + 1) / nSe'
    nSp' = negatives_labelled + 2    Sp' = (tn + 1) / nSp'
    J'   = Se' + Sp' − 1             P'  = (AP' + Sp' − 1) / J'
    Var(P') = [ AP'(1 − AP')/n' + P'² Se'(1 − Se')/nSe' + (1 − P')² Sp'(1 − Sp')/nSp' ] / J'²
              (the delta-method variance of the Rogan–Gladen estimator, eq. 4 of the paper)
    shift d = 2z² · [ P' Se'(1 − Se')/nSe' − (1 − P') Sp'(1 − Sp')/nSp' ]      (eq. 17)
    (L, U)  = P' + d ∓ z √Var(P'), each clamped to [0, 1]                      (eq. 16)

as in the authors' published R script (CI4TruePrevalence, 2013) and ``asht::prevSeSp``.

Sample size per group to detect ``p₁`` vs ``p₂`` (normal approximation, two-sided ``alpha``,
``power``, no continuity correction; Fleiss 1981), ``p̄ = (p₁ + p₂)/2``::

    n = ( z_{1−alpha/2} √(2 p̄(1 − p̄)) + z_{power} √(p₁(1 − p₁) + p₂(1 − p₂)) )² / (p₁ − p₂)²

rounded up.

Edge cases, decided once for every caller:

- ``n = 0`` (or any empty labelled set) raises ``ValueError``: no trials give no interval, and
  returning (0, 1) would look like a measured one. Screens say "no data" instead.
- Counts outside ``0 <= x <= n``, rates outside [0, 1], NaN, and ``confidence`` outside
  (0, 1) raise ``ValueError`` with the offending value in the message.
- A judge no better than chance (``J <= 0``, observed or adjusted) gives ``None`` from
  :func:`rogan_gladen` and a ``ValueError`` from :func:`lang_reiczigel_interval`.

References: E. B. Wilson, JASA 22 (1927) 209–212. R. G. Newcombe, Stat Med 17 (1998) 857–872
(single proportion) and 873–890 (difference). W. J. Rogan, B. Gladen, Am J Epidemiol 107
(1978) 71–76. Zs. Lang, J. Reiczigel, Prev Vet Med 113 (2014) 13–22.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

Interval = tuple[float, float]
Verdict = Literal["better", "worse", "no detectable change"]

_STANDARD_NORMAL = NormalDist()
# A corrected rate this close outside [0, 1] is rounding, not a value that needed clamping
# (e.g. observed exactly equal to the false-positive rate gives -1e-17).
_CLAMP_TOLERANCE = 1e-12


@dataclass(frozen=True, slots=True)
class CorrectedRate:
    """A Rogan–Gladen corrected rate: ``value`` in [0, 1] to show, ``raw`` as computed, and
    whether ``value`` was clamped (so a screen can say "at least 0 / at most 1, clamped")."""

    value: float
    raw: float
    clamped: bool


def _z(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence``: 1.959964 at 0.95."""
    if not 0.0 < confidence < 1.0:  # also rejects NaN
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return _STANDARD_NORMAL.inv_cdf((1.0 + confidence) / 2.0)


def _check_count(successes: float, n: float, what: str) -> None:
    if not n > 0:  # also rejects NaN
        raise ValueError(f"{what}: no trials (n = {n!r}); an interval needs n >= 1")
    if not 0 <= successes <= n:
        raise ValueError(f"{what}: successes must be between 0 and n = {n!r}, got {successes!r}")


def _check_rate(rate: float, name: str) -> None:
    if not 0.0 <= rate <= 1.0:  # also rejects NaN
        raise ValueError(f"{name} must be a rate between 0 and 1, got {rate!r}")


def wilson_interval(successes: float, n: float, confidence: float = 0.95) -> Interval:
    """Wilson score interval of the rate ``successes / n`` (formula in the module docstring).

    ``successes`` may be fractional (a tie counts one half); ``n`` is a count, or any positive
    number where a plan searches over sample sizes. Raises ``ValueError`` for
    ``n <= 0``, ``successes`` outside [0, n], or ``confidence`` outside (0, 1).
    """
    _check_count(successes, n, "wilson_interval")
    z = _z(confidence)
    z2 = z * z
    p = successes / n
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denominator
    halfwidth = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    lower = 0.0 if successes == 0 else max(0.0, centre - halfwidth)
    upper = 1.0 if successes == n else min(1.0, centre + halfwidth)
    return lower, upper


def newcombe_difference_interval(
    x_after: float,
    n_after: int,
    x_before: float,
    n_before: int,
    confidence: float = 0.95,
) -> Interval:
    """Interval of (after rate − before rate), Newcombe's hybrid score method (method 10).

    The two samples must be independent (different calls, not the same prompts re-judged).
    Counts follow :func:`wilson_interval` (fractional ties allowed, ``n = 0`` raises).
    """
    z = _z(confidence)
    l_after, u_after = wilson_interval(x_after, n_after, confidence)
    l_before, u_before = wilson_interval(x_before, n_before, confidence)
    difference = x_after / n_after - x_before / n_before
    below = z * math.sqrt(l_after * (1.0 - l_after) / n_after + u_before * (1.0 - u_before) / n_before)
    above = z * math.sqrt(u_after * (1.0 - u_after) / n_after + l_before * (1.0 - l_before) / n_before)
    return max(-1.0, difference - below), min(1.0, difference + above)


def rogan_gladen_detail(observed: float, tpr: float, tnr: float) -> CorrectedRate | None:
    """The Rogan–Gladen corrected rate with its raw value and whether it was clamped.

    ``None`` when ``tpr + tnr − 1 <= 0`` (a judge no better than chance corrects nothing).
    Raises ``ValueError`` when a rate is outside [0, 1].
    """
    _check_rate(observed, "observed")
    _check_rate(tpr, "tpr")
    _check_rate(tnr, "tnr")
    youden = tpr + tnr - 1.0
    if youden <= 0.0:
        return None
    raw = (observed - (1.0 - tnr)) / youden  # observed minus the false-positive rate
    clamped = raw < -_CLAMP_TOLERANCE or raw > 1.0 + _CLAMP_TOLERANCE
    return CorrectedRate(value=min(1.0, max(0.0, raw)), raw=raw, clamped=clamped)


def rogan_gladen(observed: float, tpr: float, tnr: float) -> float | None:
    """The Rogan–Gladen corrected rate, clamped to [0, 1]; ``None`` when ``tpr + tnr <= 1``.

    Use :func:`rogan_gladen_detail` to learn whether clamping happened.
    """
    detail = rogan_gladen_detail(observed, tpr, tnr)
    return None if detail is None else detail.value


def lang_reiczigel_interval(
    positives: int,
    n: int,
    tp: int,
    positives_labelled: int,
    tn: int,
    negatives_labelled: int,
    confidence: float = 0.95,
) -> Interval:
    """Interval of the corrected rate when the judge's tpr/tnr were measured on labelled sets.

    ``positives`` of ``n`` calls were flagged by the judge; on the labelled sets it flagged
    ``tp`` of ``positives_labelled`` true positives and passed ``tn`` of
    ``negatives_labelled`` true negatives. Lang & Reiczigel (2014) adjusted interval (formula
    in the module docstring), clamped to [0, 1].

    Raises ``ValueError`` for an empty sample or labelled set, counts out of range, a bad
    ``confidence``, or a judge no better than chance on the labelled sets (observed
    ``tpr + tnr <= 1``, where :func:`rogan_gladen` gives ``None``; or the same after the
    adjustment, which only very small labelled sets can cause).
    """
    _check_count(positives, n, "lang_reiczigel_interval sample")
    _check_count(tp, positives_labelled, "lang_reiczigel_interval labelled positives")
    _check_count(tn, negatives_labelled, "lang_reiczigel_interval labelled negatives")
    z = _z(confidence)
    z2 = z * z
    if tp / positives_labelled + tn / negatives_labelled - 1.0 <= 0.0:
        raise ValueError(
            "lang_reiczigel_interval: the judge is no better than chance on the labelled sets "
            f"(tpr {tp}/{positives_labelled} + tnr {tn}/{negatives_labelled} <= 1): "
            "the corrected rate is undefined"
        )
    n_adj = n + z2
    apparent = (positives + z2 / 2.0) / n_adj
    n_se = positives_labelled + 2.0
    sensitivity = (tp + 1.0) / n_se
    n_sp = negatives_labelled + 2.0
    specificity = (tn + 1.0) / n_sp
    youden = sensitivity + specificity - 1.0
    if youden <= 0.0:
        raise ValueError(
            "lang_reiczigel_interval: the labelled sets are too small to tell the judge from "
            f"chance (adjusted tpr + tnr = {sensitivity + specificity:.4f} <= 1)"
        )
    corrected = (apparent + specificity - 1.0) / youden
    se_term = sensitivity * (1.0 - sensitivity) / n_se
    sp_term = specificity * (1.0 - specificity) / n_sp
    variance = (
        apparent * (1.0 - apparent) / n_adj + corrected**2 * se_term + (1.0 - corrected) ** 2 * sp_term
    ) / youden**2
    shift = 2.0 * z2 * (corrected * se_term - (1.0 - corrected) * sp_term)
    halfwidth = z * math.sqrt(variance)
    centre = corrected + shift
    return min(1.0, max(0.0, centre - halfwidth)), min(1.0, max(0.0, centre + halfwidth))


def sample_size_per_group(
    rate_before: float,
    rate_after: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
) -> int:
    """Calls needed in each of two groups to detect ``rate_before`` vs ``rate_after``.

    Normal approximation, two-sided test at ``alpha`` with the given ``power``, no continuity
    correction (formula in the module docstring), rounded up. Raises ``ValueError`` when the
    rates are equal (no difference can be detected), a rate is outside [0, 1], or ``alpha`` /
    ``power`` is outside (0, 1).
    """
    _check_rate(rate_before, "rate_before")
    _check_rate(rate_after, "rate_after")
    if rate_before == rate_after:
        raise ValueError(f"sample_size_per_group: the rates are equal ({rate_before!r}); nothing to detect")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power!r}")
    z_alpha = _z(1.0 - alpha)
    z_power = _STANDARD_NORMAL.inv_cdf(power)
    mean_rate = (rate_before + rate_after) / 2.0
    null_spread = math.sqrt(2.0 * mean_rate * (1.0 - mean_rate))
    alternative_spread = math.sqrt(rate_before * (1.0 - rate_before) + rate_after * (1.0 - rate_after))
    difference = rate_after - rate_before
    n = (z_alpha * null_spread + z_power * alternative_spread) ** 2 / difference**2
    return max(1, math.ceil(n))


def change_verdict(interval: Interval, *, higher_is_better: bool = True) -> Verdict:
    """One word for an (after − before) interval, e.g. from :func:`newcombe_difference_interval`.

    The rule: "better" when the whole interval lies above 0 (lower > 0), "worse" when it lies
    below 0 (upper < 0), otherwise "no detectable change" (0 is inside, endpoints included: an
    interval touching 0 does not rule out no change). For a rate where lower is better (a
    failure rate) pass ``higher_is_better=False`` and the two words swap. "No detectable
    change" is not "no change": the samples may be too small (see :func:`sample_size_per_group`).
    """
    lower, upper = interval
    if not lower <= upper:  # also rejects NaN
        raise ValueError(f"change_verdict: not an interval: {interval!r}")
    if lower > 0.0:
        return "better" if higher_is_better else "worse"
    if upper < 0.0:
        return "worse" if higher_is_better else "better"
    return "no detectable change"
