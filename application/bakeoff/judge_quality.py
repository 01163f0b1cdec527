"""How good a judge is, in one number and one plain sentence, from its measured TPR, TNR
and Cohen's kappa (a criterion's alignment figures, ``GET /v1/criteria``).

Informedness (Youden's J, TPR + TNR − 1) is how far the judge is from a coin: 0 is chance,
negative is worse than chance, 1 is perfect. A pass rate read by a judge near 0 says nothing
about the answers, and the Rogan–Gladen correction cannot repair it (it divides by this
number). The app says so before anything is spent on it.
"""

from __future__ import annotations

__all__ = ["KAPPA_FLOOR", "INFORMEDNESS_FLOOR", "informedness", "judge_reading"]

INFORMEDNESS_FLOOR = 0.1
"""At or below this TPR + TNR − 1 a judge is treated as no better than chance."""
KAPPA_FLOOR = 0.2
"""At or below this Cohen's kappa the judge barely agrees with people beyond chance."""


def informedness(tpr: float | None, tnr: float | None) -> float | None:
    """TPR + TNR − 1, or None when either figure is missing (the judge was never aligned)."""
    if tpr is None or tnr is None:
        return None
    return tpr + tnr - 1


def judge_reading(tpr: float | None, tnr: float | None, kappa: float | None) -> str | None:
    """A plain sentence when the judge's verdicts cannot be trusted (no better than chance, or
    never measured); None when it is usable."""
    youden = informedness(tpr, tnr)
    if youden is None:
        return ("this judge is unvalidated: it has no measured TPR/TNR (no alignment run), so nothing it "
                "says can be corrected or trusted yet")
    if youden <= INFORMEDNESS_FLOOR:
        return f"this judge is no better than chance: TPR+TNR-1 is {youden:.2f}"
    if kappa is not None and kappa <= KAPPA_FLOOR:
        return f"this judge barely agrees with people: kappa is {kappa:.2f} (TPR+TNR-1 is {youden:.2f})"
    return None
