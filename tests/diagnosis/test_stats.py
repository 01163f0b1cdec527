"""diagnosis/stats.py against published worked examples, scipy (tests only), formulas written
out independently here, and properties every interval must have."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagnosis.stats import (
    CorrectedRate,
    change_verdict,
    lang_reiczigel_interval,
    newcombe_difference_interval,
    rogan_gladen,
    rogan_gladen_detail,
    sample_size_per_group,
    wilson_interval,
)

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile, as published (checked against scipy below)."""


@functools.cache
def scipy_stats() -> Any:
    """scipy.stats, the reference, imported by the tests that use it rather than at collection:
    every xdist worker collects this file (~1.5 s of CPU each for the import), one runs it."""
    import scipy.stats

    return scipy.stats


def test_z95_is_scipys() -> None:
    assert scipy_stats().norm.ppf(0.975) == pytest.approx(Z95, abs=1e-15)


def rounded(interval: tuple[float, float], digits: int = 4) -> tuple[float, float]:
    return round(interval[0], digits), round(interval[1], digits)


# --- Wilson ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "published"),
    [  # Newcombe (1998a), Stat Med 17:857, Table I, method 3 (score, no continuity correction)
        (81, 263, (0.2553, 0.3662)),
        (15, 148, (0.0624, 0.1605)),
        (0, 20, (0.0, 0.1611)),
        (1, 29, (0.0061, 0.1718)),
    ],
)
def test_wilson_matches_newcombe_1998_table(successes: int, n: int, published: tuple[float, float]) -> None:
    assert rounded(wilson_interval(successes, n)) == published


@settings(max_examples=200)
@given(
    n=st.integers(min_value=1, max_value=5000),
    fraction=st.floats(min_value=0, max_value=1),
    confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99, 0.999]),
)
def test_wilson_matches_scipy(n: int, fraction: float, confidence: float) -> None:
    successes = round(fraction * n)
    reference = scipy_stats().binomtest(successes, n).proportion_ci(confidence_level=confidence, method="wilson")
    lower, upper = wilson_interval(successes, n, confidence)
    assert lower == pytest.approx(reference.low, abs=1e-12)
    assert upper == pytest.approx(reference.high, abs=1e-12)


def test_wilson_at_zero_and_all_successes_reaches_the_bound_exactly() -> None:
    assert wilson_interval(0, 7)[0] == 0.0
    assert wilson_interval(7, 7)[1] == 1.0
    assert wilson_interval(0, 1) == pytest.approx((0.0, 0.79345), abs=1e-5)
    assert wilson_interval(1, 1) == pytest.approx((0.20655, 1.0), abs=1e-5)


def test_a_tie_counts_one_half() -> None:
    """3 wins and 1 tie of 5 games: 3.5 successes, between 3 and 4 of 5, by the same formula."""
    lower, upper = wilson_interval(3.5, 5)
    p, n, z = 0.7, 5, Z95
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    assert (lower, upper) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert wilson_interval(3, 5)[0] < lower < wilson_interval(4, 5)[0]
    assert wilson_interval(3, 5)[1] < upper < wilson_interval(4, 5)[1]
    tie_lower, tie_upper = wilson_interval(2.5, 5)  # all ties: symmetric about one half
    assert tie_lower == pytest.approx(1 - tie_upper, abs=1e-12)


@given(n=st.integers(min_value=1, max_value=10_000), data=st.data())
def test_wilson_properties(n: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(min_value=0, max_value=2 * n)) / 2  # ties allowed
    lower, upper = wilson_interval(successes, n)
    assert 0.0 <= lower <= successes / n <= upper <= 1.0
    mirror_lower, mirror_upper = wilson_interval(n - successes, n)  # swap successes, failures
    assert mirror_lower == pytest.approx(1 - upper, abs=1e-12)
    assert mirror_upper == pytest.approx(1 - lower, abs=1e-12)
    factor = data.draw(st.integers(min_value=2, max_value=50))
    wider_lower, wider_upper = wilson_interval(successes * factor, n * factor)
    assert wider_upper - wider_lower < upper - lower  # same rate, more trials: narrower


@pytest.mark.parametrize("n", [0, -3, float("nan")])
def test_wilson_without_trials_raises(n: float) -> None:
    with pytest.raises(ValueError, match="no trials"):
        wilson_interval(0, n)  # type: ignore[arg-type]


@pytest.mark.parametrize("successes", [-1, 11, 10.5, float("nan")])
def test_wilson_successes_out_of_range_raise(successes: float) -> None:
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(successes, 10)


@pytest.mark.parametrize("confidence", [0.0, 1.0, -0.5, 1.5, 95, float("nan")])
def test_confidence_outside_zero_one_raises(confidence: float) -> None:
    with pytest.raises(ValueError, match="confidence"):
        wilson_interval(3, 10, confidence)
    with pytest.raises(ValueError, match="confidence"):
        newcombe_difference_interval(3, 10, 4, 10, confidence)
    with pytest.raises(ValueError, match="confidence"):
        lang_reiczigel_interval(3, 10, 9, 10, 9, 10, confidence)


# --- Newcombe -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "before", "difference", "published"),
    [  # Newcombe (1998b), Stat Med 17:873, Table II, method 10 (hybrid score, no CC)
        ((56, 70), (48, 80), 0.2, (0.0524, 0.3339)),
        ((9, 10), (3, 10), 0.6, (0.1705, 0.8090)),
        ((6, 7), (2, 7), 4 / 7, (0.0582, 0.8062)),
        ((5, 56), (0, 29), 5 / 56, (-0.0381, 0.1926)),
        ((0, 10), (0, 20), 0.0, (-0.1611, 0.2775)),
        ((0, 10), (0, 10), 0.0, (-0.2775, 0.2775)),
        ((10, 10), (0, 20), 1.0, (0.6791, 1.0)),
        ((10, 10), (0, 10), 1.0, (0.6075, 1.0)),
    ],
)
def test_newcombe_matches_newcombe_1998_table(
    after: tuple[int, int], before: tuple[int, int], difference: float, published: tuple[float, float]
) -> None:
    assert after[0] / after[1] - before[0] / before[1] == pytest.approx(difference)
    assert rounded(newcombe_difference_interval(*after, *before)) == published


counts = st.integers(min_value=1, max_value=2000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=2 * n).map(lambda h: h / 2), st.just(n))
)


@given(after=counts, before=counts, confidence=st.sampled_from([0.9, 0.95, 0.99]))
def test_newcombe_properties(after: tuple[float, int], before: tuple[float, int], confidence: float) -> None:
    lower, upper = newcombe_difference_interval(*after, *before, confidence)
    p_after, p_before = after[0] / after[1], before[0] / before[1]
    assert -1.0 <= lower <= p_after - p_before <= upper <= 1.0
    swapped = newcombe_difference_interval(*before, *after, confidence)
    assert swapped == pytest.approx((-upper, -lower), abs=1e-12)
    # The same limits written the other way: distances from each rate to its Wilson limits.
    l_after, u_after = wilson_interval(*after, confidence)
    l_before, u_before = wilson_interval(*before, confidence)
    theta = p_after - p_before
    assert lower == pytest.approx(max(-1.0, theta - math.hypot(p_after - l_after, u_before - p_before)), abs=1e-9)
    assert upper == pytest.approx(min(1.0, theta + math.hypot(u_after - p_after, p_before - l_before)), abs=1e-9)


def test_newcombe_with_an_empty_group_raises() -> None:
    with pytest.raises(ValueError, match="no trials"):
        newcombe_difference_interval(3, 10, 0, 0)
    with pytest.raises(ValueError, match="no trials"):
        newcombe_difference_interval(0, 0, 3, 10)


# --- verdict --------------------------------------------------------------------------------


def test_verdict_from_newcombe_examples() -> None:
    assert change_verdict(newcombe_difference_interval(56, 70, 48, 80)) == "better"
    assert change_verdict(newcombe_difference_interval(48, 80, 56, 70)) == "worse"
    assert change_verdict(newcombe_difference_interval(5, 56, 0, 29)) == "no detectable change"
    # A failure rate that went up by this much is worse, not better.
    assert change_verdict(newcombe_difference_interval(56, 70, 48, 80), higher_is_better=False) == "worse"
    assert change_verdict(newcombe_difference_interval(48, 80, 56, 70), higher_is_better=False) == "better"


@pytest.mark.parametrize(
    ("interval", "word"),
    [
        ((0.01, 0.2), "better"),
        ((-0.2, -0.01), "worse"),
        ((-0.1, 0.1), "no detectable change"),
        ((0.0, 0.3), "no detectable change"),  # touching 0 does not rule out no change
        ((-0.3, 0.0), "no detectable change"),
        ((0.0, 0.0), "no detectable change"),
    ],
)
def test_verdict_rule(interval: tuple[float, float], word: str) -> None:
    assert change_verdict(interval) == word


@pytest.mark.parametrize("interval", [(0.2, 0.1), (float("nan"), 0.1)])
def test_verdict_refuses_a_non_interval(interval: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="not an interval"):
        change_verdict(interval)


# --- Rogan-Gladen ---------------------------------------------------------------------------


def test_rogan_gladen_worked_example() -> None:
    """epiR's epi.prev example: 23 of 150 positive, Se 0.96, Sp 0.89 -> 5.1 per 100."""
    corrected = rogan_gladen(23 / 150, 0.96, 0.89)
    assert corrected is not None
    assert round(corrected * 100, 1) == 5.1
    assert corrected == pytest.approx((23 / 150 - 0.11) / 0.85)
    assert rogan_gladen_detail(23 / 150, 0.96, 0.89) == CorrectedRate(corrected, corrected, False)


def test_rogan_gladen_says_when_it_clamped() -> None:
    below = rogan_gladen_detail(0.05, 0.9, 0.9)  # fewer flags than false positives alone give
    assert below is not None and below.clamped and below.value == 0.0
    assert below.raw == pytest.approx((0.05 - 0.1) / 0.8)
    above = rogan_gladen_detail(0.95, 0.9, 0.9)  # more flags than the judge could find
    assert above is not None and above.clamped and above.value == 1.0
    assert above.raw == pytest.approx(0.85 / 0.8)
    assert rogan_gladen(0.95, 0.9, 0.9) == 1.0
    at_edge = rogan_gladen_detail(0.1, 0.9, 0.9)  # exactly the false-positive rate: 0, not clamped
    assert at_edge is not None and not at_edge.clamped and at_edge.value == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(("tpr", "tnr"), [(0.5, 0.5), (0.4, 0.3), (0.0, 1.0), (0.0, 0.0)])
def test_rogan_gladen_for_a_judge_no_better_than_chance_is_none(tpr: float, tnr: float) -> None:
    assert rogan_gladen(0.3, tpr, tnr) is None
    assert rogan_gladen_detail(0.3, tpr, tnr) is None


@pytest.mark.parametrize(("observed", "tpr", "tnr"), [(1.2, 0.9, 0.9), (0.3, -0.1, 0.9), (0.3, 0.9, float("nan"))])
def test_rogan_gladen_refuses_rates_outside_zero_one(observed: float, tpr: float, tnr: float) -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        rogan_gladen(observed, tpr, tnr)


@given(
    true_rate=st.floats(min_value=0, max_value=1),
    tpr=st.floats(min_value=0, max_value=1),
    tnr=st.floats(min_value=0, max_value=1),
)
def test_rogan_gladen_recovers_the_true_rate_from_the_expected_observed_rate(
    true_rate: float, tpr: float, tnr: float
) -> None:
    observed = true_rate * tpr + (1 - true_rate) * (1 - tnr)
    detail = rogan_gladen_detail(observed, tpr, tnr)
    if tpr + tnr - 1 <= 0:
        assert detail is None
        return
    assert detail is not None
    if tpr + tnr - 1 > 1e-3:  # far enough from a coin that rounding cannot matter
        assert detail.value == pytest.approx(true_rate, abs=1e-9)
        assert not detail.clamped
    assert 0.0 <= detail.value <= 1.0
    assert detail.clamped == (not 0.0 <= detail.raw <= 1.0 and abs(detail.raw - detail.value) > 1e-12)


def test_a_perfect_judge_corrects_nothing() -> None:
    assert rogan_gladen(0.37, 1.0, 1.0) == 0.37


# --- Lang-Reiczigel -------------------------------------------------------------------------


def lang_reiczigel_by_hand(
    apparent: float, n: int, se: float, n_se: int, sp: float, n_sp: int, z: float
) -> tuple[float, float]:
    """Lang & Reiczigel (2014) eqs 4, 6, 7, 16, 17, in rates (the paper's notation), by hand."""
    n_ = n + z**2
    ap_ = (n * apparent + z**2 / 2) / n_
    se_ = (n_se * se + 1) / (n_se + 2)
    sp_ = (n_sp * sp + 1) / (n_sp + 2)
    p_ = (ap_ + sp_ - 1) / (se_ + sp_ - 1)
    var = (
        ap_ * (1 - ap_) / n_ + p_**2 * se_ * (1 - se_) / (n_se + 2) + (1 - p_) ** 2 * sp_ * (1 - sp_) / (n_sp + 2)
    ) / (se_ + sp_ - 1) ** 2
    shift = 2 * z**2 * (p_ * se_ * (1 - se_) / (n_se + 2) - (1 - p_) * sp_ * (1 - sp_) / (n_sp + 2))
    return p_ + shift - z * math.sqrt(var), p_ + shift + z * math.sqrt(var)


def test_lang_reiczigel_worked_example() -> None:
    """40 of 200 calls flagged; the judge caught 45 of 50 labelled failures and passed 95 of 100
    labelled good calls. Step by step: AP' = 41.92/203.84, Se' = 46/52, Sp' = 96/102."""
    lower, upper = lang_reiczigel_interval(40, 200, 45, 50, 95, 100)
    z2 = Z95**2
    ap_, se_, sp_ = (40 + z2 / 2) / (200 + z2), 46 / 52, 96 / 102
    assert ap_ == pytest.approx(0.205654, abs=1e-6)
    p_ = (ap_ + sp_ - 1) / (se_ + sp_ - 1)
    assert p_ == pytest.approx(0.177805, abs=1e-6)  # Rogan-Gladen on the raw rates: 0.176471
    assert rogan_gladen(40 / 200, 45 / 50, 95 / 100) == pytest.approx(0.15 / 0.85)
    assert (lower, upper) == pytest.approx(lang_reiczigel_by_hand(0.2, 200, 0.9, 50, 0.95, 100, Z95), abs=1e-12)
    assert rounded((lower, upper)) == (0.0938, 0.2603)


def test_lang_reiczigel_with_a_perfect_judge_on_huge_labelled_sets_is_agresti_coull() -> None:
    """Nothing to correct and nothing uncertain about the judge: the raw rate's adjusted Wald
    (Agresti-Coull) interval, which is what the adjustment is built on."""
    huge = 10**9
    x, n = 12, 80
    n_ = n + Z95**2
    p_ = (x + Z95**2 / 2) / n_
    half = Z95 * math.sqrt(p_ * (1 - p_) / n_)
    assert lang_reiczigel_interval(x, n, huge, huge, huge, huge) == pytest.approx((p_ - half, p_ + half), abs=1e-6)


def test_lang_reiczigel_with_a_known_judge_is_the_transformed_sample_interval() -> None:
    """Se and Sp measured on huge labelled sets: the sample's Agresti-Coull limits through the
    Rogan-Gladen line (the judge adds no width of its own)."""
    huge = 10**9
    x, n, se, sp = 50, 300, 0.8, 0.9
    n_ = n + Z95**2
    p_ = (x + Z95**2 / 2) / n_
    half = Z95 * math.sqrt(p_ * (1 - p_) / n_)
    expected = ((p_ - half + sp - 1) / (se + sp - 1), (p_ + half + sp - 1) / (se + sp - 1))
    got = lang_reiczigel_interval(x, n, round(se * huge), huge, round(sp * huge), huge)
    assert got == pytest.approx(expected, abs=1e-6)
    # Measuring the judge on only 40 + 40 labelled calls must widen it.
    small = lang_reiczigel_interval(x, n, 32, 40, 36, 40)
    assert small[1] - small[0] > got[1] - got[0]


def test_lang_reiczigel_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    """The paper's claim, checked by simulation with a fixed seed (deterministic)."""
    rng = np.random.default_rng(20141)
    true_rate, se, sp = 0.15, 0.85, 0.92
    n, n_se, n_sp, runs = 300, 60, 120, 4000
    flagged = rng.binomial(n, true_rate * se + (1 - true_rate) * (1 - sp), runs)
    tps = rng.binomial(n_se, se, runs)
    tns = rng.binomial(n_sp, sp, runs)
    covered = 0
    for positives, tp, tn in zip(flagged, tps, tns, strict=True):
        lower, upper = lang_reiczigel_interval(int(positives), n, int(tp), n_se, int(tn), n_sp)
        covered += lower <= true_rate <= upper
    assert 0.93 <= covered / runs <= 0.97


@given(
    n=st.integers(min_value=1, max_value=3000),
    n_se=st.integers(min_value=1, max_value=500),
    n_sp=st.integers(min_value=1, max_value=500),
    data=st.data(),
)
def test_lang_reiczigel_bounds_stay_in_zero_one(n: int, n_se: int, n_sp: int, data: st.DataObject) -> None:
    positives = data.draw(st.integers(min_value=0, max_value=n))
    tp = data.draw(st.integers(min_value=0, max_value=n_se))
    tn = data.draw(st.integers(min_value=0, max_value=n_sp))
    try:
        lower, upper = lang_reiczigel_interval(positives, n, tp, n_se, tn, n_sp)
    except ValueError as error:
        assert "chance" in str(error)
        assert tp / n_se + tn / n_sp <= 1 or (tp + 1) / (n_se + 2) + (tn + 1) / (n_sp + 2) <= 1
        return
    assert 0.0 <= lower <= upper <= 1.0


def test_lang_reiczigel_clamps_to_zero_one() -> None:
    assert lang_reiczigel_interval(0, 100, 90, 100, 90, 100)[0] == 0.0
    assert lang_reiczigel_interval(100, 100, 90, 100, 90, 100)[1] == 1.0


def test_lang_reiczigel_refuses_a_judge_no_better_than_chance() -> None:
    with pytest.raises(ValueError, match="no better than chance"):
        lang_reiczigel_interval(30, 100, 50, 100, 50, 100)
    assert rogan_gladen(0.3, 0.5, 0.5) is None  # the same case, said the same way
    # Better than chance as measured, but two labelled positives cannot show it.
    with pytest.raises(ValueError, match="too small"):
        lang_reiczigel_interval(30, 100, 2, 2, 100, 1000)


@pytest.mark.parametrize(
    "args",
    [
        (0, 0, 9, 10, 9, 10),  # empty sample
        (3, 10, 0, 0, 9, 10),  # no labelled positives
        (3, 10, 9, 10, 0, 0),  # no labelled negatives
        (11, 10, 9, 10, 9, 10),
        (3, 10, 11, 10, 9, 10),
        (3, 10, 9, 10, -1, 10),
    ],
)
def test_lang_reiczigel_refuses_impossible_counts(args: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="lang_reiczigel_interval"):
        lang_reiczigel_interval(*args)


# --- sample size ----------------------------------------------------------------------------


def approximate_power(p1: float, p2: float, n: int, alpha: float = 0.05) -> float:
    """Power of the two-sided pooled z test at n per group (normal approximation, one tail)."""
    mean = (p1 + p2) / 2
    norm = scipy_stats().norm
    return float(
        norm.cdf(
            (abs(p1 - p2) * math.sqrt(n) - norm.ppf(1 - alpha / 2) * math.sqrt(2 * mean * (1 - mean)))
            / math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
        )
    )


def test_sample_size_worked_example() -> None:
    """65 % vs 85 %: (1.96·√(2·0.75·0.25) + 0.8416·√(0.2275 + 0.1275))² / 0.2² = 72.4 -> 73."""
    assert sample_size_per_group(0.65, 0.85) == 73
    assert sample_size_per_group(0.85, 0.65) == 73


@given(
    p1=st.floats(min_value=0.01, max_value=0.99),
    p2=st.floats(min_value=0.01, max_value=0.99),
    power=st.sampled_from([0.8, 0.9]),
    alpha=st.sampled_from([0.05, 0.01]),
)
def test_sample_size_is_the_smallest_with_the_power_asked(p1: float, p2: float, power: float, alpha: float) -> None:
    if abs(p1 - p2) < 0.01:
        return
    n = sample_size_per_group(p1, p2, alpha=alpha, power=power)
    assert approximate_power(p1, p2, n, alpha) >= power - 1e-9
    if n > 1:
        assert approximate_power(p1, p2, n - 1, alpha) < power


def test_sample_size_grows_as_the_difference_shrinks() -> None:
    sizes = [sample_size_per_group(0.5, 0.5 + d) for d in (0.3, 0.2, 0.1, 0.05, 0.02)]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert sample_size_per_group(0.0, 1.0) == 2  # (1.96·√0.5)² = 1.92


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rate_before": 0.3, "rate_after": 0.3}, "equal"),
        ({"rate_before": -0.1, "rate_after": 0.3}, "between 0 and 1"),
        ({"rate_before": 0.3, "rate_after": 0.5, "alpha": 0.0}, "alpha"),
        ({"rate_before": 0.3, "rate_after": 0.5, "power": 1.0}, "power"),
    ],
)
def test_sample_size_refuses_what_it_cannot_answer(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sample_size_per_group(**kwargs)
