"""diagnosis/distributions.py, board_stats.py and board_reading.py against scipy and the
``errorbars`` package (Miller 2024's error bars; tests only), and by simulation: the intervals
cover at their nominal rate (2,000 seeded runs each)."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest

from diagnosis.board_reading import read_board
from diagnosis.board_stats import (
    holm,
    is_pass_fail,
    mean_estimate,
    minimum_detectable_effect,
    paired_comparison,
)
from diagnosis.distributions import (
    binomial_cdf,
    mcnemar_exact_p,
    regularized_beta,
    student_t_quantile,
    student_t_two_sided_p,
)


@functools.cache
def scipy_stats() -> Any:
    import scipy.stats

    return scipy.stats


@functools.cache
def errorbars() -> Any:
    import errorbars.compare
    import errorbars.io
    import errorbars.leaderboard
    import errorbars.power
    import errorbars.stats

    return errorbars


# --- distributions against scipy ------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "x"), [(0.5, 0.5, 0.3), (2, 3, 0.9), (19.5, 0.5, 0.97), (200, 150, 0.55), (1, 1, 0.25), (0.2, 7, 0.01)]
)
def test_regularized_beta_is_scipys(a: float, b: float, x: float) -> None:
    import scipy.special

    assert regularized_beta(a, b, x) == pytest.approx(scipy.special.betainc(a, b, x), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("dof", [1, 2, 5, 9, 39, 120, 1000])
@pytest.mark.parametrize("t", [0.0, 0.3, 1.0, 2.0, 4.5, 12.0])
def test_t_p_value_is_scipys(t: float, dof: int) -> None:
    expected = 2 * scipy_stats().t.sf(t, dof)
    assert student_t_two_sided_p(t, dof) == pytest.approx(expected, rel=1e-9, abs=1e-15)
    assert student_t_two_sided_p(-t, dof) == pytest.approx(expected, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("dof", [1, 3, 9, 39, 500])
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_t_quantile_is_scipys(confidence: float, dof: int) -> None:
    assert student_t_quantile(confidence, dof) == pytest.approx(
        scipy_stats().t.ppf((1 + confidence) / 2, dof), rel=1e-9
    )


@pytest.mark.parametrize(("k", "n", "p"), [(0, 10, 0.5), (3, 10, 0.5), (12, 40, 0.3), (499, 1000, 0.5), (10, 10, 0.2)])
def test_binomial_cdf_is_scipys(k: int, n: int, p: float) -> None:
    assert binomial_cdf(k, n, p) == pytest.approx(scipy_stats().binom.cdf(k, n, p), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(("b", "c"), [(0, 0), (0, 5), (8, 4), (3, 17), (120, 95), (1, 1)])
def test_mcnemar_is_scipys_exact_binomial_test_and_errorbars(b: int, c: int) -> None:
    expected = 1.0 if b + c == 0 else scipy_stats().binomtest(b, b + c, 0.5).pvalue
    assert mcnemar_exact_p(b, c) == pytest.approx(expected, rel=1e-9)
    reference = errorbars().compare.mcnemar_exact([1] * b + [0] * c, [0] * b + [1] * c).p_value
    assert mcnemar_exact_p(b, c) == pytest.approx(reference, rel=1e-9)


# --- one model's mean -----------------------------------------------------------------------


def _scores(seed: int, n: int, binary: bool) -> list[float]:
    rng = np.random.default_rng(seed)
    values = rng.random(n) < 0.62 if binary else rng.beta(2, 3, n)
    return [float(v) for v in values]


def test_pass_fail_gets_wilson_as_errorbars_gives_it() -> None:
    scores = _scores(1, 40, binary=True)
    assert is_pass_fail(scores)
    estimate = mean_estimate(scores)
    assert estimate is not None and estimate.method == "wilson"
    reference = errorbars().stats.wilson_ci(int(sum(scores)), 40)
    assert estimate.interval == pytest.approx((reference.ci_low, reference.ci_high), abs=1e-12)
    assert estimate.mean == pytest.approx(reference.mean)


def test_continuous_scores_get_the_clt_interval_as_errorbars_and_scipy_give_it() -> None:
    scores = _scores(2, 60, binary=False)
    estimate = mean_estimate(scores)
    assert estimate is not None and estimate.method == "clt"
    reference = errorbars().stats.mean_ci_clt(scores)
    assert estimate.interval == pytest.approx((reference.ci_low, reference.ci_high), abs=1e-12)
    sem = scipy_stats().sem(scores)
    assert estimate.se == pytest.approx(sem, rel=1e-12)


def test_grouped_items_get_the_cluster_robust_interval_and_their_design_effect() -> None:
    rng = np.random.default_rng(3)
    groups = np.repeat(np.arange(12), 5)  # 12 evals of 5 items
    difficulty = rng.normal(0, 0.25, 12)[groups]
    scores = [float(v) for v in np.clip(0.5 + difficulty + rng.normal(0, 0.1, 60), 0, 1)]
    labels = [f"eval-{g}" for g in groups]
    estimate = mean_estimate(scores, labels)
    assert estimate is not None and estimate.method == "clustered" and estimate.clusters == 12
    reference_se = errorbars().stats.cluster_robust_se(scores, labels)
    assert estimate.se == pytest.approx(reference_se, rel=1e-12)
    half = scipy_stats().t.ppf(0.975, 11) * reference_se
    assert estimate.interval == pytest.approx((np.mean(scores) - half, np.mean(scores) + half), abs=1e-9)
    iid_variance = np.var(scores, ddof=1) / 60
    assert estimate.design_effect == pytest.approx(reference_se**2 / iid_variance, rel=1e-12)
    assert estimate.design_effect > 2  # items of one eval move together: fewer effective items


def test_groups_of_one_item_are_not_groups() -> None:
    scores = _scores(4, 30, binary=True)
    assert mean_estimate(scores, [f"eval-{i}" for i in range(30)]).method == "wilson"  # type: ignore[union-attr]


def test_no_scores_no_interval_and_bad_scores_refused() -> None:
    assert mean_estimate([]) is None
    assert mean_estimate([0.4]) is None  # one 0-1 score: no spread, no interval
    assert mean_estimate([1.0]).method == "wilson"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="finite"):
        mean_estimate([0.5, float("nan")])


# --- paired ---------------------------------------------------------------------------------


def test_paired_t_is_scipys_ttest_rel_and_errorbars() -> None:
    a = _scores(5, 50, binary=False)
    rng = np.random.default_rng(6)
    b = [float(min(1, max(0, x - 0.04 + rng.normal(0, 0.08)))) for x in a]
    comparison = paired_comparison(a, b)
    assert comparison is not None and comparison.test == "paired t"
    reference = scipy_stats().ttest_rel(a, b)
    assert comparison.p_value == pytest.approx(reference.pvalue, rel=1e-9)
    low, high = reference.confidence_interval(0.95)
    assert comparison.interval == pytest.approx((low, high), rel=1e-9)
    other = errorbars().compare.paired_compare(a, b)
    assert comparison.se == pytest.approx(other.se_paired, rel=1e-12)


def test_pass_fail_pairs_get_exact_mcnemar() -> None:
    a = _scores(7, 80, binary=True)
    b = _scores(8, 80, binary=True)
    comparison = paired_comparison(a, b)
    assert comparison is not None and comparison.test == "exact McNemar"
    reference = errorbars().compare.paired_compare(a, b).mcnemar
    assert comparison.discordant == (reference.n10, reference.n01)
    assert comparison.p_value == pytest.approx(reference.p_value, rel=1e-9)


def test_clustered_paired_difference_is_errorbars() -> None:
    rng = np.random.default_rng(9)
    groups = np.repeat(np.arange(10), 4)
    a = [float(v) for v in np.clip(0.6 + rng.normal(0, 0.2, 10)[groups] + rng.normal(0, 0.1, 40), 0, 1)]
    b = [float(v) for v in np.clip(np.array(a) - 0.05 + rng.normal(0, 0.1, 10)[groups], 0, 1)]
    comparison = paired_comparison(a, b, list(groups))
    assert comparison is not None and comparison.test == "clustered paired t" and comparison.clusters == 10
    reference = errorbars().compare.paired_compare(a, b, clusters=list(groups))
    assert comparison.se == pytest.approx(reference.se_clustered, rel=1e-12)
    assert comparison.p_value == pytest.approx(reference.p_value_clustered, rel=1e-9)
    assert comparison.interval == pytest.approx((reference.ci_low_clustered, reference.ci_high_clustered), rel=1e-9)


def test_identical_and_constant_differences() -> None:
    same = paired_comparison([0.3, 0.5, 0.7], [0.3, 0.5, 0.7])
    assert same is not None and same.p_value == 1.0 and same.interval == (0.0, 0.0)
    ahead = paired_comparison([0.5, 0.75, 1.0], [0.25, 0.5, 0.75])
    assert ahead is not None and ahead.p_value == 0.0
    assert paired_comparison([1.0], [0.0]) is None
    with pytest.raises(ValueError, match="length"):
        paired_comparison([1.0, 0.0], [0.0])


# --- Holm, MDE ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "p_values", [[0.01, 0.04, 0.03, 0.005], [0.2, 0.2, 0.01], [0.5], [], [0.001, 0.9, 0.04, 0.04, 0.3]]
)
def test_holm_is_errorbars_and_the_step_down_rule(p_values: list[float]) -> None:
    assert holm(p_values) == pytest.approx(errorbars().leaderboard.holm_correction(p_values))
    m = len(p_values)
    for i, p in enumerate(p_values):  # the definition, written out: max over the smaller ones
        ordered = sorted(p_values)
        rank = sorted(range(m), key=lambda j: p_values[j]).index(i)
        expected = max(min(1.0, (m - k) * ordered[k]) for k in range(rank + 1))
        assert holm(p_values)[i] == pytest.approx(expected)
        assert holm(p_values)[i] >= p


def test_mde_is_errorbars_for_the_same_design() -> None:
    variance_of_difference = 0.18
    for n in (40, 200, 1000):
        ours = minimum_detectable_effect(math.sqrt(variance_of_difference / n))
        theirs = errorbars().power.minimum_detectable_effect(n, variance=variance_of_difference / 2)
        assert ours == pytest.approx(theirs, rel=1e-12)
    # errorbars' README: 500 questions at 50 %, unpaired: about 8.9 points.
    assert minimum_detectable_effect(math.sqrt(2 * 0.25 / 500)) == pytest.approx(0.0886, abs=5e-4)


# --- the board ------------------------------------------------------------------------------


def _board_scores(
    seed: int, rates: dict[str, float], items: int, *, binary: bool = True
) -> dict[str, dict[str, float]]:
    """Each model's scores on shared items of varied difficulty: pass/fail, or the pass
    probability itself plus noise (a 0-1 graded score)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0, 1.0, items)
    board = {}
    for model, rate in rates.items():
        chance = 1 / (1 + np.exp(-(math.log(rate / (1 - rate)) + difficulty)))
        values = rng.random(items) < chance if binary else np.clip(chance + rng.normal(0, 0.15, items), 0, 1)
        board[model] = {f"item-{i}": float(v) for i, v in enumerate(values)}
    return board


def test_board_tiers_match_errorbars_groups_and_holm() -> None:
    scores = _board_scores(11, {"alpha": 0.8, "bravo": 0.78, "charlie": 0.45, "delta": 0.43}, 120, binary=False)
    board = read_board(scores)
    assert [e.model for e in board.entries][:1] == ["alpha"]
    assert [sorted(t) for t in board.to_json()["tiers"]] == [["alpha", "bravo"], ["charlie", "delta"]]
    reference = errorbars()
    rows = [(m, item, s) for m, by_item in scores.items() for item, s in by_item.items()]
    data = reference.io.EvalData(
        model=[r[0] for r in rows], question_id=[r[1] for r in rows], score=[r[2] for r in rows]
    )
    theirs = reference.leaderboard.build_leaderboard(data, use_wilson_below_n=10**9)
    ours = {frozenset((p.a, p.b)): p.p_holm for p in board.pairs}
    for pair in theirs.pairwise:
        assert ours[frozenset((pair.model_a, pair.model_b))] == pytest.approx(pair.p_holm, rel=1e-9)
    assert sorted(sorted(g) for g in theirs.groups) == [["alpha", "bravo"], ["charlie", "delta"]]
    assert board.mde is not None and 0.05 < board.mde < 0.25 and board.mde_items == 120


def test_a_lead_on_forty_items_is_a_tie_within_noise() -> None:
    scores = _board_scores(12, {"leader": 0.7, "close": 0.66, "far": 0.2}, 40)
    board = read_board(scores)
    tiers = board.to_json()["tiers"]
    assert tiers[0] == ["leader", "close"] or tiers[0] == ["close", "leader"]
    assert tiers[1] == ["far"]


def test_averages_only_models_get_no_interval_and_no_tier() -> None:
    scores = _board_scores(13, {"a": 0.7, "b": 0.5}, 30)
    board = read_board({**scores, "c": {}}, averages={"d": 0.9, "e": None})
    by_model = {e.model: e for e in board.entries}
    assert by_model["d"].estimate is None and by_model["d"].tier is None and by_model["d"].mean == 0.9
    assert by_model["e"].mean is None and by_model["c"].estimate is None
    assert [e.model for e in board.entries][2:] == ["d", "e", "c"] or [e.model for e in board.entries][2:] == [
        "d",
        "c",
        "e",
    ]
    assert board.averages_only == ["d", "e"]


def test_one_model_has_no_mde_and_empty_board_reads() -> None:
    assert read_board({}).entries == [] and read_board({}).mde is None
    board = read_board({"solo": {"x": 1.0, "y": 0.0}})
    assert board.entries[0].tier == 1 and board.mde is None and board.pairs == []


# --- coverage by simulation (2,000 seeded runs each) ----------------------------------------


RUNS = 2000


def _coverage(hits: int) -> float:
    return hits / RUNS


def test_wilson_covers_at_its_nominal_rate() -> None:
    rng = np.random.default_rng(20)
    true = 0.3
    hits = 0
    for x in rng.binomial(40, true, RUNS):
        low, high = mean_estimate([1.0] * int(x) + [0.0] * (40 - int(x))).interval  # type: ignore[union-attr]
        hits += low <= true <= high
    assert 0.93 <= _coverage(hits) <= 0.975, _coverage(hits)


def test_clt_covers_at_its_nominal_rate() -> None:
    rng = np.random.default_rng(21)
    true = 2 / 5
    samples = rng.beta(2, 3, (RUNS, 60))
    hits = sum(e.interval[0] <= true <= e.interval[1] for e in (mean_estimate(list(row)) for row in samples) if e)
    assert 0.93 <= _coverage(hits) <= 0.97, _coverage(hits)


def test_clustered_covers_where_the_plain_interval_does_not() -> None:
    rng = np.random.default_rng(22)
    labels = list(np.repeat(np.arange(30), 6))
    clustered = naive = 0
    for _ in range(RUNS):
        scores = np.clip(0.5 + rng.normal(0, 0.2, 30)[labels] + rng.normal(0, 0.1, 180), 0, 1)
        true = 0.5  # symmetric around 0.5, clipping included
        estimate = mean_estimate(list(scores), labels)
        plain = mean_estimate(list(scores))
        clustered += estimate.interval[0] <= true <= estimate.interval[1]  # type: ignore[union-attr]
        naive += plain.interval[0] <= true <= plain.interval[1]  # type: ignore[union-attr]
    assert 0.93 <= _coverage(clustered) <= 0.97, _coverage(clustered)
    assert _coverage(naive) < 0.8, _coverage(naive)


def test_paired_interval_covers_at_its_nominal_rate() -> None:
    rng = np.random.default_rng(23)
    true = 0.1 * 0.6 - 0.1 * 0.5  # E[a − b] with b = 0.9 a + 0.1 Beta(2, 2), a ~ Beta(3, 2)
    hits = 0
    for _ in range(RUNS):
        a = rng.beta(3, 2, 40)
        b = 0.9 * a + 0.1 * rng.beta(2, 2, 40)
        comparison = paired_comparison(list(a), list(b))
        hits += comparison.interval[0] <= true <= comparison.interval[1]  # type: ignore[union-attr]
    assert 0.93 <= _coverage(hits) <= 0.97, _coverage(hits)


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2"), [(924, 2000, 880, 2000), (5, 40, 12, 45), (0, 30, 3, 30), (10, 10, 7, 10)]
)
def test_two_proportion_p_is_scipys_chi_square_without_correction(x1: int, n1: int, x2: int, n2: int) -> None:
    from diagnosis.board_stats import two_proportion_p

    table = [[x1, n1 - x1], [x2, n2 - x2]]
    expected = scipy_stats().chi2_contingency(table, correction=False).pvalue
    assert two_proportion_p(x1, n1, x2, n2) == pytest.approx(expected, rel=1e-9)


def test_two_proportion_mde_is_errorbars_unpaired_at_the_pooled_rate() -> None:
    from diagnosis.board_stats import two_proportion_mde

    ours = two_proportion_mde(250, 500, 250, 500)
    assert ours == pytest.approx(errorbars().power.minimum_detectable_effect(500, baseline_accuracy=0.5), rel=1e-12)
    assert two_proportion_mde(0, 10, 0, 10) is None
