"""The few distribution functions the boards' tests need, in the standard library.

Why not scipy: it is a 40 MB runtime dependency for three functions, and ``diagnosis`` is pure
standard library (see ``diagnosis.stats``). scipy is the reference in the tests
(tests/diagnosis/test_board_stats.py holds every function here equal to it).

- :func:`regularized_beta` ``I_x(a, b)`` by the continued fraction of Numerical Recipes (3rd
  ed., 6.4, modified Lentz), using ``I_x(a, b) = 1 − I_{1−x}(b, a)`` on the slow side;
- :func:`student_t_two_sided_p` ``P(|T| ≥ |t|) = I_{ν/(ν+t²)}(ν/2, ½)``;
- :func:`student_t_quantile` the two-sided critical value, by bisection on that p (cached);
- :func:`binomial_cdf` ``P(X ≤ k)`` for ``X ~ Bin(n, p)`` = ``I_{1−p}(n − k, k + 1)``;
- :func:`mcnemar_exact_p` the exact two-sided McNemar p-value on ``b`` and ``c`` discordant
  pairs: ``min(1, 2 · P(X ≤ min(b, c)))`` for ``X ~ Bin(b + c, ½)`` (McNemar 1947; as
  ``statsmodels``' ``mcnemar(exact=True)``).
"""

from __future__ import annotations

import math
from functools import lru_cache

__all__ = ["binomial_cdf", "mcnemar_exact_p", "regularized_beta", "student_t_quantile", "student_t_two_sided_p"]

_TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for step in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + step * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + step / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)`` for ``a, b > 0`` and ``0 <= x <= 1``."""
    if not (a > 0 and b > 0):
        raise ValueError(f"regularized_beta needs a, b > 0, got {a!r}, {b!r}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"regularized_beta needs 0 <= x <= 1, got {x!r}")
    if x == 0.0 or x == 1.0:
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def student_t_two_sided_p(t: float, dof: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``dof`` degrees of freedom (``dof > 0``)."""
    if not dof > 0:
        raise ValueError(f"degrees of freedom must be positive, got {dof!r}")
    if math.isinf(t):
        return 0.0
    return regularized_beta(dof / 2.0, 0.5, dof / (dof + t * t))


@lru_cache(maxsize=512)
def student_t_quantile(confidence: float, dof: float) -> float:
    """The two-sided critical value: ``P(|T| >= q) = 1 − confidence`` (2.0227 at 95 %, 39 dof)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    alpha = 1.0 - confidence
    low, high = 0.0, 10.0
    while student_t_two_sided_p(high, dof) > alpha:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if student_t_two_sided_p(middle, dof) > alpha:
            low = middle
        else:
            high = middle
        if high - low < 1e-13:
            break
    return (low + high) / 2.0


def binomial_cdf(k: int, n: int, p: float) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return regularized_beta(n - k, k + 1, 1.0 - p)


def mcnemar_exact_p(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value from the two discordant counts (1.0 when both are 0)."""
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be >= 0, got {b!r}, {c!r}")
    total = b + c
    if total == 0:
        return 1.0
    return min(1.0, 2.0 * binomial_cdf(min(b, c), total, 0.5))
