"""The figures of an evidence bundle recomputed, one :class:`Recheck` each (what the bundle
states, what the app's own arithmetic gives, and whether they match): the comparison arms' win
rates and intervals, the criterion models' observed and corrected pass rates, the assertion pass
rates and each gate check. ``verify`` reads the bundle and puts the rows in order."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from application.bakeoffs.gate import CHECK_WORDS
from application.bakeoffs.words import model_text
from diagnosis.stats import rogan_gladen, wilson_interval

__all__ = ["TOLERANCE", "Recheck", "as_number", "assertion_rows", "comparison_rows", "criterion_rows", "gate_rows"]

Status = Literal["matches", "differs", "cannot"]
TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Recheck:
    """One figure: what the bundle says, what the recomputation gives, and the outcome."""

    what: str
    stated: Any
    recomputed: Any
    status: Status
    detail: str = ""

    @classmethod
    def impossible(cls, what: str, stated: Any, why: str) -> Recheck:
        """A figure that cannot be recomputed (``why``: what is missing); nothing is guessed."""
        return cls(what, stated, None, "cannot", why)

    def line(self) -> str:
        if self.status == "cannot":
            return f"cannot   {self.what}: {self.detail}"
        shown = f"{_show(self.stated)}"
        if self.status == "matches":
            return f"matches  {self.what}: {shown}"
        return f"DIFFERS  {self.what}: bundle {shown}, recomputed {_show(self.recomputed)} ({self.detail})"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return f"[{value[0]:.6g}, {value[1]:.6g}]"
    return str(value)


def as_number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def _interval(value: Any) -> tuple[float, float] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = as_number(value[0]), as_number(value[1])
        if low is not None and high is not None:
            return low, high
    return None


def _compare(what: str, stated: Any, recomputed: Any) -> Recheck:
    """Numbers or [lo, hi] pairs, within ``TOLERANCE`` (the queue rounds some to 4-6 places)."""
    if recomputed is None:
        return Recheck.impossible(what, stated, "the counts it comes from are missing")
    if stated is None:
        return Recheck(what, None, recomputed, "cannot", "the bundle states no value to check")
    if isinstance(recomputed, tuple):
        pair = _interval(stated)
        if pair is None:
            return Recheck(what, stated, recomputed, "differs", "the bundle's value is not an interval")
        gap = max(abs(pair[0] - recomputed[0]), abs(pair[1] - recomputed[1]))
    else:
        number = as_number(stated)
        if number is None:
            return Recheck(what, stated, recomputed, "differs", "the bundle's value is not a number")
        gap = abs(number - recomputed)
    if gap <= TOLERANCE:
        return Recheck(what, stated, recomputed, "matches")
    return Recheck(what, stated, recomputed, "differs", f"by {gap:.4g}")


def comparison_rows(results: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, tuple[float, float] | None]]:
    rows: list[Recheck] = []
    floors: dict[str, tuple[float, float] | None] = {}
    for arm in results.get("per_candidate") or []:
        key = str(arm.get("arm") or arm.get("model"))
        wins, losses, ties = (as_number(arm.get(k)) for k in ("wins", "losses", "ties"))
        if wins is None or losses is None or ties is None:
            rows.append(Recheck.impossible(f"{key} win rate", arm.get("win_rate"), "wins/losses/ties missing"))
            continue
        judged = wins + losses + ties
        score = wins + ties / 2
        rate = score / judged if judged else None
        ci = wilson_interval(score, judged) if judged else None
        rows.append(_compare(f"{key} win rate", arm.get("win_rate"), rate))
        rows.append(_compare(f"{key} win rate 95% interval", arm.get("ci95"), ci))
        floors[key] = ci
        decided = wins + losses
        floors[f"{key}#decided"] = wilson_interval(wins, decided) if decided else None
    return rows, floors


def criterion_rows(results: Mapping[str, Any], snapshot: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, Any]]:
    rows: list[Recheck] = []
    figures: dict[str, Any] = {}
    tpr, tnr = as_number(snapshot.get("tpr")), as_number(snapshot.get("tnr"))
    for model in results.get("per_model") or []:
        key = str(model.get("model"))
        passed, failed = as_number(model.get("judged_pass")), as_number(model.get("judged_fail"))
        if passed is None or failed is None:
            rows.append(
                Recheck.impossible(f"{key} pass rate", model.get("observed_pass_rate"), "pass/fail counts missing")
            )
            continue
        judged = passed + failed
        observed = passed / judged if judged else None
        ci = wilson_interval(passed, judged) if judged else None
        rows.append(_compare(f"{key} observed pass rate", model.get("observed_pass_rate"), observed))
        rows.append(_compare(f"{key} observed 95% interval", model.get("observed_ci"), ci))
        corrected = corrected_ci = None
        if tpr is None or tnr is None:
            rows.append(
                Recheck.impossible(
                    f"{key} corrected pass rate",
                    model.get("corrected_pass_rate"),
                    "the frozen judge has no measured TPR/TNR (unvalidated)",
                )
            )
        elif observed is not None and ci is not None:
            corrected = rogan_gladen(observed, tpr, tnr)
            if corrected is None:
                rows.append(
                    Recheck.impossible(
                        f"{key} corrected pass rate",
                        model.get("corrected_pass_rate"),
                        f"the judge is no better than chance (TPR+TNR-1 = {tpr + tnr - 1:+.3f})",
                    )
                )
            else:
                low, high = rogan_gladen(ci[0], tpr, tnr), rogan_gladen(ci[1], tpr, tnr)
                corrected_ci = (low, high) if low is not None and high is not None else None
                rows.append(_compare(f"{key} corrected pass rate", model.get("corrected_pass_rate"), corrected))
                check = _compare(f"{key} corrected 95% interval", model.get("corrected_ci"), corrected_ci)
                if check.status == "differs":
                    check = Recheck(
                        check.what,
                        check.stated,
                        check.recomputed,
                        "differs",
                        check.detail + "; recomputed by mapping the observed interval's ends "
                        "(the queue's method is not stated)",
                    )
                rows.append(check)
        figures[key] = {"observed_ci": ci, "corrected": corrected, "corrected_ci": corrected_ci}
    return rows, figures


def assertion_rows(results: Mapping[str, Any]) -> tuple[list[Recheck], dict[str, float | None]]:
    rows: list[Recheck] = []
    rates: dict[str, float | None] = {}
    for model in (results.get("assertion_results") or {}).get("per_model") or []:
        key = str(model.get("model"))
        answers, passed = as_number(model.get("answers")), as_number(model.get("passed_all"))
        rate = passed / answers if answers and passed is not None else None
        rates[key] = rate
        rows.append(_compare(f"{key} all-assertions pass rate", model.get("pass_rate"), rate))
    return rows, rates


def gate_rows(
    bundle: Mapping[str, Any], floors: dict[str, Any], figures: dict[str, Any], assertion_rates: dict[str, float | None]
) -> list[Recheck]:
    gate = bundle.get("gate")
    if not isinstance(gate, Mapping) or not isinstance(gate.get("verdict"), Mapping):
        return [Recheck.impossible("gate", None, "the bundle was made without thresholds, so it holds no gate")]
    verdict = gate["verdict"]
    params = gate.get("params") or {}
    ties = params.get("win_rate_ties", "half")
    rows: list[Recheck] = []
    passes: list[bool] = []
    for check in verdict.get("checks") or []:
        kind, key = check.get("check"), str(check.get("model"))
        said = f"gate {CHECK_WORDS.get(str(kind), str(kind))} {model_text(key)}"  # in words, not the wire's keys
        required = as_number(check.get("required"))
        actual: float | None = None
        reason = ""
        if kind == "win_rate":
            ci = floors.get(f"{key}#decided" if ties == "decided" else key)
            actual = ci[0] if ci else None
            if (
                "corrected" in str(check.get("note") or "").lower()
                and "printed" not in str(check.get("note") or "").lower()
            ):
                reason = "a corrected basis needs the person's pair labels, which the bundle does not carry"
        elif kind == "pass_rate":
            figure = figures.get(key) or {}
            ci = figure.get("corrected_ci") or figure.get("observed_ci")
            actual = ci[0] if ci else None
        elif kind == "assertion_pass_rate":
            actual = assertion_rates.get(key)
        elif kind == "noninferiority":
            figure = figures.get(key) or {}
            ci = figure.get("corrected_ci")
            actual = ci[0] if ci else None
        if reason:
            rows.append(Recheck.impossible(said, check.get("actual"), reason))
            continue
        if actual is None:
            stated_pass = check.get("pass")
            rows.append(
                Recheck.impossible(said, check.get("actual"), check.get("note") or "no figure to recompute it from")
            )
            passes.append(bool(stated_pass))
            continue
        rows.append(_compare(f"{said} actual", check.get("actual"), actual))
        recomputed_pass = required is not None and actual >= required - TOLERANCE
        passes.append(recomputed_pass)
        rows.append(
            Recheck(
                f"{said} pass",
                check.get("pass"),
                recomputed_pass,
                "matches" if check.get("pass") == recomputed_pass else "differs",
                "" if check.get("pass") == recomputed_pass else "the check's pass does not follow from its figures",
            )
        )
    if passes:
        overall = all(passes)
        rows.append(
            Recheck(
                "gate verdict",
                verdict.get("pass"),
                overall,
                "matches" if verdict.get("pass") == overall else "differs",
                "" if verdict.get("pass") == overall else "the verdict does not follow from its checks",
            )
        )
    return rows
