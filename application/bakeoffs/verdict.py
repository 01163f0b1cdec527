"""The one answer to "is it safe to switch to the candidate?": switch, don't switch, or not
enough evidence, with why and what would settle it (issue 29, item 10).

This is the app's own reading, beside the queue's gate (which stays the queue's). The rule,
stated so a person can check it:

- a run that is not DONE, or is unreportable, or whose judge is no better than chance (a
  criterion's TPR+TNR-1 <= 0.1 or kappa <= 0.2, or never measured; a comparison's labelled
  pairs say the judge's readings are near chance), is **not enough evidence**;
- a comparison arm is judged on its corrected win rate when the queue has a usable
  calibration (>= 30 human pair labels), else on the printed one (compressed toward 0.5 by
  the judge's error, and said so): **switch** when the 95 % interval's low end is at or above
  parity (0.5: not worse than the baseline), **don't** when its high end is below parity,
  else not enough evidence;
- a criterion arm is judged against the incumbent's (baseline's) pass rate, corrected when
  the queue corrected it: switch when the candidate's interval low end reaches it, don't when
  its high end is below it;
- with several candidates: switch to the one with the highest low end among those that pass;
  don't when every one is worse; otherwise not enough evidence, told for the most promising
  candidate (the highest low end).

"What would settle it": wait or rerun; a calibrated criterion; more labels (when the judge's
own error alone, ``floor_half_width``, is wider than the gap to the line); or about how many
judged samples would narrow the interval past the line if the rate held (n x (the interval's
reach toward the line / the gap)^2, a rough figure, said to be one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from application.bakeoffs.calibration import LABELS_NEEDED
from application.bakeoffs.judge_quality import judge_reading

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["DONT", "EXIT_CODES", "SWITCH", "UNSURE", "Verdict", "gate_reading", "verdict"]

SWITCH, DONT, UNSURE = "switch", "don't switch", "not enough evidence"
EXIT_CODES = {SWITCH: 0, DONT: 1, UNSURE: 3}
PARITY = 0.5


@dataclass(frozen=True)
class Verdict:
    answer: str  # SWITCH | DONT | UNSURE
    candidate: str | None  # the arm to switch to (SWITCH only)
    why: str
    settle: str | None  # what would settle it (UNSURE), or what would firm it up
    reading: str | None  # the app's plain reading of the judge, when it has something to say

    @property
    def sentence(self) -> str:
        head = f"{SWITCH} to {self.candidate}" if self.answer == SWITCH and self.candidate else self.answer
        return f"{head}: {self.why}"

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.answer]


@dataclass(frozen=True)
class _Arm:
    key: str
    answer: str
    why: str
    settle: str | None
    low: float | None


def _interval(ci: list[float] | None) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "[—, —]"


def _samples_needed(n: int | None, ci: list[float], rate: float, line: float) -> str:
    gap = abs(rate - line)
    if not n or gap < 0.005:
        return "the rate sits on the line: no feasible number of samples separates it (a noninferiority margin would)"
    half = ci[1] - rate if rate < line else rate - ci[0]  # the interval's side that reaches the line
    needed = max(n + 1, math.ceil(n * (half / gap) ** 2))
    return f"about {needed} judged samples (now {n}) if the rate holds at {rate:.3f} (rough)"


def _decide(
    key: str,
    rate: float | None,
    ci: list[float] | None,
    line: float,
    what: str,
    n: int | None,
    floor: float | None = None,
    extra: str = "",
) -> _Arm:
    if rate is None or ci is None:
        return _Arm(key, UNSURE, f"{key}: the queue sent no {what} interval", "a finished run with judged pairs", None)
    shown = f"{key}'s {what} {rate:.3f} {_interval(ci)}"
    if ci[0] >= line:
        return _Arm(key, SWITCH, f"{shown} stays at or above {line:.3f} even at its low end{extra}", None, ci[0])
    if ci[1] < line:
        return _Arm(key, DONT, f"{shown} is below {line:.3f} even at its high end", None, ci[0])
    if floor is not None and floor >= abs(rate - line):
        settle = (
            f"more pair labels: the judge's own error alone (±{floor:.3f}) is wider than the gap to "
            f"{line:.3f}, so more samples cannot settle it"
        )
    else:
        settle = _samples_needed(n, ci, rate, line)
    return _Arm(key, UNSURE, f"{shown} straddles {line:.3f}", settle, ci[0])


def _combine(arms: list[_Arm], reading: str | None) -> Verdict:
    passing = [a for a in arms if a.answer == SWITCH]
    if passing:
        best = max(passing, key=lambda a: a.low if a.low is not None else -1.0)
        return Verdict(SWITCH, best.key, best.why, None, reading)
    if arms and all(a.answer == DONT for a in arms):
        return Verdict(DONT, None, "; ".join(a.why for a in arms), None, reading)
    unsure = [a for a in arms if a.answer == UNSURE] or arms
    if not unsure:
        return Verdict(UNSURE, None, "the run has no candidate to judge", "a run with at least one candidate", reading)
    best = max(unsure, key=lambda a: a.low if a.low is not None else -1.0)  # the most promising candidate
    others = len(arms) - 1
    why = best.why + (f" (and {others} other candidate{'s' if others != 1 else ''} no better)" if others else "")
    return Verdict(UNSURE, None, why, best.settle, reading)


def _comparison(run: assumed.Run, pairwise: assumed.Pairwise | None) -> Verdict:
    results = run.results
    assert results is not None
    cal = pairwise.calibration if pairwise is not None else None
    if cal is not None and not cal.usable and (cal.n or 0) >= LABELS_NEEDED and "chance" in (cal.reason or ""):
        return Verdict(
            UNSURE,
            None,
            f"the printed win rates say nothing: on {cal.n} labelled pairs {cal.reason}",
            "a better judge (another family, a sharper rubric), then label pairs again",
            cal.reason,
        )
    if cal is not None and cal.usable:
        reading = None
    elif cal is None:
        reading = (
            f"the judge is unchecked on this run: its printed rate leans toward 0.5 by its error "
            f"(label {LABELS_NEEDED} pairs to correct it)"
        )
    else:
        reading = (
            f"the printed win rate is not corrected for the judge's error: {cal.reason or 'calibration not usable'}"
        )
    arms = []
    for row in results.per_candidate:
        wins, losses, ties = row.wins, row.losses, row.ties
        judged = None if wins is None or losses is None or ties is None else wins + losses + ties
        if row.unreportable:
            arms.append(
                _Arm(
                    row.key,
                    UNSURE,
                    f"{row.key} is unreportable: too many pairs got no judge reading",
                    "a rerun with a judge that answers (look at the failed pairs)",
                    None,
                )
            )
            continue
        entry = pairwise.candidates.get(row.key) if pairwise is not None else None
        fixed = entry.corrected if entry is not None else None
        savings = (
            f" and costs {row.savings_pct:.0f}% less" if row.savings_pct is not None and row.savings_pct > 0 else ""
        )
        if fixed is not None and fixed.win_rate is not None:
            arms.append(
                _decide(
                    row.key,
                    fixed.win_rate,
                    fixed.win_rate_ci,
                    PARITY,
                    "corrected win rate",
                    judged,
                    fixed.floor_half_width,
                    savings,
                )
            )
        else:
            arm = _decide(row.key, row.win_rate, row.ci95, PARITY, "printed win rate", judged, None, savings)
            if arm.answer == UNSURE and arm.settle:
                arm = _Arm(
                    arm.key,
                    arm.answer,
                    arm.why,
                    f"{arm.settle}; or {LABELS_NEEDED} labelled pairs for a corrected rate",
                    arm.low,
                )
            arms.append(arm)
    return _combine(arms, reading)


def _criterion(run: assumed.Run) -> Verdict:
    results = run.results
    assert results is not None
    snap = run.criterion_snapshot or {}
    tpr, tnr, kappa = snap.get("tpr"), snap.get("tnr"), snap.get("kappa")
    reading = judge_reading(tpr, tnr, kappa)
    if reading is not None:
        name = snap.get("name") or snap.get("criterion_id") or "the criterion"
        return Verdict(
            UNSURE,
            None,
            f"{reading}, so {name}'s pass rates cannot tell the models apart",
            f"a calibrated criterion: align it against at least {LABELS_NEEDED} human labels until its "
            "TPR+TNR-1 is above 0.1 and kappa above 0.2 (bakeoff align), then run again",
            reading,
        )
    by_model = {row.model: row for row in results.per_model}
    incumbent = by_model.get(run.baseline_model or "")
    if incumbent is None:
        return Verdict(
            UNSURE,
            None,
            "the queue sent no pass rate for the incumbent (baseline)",
            "a finished criterion run that grades the baseline",
            None,
        )
    line = incumbent.corrected_pass_rate if incumbent.corrected_pass_rate is not None else incumbent.observed_pass_rate
    if line is None:
        return Verdict(
            UNSURE, None, "the incumbent has no pass rate (nothing judged)", "a run with judged answers", None
        )
    arms = []
    for row in results.per_model:
        if row.model == run.baseline_model:
            continue
        corrected = row.corrected_pass_rate is not None
        rate = row.corrected_pass_rate if corrected else row.observed_pass_rate
        ci = row.corrected_ci if corrected else row.observed_ci
        judged = None if row.judged_pass is None or row.judged_fail is None else row.judged_pass + row.judged_fail
        what = f"{'corrected' if corrected else 'observed'} pass rate (incumbent {line:.3f})"
        arms.append(_decide(row.model, rate, ci, line, what, judged))
    if not arms:
        return Verdict(
            UNSURE,
            None,
            "the run graded the incumbent alone: there is no candidate to switch to",
            "a criterion run with a candidate",
            None,
        )
    return _combine(arms, None)


def verdict(run: assumed.Run, pairwise: assumed.Pairwise | None = None) -> Verdict:
    if run.status != "DONE" or run.results is None:
        if run.status in ("PENDING", "RUNNING"):
            return Verdict(
                UNSURE, None, f"{run.id} is {run.status}: no results yet", "wait for it to finish (bakeoff watch)", None
            )
        return Verdict(
            UNSURE,
            None,
            f"{run.id} ended {run.status or 'without a status'}" + (f": {run.error}" if run.error else ""),
            "run it again",
            None,
        )
    return _criterion(run) if run.eval_kind == "criterion" else _comparison(run, pairwise)


def gate_reading(run: assumed.Run, pairwise: assumed.Pairwise | None = None) -> str | None:
    """The app's plain reading beside the queue's gate on ``run``: what the judge under it
    is worth (None when there is nothing to add)."""
    if run.eval_kind == "criterion":
        snap = run.criterion_snapshot or {}
        return judge_reading(snap.get("tpr"), snap.get("tnr"), snap.get("kappa"))
    cal = pairwise.calibration if pairwise is not None else None
    if cal is not None and cal.usable:
        return None
    if cal is None:
        return (
            "this win rate is the judge's printed reading, never checked against people on this run "
            f"(label {LABELS_NEEDED} pairs to correct it)"
        )
    return f"this win rate is the judge's printed reading, not corrected: {cal.reason or 'calibration not usable'}"
