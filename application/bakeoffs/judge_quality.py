"""Is a judge worth listening to? The app's own plain reading of a criterion's measured
error rates, shown beside every verdict built on that judge (the queue's gate is the
queue's; this is ours).

Informedness (Youden's J) = TPR + TNR - 1: 0 for a judge no better than a coin, 1 for a
perfect one. A judge at or below ``MIN_INFORMEDNESS``, or whose agreement with people is at
or below ``MIN_KAPPA`` (Cohen), cannot tell a passing answer from a failing one, so a pass
rate it produces says nothing about the model.
"""

from __future__ import annotations

__all__ = ["MIN_INFORMEDNESS", "MIN_KAPPA", "informedness", "judge_reading"]

MIN_INFORMEDNESS = 0.1
MIN_KAPPA = 0.2


def informedness(tpr: float | None, tnr: float | None) -> float | None:
    """TPR + TNR - 1, or None when either rate was not measured."""
    if tpr is None or tnr is None:
        return None
    return tpr + tnr - 1


def judge_reading(tpr: float | None, tnr: float | None, kappa: float | None) -> str | None:
    """A plain sentence when the judge's verdicts cannot be trusted (near chance, or never
    measured against people); None when the judge is usable."""
    youden = informedness(tpr, tnr)
    if youden is None:
        return (
            "this pass rate is the judge's opinion, not a measurement: the judge was never checked against "
            "human labels (no TPR/TNR); align the criterion first"
        )
    if youden <= MIN_INFORMEDNESS:
        return f"this pass rate says nothing: the judge's TPR+TNR-1 is {youden:.2f}"
    if kappa is not None and kappa <= MIN_KAPPA:
        return f"this pass rate says nothing: the judge agrees with people no better than chance (kappa {kappa:.2f})"
    return None
