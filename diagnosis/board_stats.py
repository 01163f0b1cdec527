"""Error bars for a board of models scored on shared items (Miller 2024, "Adding Error Bars to
Evals", arXiv 2411.00640): one model's mean with its interval, two models paired on the items
both answered, Holm's correction across a board, and the smallest difference a board can see.

Pure and standard library only, like ``diagnosis.stats`` (whose Wilson interval this uses).
Scores are the platform's 0-1 scores; ``confidence`` is the two-sided level (0.95).

**One model's mean** (:func:`mean_estimate`), ``n`` items with scores ``x_i``, mean ``x̄``,
sample sd ``s`` (``n − 1``):

- pass/fail scores (every score 0 or 1) not in groups: the Wilson interval of ``Σx / n``;
- other 0-1 scores: the CLT interval ``x̄ ± z · s/√n``;
- items in groups (several items of one eval or task, or repeated samples of one item: any
  group holding more than one item): the cluster-robust standard error (CR1, as statsmodels'
  ``cov_type="cluster"`` on a constant) over ``G`` groups,
  ``SE² = G/(G − 1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / n²``, and ``x̄ ± t_{G−1} · SE`` (Student t
  with ``G − 1`` degrees of freedom, Cameron & Miller 2015). Its **design effect** is
  ``SE² / (s²/n)``: how many times the variance is what independent items would give (the
  effective number of items is ``n / deff``). One group only: no between-group spread can be
  seen, the plain CLT interval is given and ``clusters`` says 1.

Intervals of a mean are clamped to [0, 1] (a score cannot leave it).

**Two models paired** (:func:`paired_comparison`) on the items both answered, ``d_i = a_i − b_i``:
the mean difference with ``d̄ ± t_{n−1} · sd(d)/√n`` and the paired t p-value; with groups the
cluster-robust SE of ``d`` and ``t_{G−1}``; when both models' scores are pass/fail the p-value
is McNemar's exact test on the discordant items (the interval stays the paired t one). All
differences equal: p = 1 when they are 0, 0 otherwise (the limit of the t statistic).

**Holm** (:func:`holm`): sort the ``m`` p-values, ``p̃_(k) = max_{j≤k} min(1, (m − j + 1) p_(j))``.

**Two independent rates** (:func:`two_proportion_p`, the checkpoint comparison's rows: different
calls on each side, nothing to pair): the pooled two-proportion z test,
``z = (p₁ − p₂) / √(p̄(1 − p̄)(1/n₁ + 1/n₂))``, two-sided (as scipy's ``chi2_contingency``
without continuity correction); its minimum detectable effect at the pooled rate is
:func:`two_proportion_mde` ``(z_{1−alpha/2} + z_{power}) √(p̄(1 − p̄)(1/n₁ + 1/n₂))``.

**Minimum detectable effect** (:func:`minimum_detectable_effect`): the true paired difference
a two-sided test at ``alpha`` finds with probability ``power``, given the standard error of a
paired difference: ``MDE = (z_{1−alpha/2} + z_{power}) · SE``; for ``n`` items with difference
variance ``σ²_d`` and design effect ``deff``, ``SE = √(σ²_d · deff / n)`` (errorbars'
``minimum_detectable_effect`` with ``variance = σ²_d / 2``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean
from typing import Any, Literal

from diagnosis.distributions import (
    mcnemar_exact_p,
    student_t_quantile,
    student_t_two_sided_p,
)
from diagnosis.stats import Interval, wilson_interval

__all__ = [
    "MeanEstimate",
    "PairedComparison",
    "cluster_robust_se",
    "holm",
    "is_pass_fail",
    "mean_estimate",
    "minimum_detectable_effect",
    "paired_comparison",
    "two_proportion_mde",
    "two_proportion_p",
]

MeanMethod = Literal["wilson", "clt", "clustered"]
PairedTest = Literal["paired t", "clustered paired t", "exact McNemar"]

_NORMAL = NormalDist()


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return _NORMAL.inv_cdf((1.0 + confidence) / 2.0)


def is_pass_fail(scores: Sequence[float]) -> bool:
    """Whether every score is exactly 0 or 1 (and there is one)."""
    return bool(scores) and all(s == 0.0 or s == 1.0 for s in scores)


def _check_scores(scores: Sequence[float]) -> None:
    for s in scores:
        if not math.isfinite(s):
            raise ValueError(f"a score must be a finite number, got {s!r}")


def _groups(values: Sequence[float], clusters: Sequence[Hashable]) -> list[list[float]]:
    if len(clusters) != len(values):
        raise ValueError(f"clusters: {len(clusters)} labels for {len(values)} scores")
    grouped: dict[Hashable, list[float]] = {}
    for value, label in zip(values, clusters, strict=True):
        grouped.setdefault(label, []).append(value)
    return list(grouped.values())


def _sample_variance(values: Sequence[float], mean: float) -> float:
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def cluster_robust_se(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """The CR1 cluster-robust standard error of the mean of ``values`` (needs >= 2 groups)."""
    groups = _groups(values, clusters)
    g = len(groups)
    if g < 2:
        raise ValueError("cluster_robust_se needs at least 2 groups")
    n = len(values)
    mean = fmean(values)
    meat = sum(sum(v - mean for v in group) ** 2 for group in groups)
    return math.sqrt(meat / (n * n) * g / (g - 1))


def _clustered(clusters: Sequence[Hashable] | None, n: int) -> int | None:
    """The number of groups when the items really come in groups (some group > 1), else None."""
    if clusters is None:
        return None
    count = len(set(clusters))
    return count if count < n else None


@dataclass(frozen=True, slots=True)
class MeanEstimate:
    """A mean score with its interval and how it was computed."""

    mean: float
    interval: Interval
    se: float
    n: int
    method: MeanMethod
    clusters: int | None = None  # groups the items came in (None: not in groups)
    design_effect: float | None = None  # clustered only (None: no spread to compare with)

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "interval": list(self.interval),
            "se": self.se,
            "n": self.n,
            "method": self.method,
            "clusters": self.clusters,
            "design_effect": self.design_effect,
        }


def mean_estimate(
    scores: Sequence[float], clusters: Sequence[Hashable] | None = None, confidence: float = 0.95
) -> MeanEstimate | None:
    """The mean of ``scores`` with its interval (method in the module docstring).

    ``clusters``: each score's group (eval, task or item of repeated samples), or None. None
    when no interval can be given: no scores, or a single score that is not pass/fail.
    """
    _check_scores(scores)
    n = len(scores)
    z = _z(confidence)
    if n == 0:
        return None
    mean = fmean(scores)
    groups = _clustered(clusters, n)
    if groups is None and is_pass_fail(scores):
        low, high = wilson_interval(sum(scores), n, confidence)
        return MeanEstimate(mean, (low, high), math.sqrt(mean * (1.0 - mean) / n), n, "wilson")
    if n < 2:
        return None
    iid_se = math.sqrt(_sample_variance(scores, mean) / n)
    if groups is not None and groups >= 2 and clusters is not None:
        se = cluster_robust_se(scores, clusters)
        half = student_t_quantile(confidence, groups - 1) * se
        deff = se * se / (iid_se * iid_se) if iid_se > 0 else None
        return MeanEstimate(mean, (max(0.0, mean - half), min(1.0, mean + half)), se, n, "clustered", groups, deff)
    half = z * iid_se
    return MeanEstimate(mean, (max(0.0, mean - half), min(1.0, mean + half)), iid_se, n, "clt", groups)


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Model A against model B on the items both answered: ``difference`` is A − B."""

    n: int
    mean_a: float
    mean_b: float
    difference: float
    interval: Interval
    se: float
    p_value: float
    test: PairedTest
    clusters: int | None = None
    discordant: tuple[int, int] | None = None  # McNemar: (A passed B failed, A failed B passed)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mean_a": self.mean_a,
            "mean_b": self.mean_b,
            "difference": self.difference,
            "interval": list(self.interval),
            "se": self.se,
            "p_value": self.p_value,
            "test": self.test,
            "clusters": self.clusters,
            "discordant": list(self.discordant) if self.discordant is not None else None,
        }


def _t_p(difference: float, se: float, dof: float) -> float:
    if se == 0.0:
        return 1.0 if difference == 0.0 else 0.0
    return student_t_two_sided_p(difference / se, dof)


def paired_comparison(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    clusters: Sequence[Hashable] | None = None,
    confidence: float = 0.95,
) -> PairedComparison | None:
    """A − B over paired scores (same items, same order); None with fewer than 2 items."""
    if len(scores_a) != len(scores_b):
        raise ValueError(f"paired scores differ in length: {len(scores_a)} and {len(scores_b)}")
    _check_scores(scores_a)
    _check_scores(scores_b)
    _z(confidence)
    n = len(scores_a)
    if n < 2:
        return None
    differences = [a - b for a, b in zip(scores_a, scores_b, strict=True)]
    mean = fmean(differences)
    groups = _clustered(clusters, n)
    if groups is not None and groups >= 2 and clusters is not None:
        se = cluster_robust_se(differences, clusters)
        dof = groups - 1
        test: PairedTest = "clustered paired t"
    else:
        se = math.sqrt(_sample_variance(differences, mean) / n)
        dof = n - 1
        test = "paired t"
    half = student_t_quantile(confidence, dof) * se
    p_value = _t_p(mean, se, dof)
    discordant = None
    if test == "paired t" and is_pass_fail(scores_a) and is_pass_fail(scores_b):
        a_only = sum(1 for a, b in zip(scores_a, scores_b, strict=True) if a > b)
        b_only = sum(1 for a, b in zip(scores_a, scores_b, strict=True) if b > a)
        discordant = (a_only, b_only)
        p_value = mcnemar_exact_p(a_only, b_only)
        test = "exact McNemar"
    return PairedComparison(
        n, fmean(scores_a), fmean(scores_b), mean, (mean - half, mean + half), se, p_value, test, groups, discordant
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    for p in p_values:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"a p-value must lie in [0, 1], got {p!r}")
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def minimum_detectable_effect(se: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest true difference a two-sided test at ``alpha`` finds with ``power``, given the
    standard error of the difference (``√(σ²_d · deff / n)``)."""
    if not se >= 0.0:
        raise ValueError(f"a standard error must be >= 0, got {se!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power!r}")
    return (_z(1.0 - alpha) + _NORMAL.inv_cdf(power)) * se


def _pooled_se(x1: int, n1: int, x2: int, n2: int) -> float:
    if n1 <= 0 or n2 <= 0 or not 0 <= x1 <= n1 or not 0 <= x2 <= n2:
        raise ValueError(f"two rates need 0 <= x <= n and n >= 1, got {x1}/{n1} and {x2}/{n2}")
    pooled = (x1 + x2) / (n1 + n2)
    return math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))


def two_proportion_p(x1: int, n1: int, x2: int, n2: int) -> float:
    """Two-sided p-value of the pooled z test of ``x1/n1`` against ``x2/n2`` (1.0 when both
    rates are 0 or both are 1: nothing differs)."""
    se = _pooled_se(x1, n1, x2, n2)
    if se == 0.0:
        return 1.0
    z = (x1 / n1 - x2 / n2) / se
    return 2.0 * _NORMAL.cdf(-abs(z))


def two_proportion_mde(x1: int, n1: int, x2: int, n2: int, alpha: float = 0.05, power: float = 0.8) -> float | None:
    """The smallest change of rate these sample sizes see at the pooled rate (None at 0 or 1)."""
    se = _pooled_se(x1, n1, x2, n2)
    return minimum_detectable_effect(se, alpha, power) if se > 0 else None
