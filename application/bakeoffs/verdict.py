"""The one answer to "is it safe to switch to the candidate?": switch, don't switch, or not
enough evidence, with why, what would settle it, and each figure it rests on with the question
that figure answers (issue 29, item 10; issue 41, item 3). ``application.bakeoffs.decision``
feeds it the run, its samples and the margin; every view prints what it returns.

This is the app's own reading, beside the queue's gate (which stays the queue's). The question
is "is the candidate worse than the baseline?", or with a noninferiority margin ``M`` "is it
more than ``M`` points worse?". The rule, stated so a person can check it:

- a run that is not DONE, or is unreportable, or whose judge is no better than chance (a
  criterion's TPR+TNR-1 <= 0.1 or kappa <= 0.2, or never measured; a comparison's labelled
  pairs say the judge's readings are near chance), is **not enough evidence**;
- a comparison arm has two intervals on the same question: the queue's win rate (corrected
  when the queue has a usable calibration, >= 30 human pair labels; else the printed one,
  the interval its gate reads) against parity (0.5, less the margin), and the paired
  difference on the samples both answered (win +½, tie 0, loss −½ per prompt: its mean is
  the printed win rate minus 0.5, its interval narrower because a tie is not a coin flip)
  against 0 (less the margin). **Don't** when either shows the candidate worse (its high end
  below the line); **switch** only when the queue's interval clears the line at its low end
  and the paired one does too (so the app never says switch where the queue's gate at the
  same line fails); else not enough evidence. With a corrected rate the paired difference
  (as the judge read it, uncorrected) is shown beside it and decides nothing;
- a criterion arm is read on the paired difference of pass rates against the incumbent on the
  samples both answered, corrected for the judge (the Rogan-Gladen correction is linear, so
  the difference is divided by TPR+TNR-1): don't when its high end is below the line, switch
  when its low end clears it. Without samples, the candidate's interval against the
  incumbent's rate;
- with several candidates: switch to the one with the highest low end among those that pass;
  don't when every one is worse; otherwise not enough evidence, told for the most promising
  candidate (the highest low end).

"What would settle it" (the sample count: ``line_reading.samples_needed``): wait or rerun; a
calibrated criterion; more labels (when the judge's own error alone, ``floor_half_width``, is
wider than the gap to the line); or about how many judged samples would narrow the deciding
interval past the line if the rate held (n x (the interval's reach toward the line / the
gap)^2, rough, said to be). A count past the queue's cap
(``common.constants.QUEUE_SAMPLE_CAP``) is never advised: the sentence says one run cannot
settle it and names what can (a wider margin, a calibrated criterion, several runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from application.bakeoffs.calibration import LABELS_NEEDED
from application.bakeoffs.judge_quality import informedness, judge_reading
from application.bakeoffs.line_reading import (
    CANNOT_TELL,
    NO_NOT_WORSE,
    YES_WORSE,
    LineReading,
    interval_text,
    line_text,
    paired_reading,
    rate_reading,
    samples_needed,
)

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from diagnosis.paired import PairedDifference

__all__ = ["DONT", "EXIT_CODES", "SWITCH", "UNSURE", "Figure", "Verdict", "question", "verdict"]

SWITCH, DONT, UNSURE = "switch", "don't switch", "not enough evidence"
EXIT_CODES = {SWITCH: 0, DONT: 1, UNSURE: 3}


def question(margin: float | None) -> str:
    """The question every figure of a verdict answers, in words."""
    if margin is None:
        return "is the candidate worse than the baseline?"
    return (
        f"noninferiority at a {margin * 100:.1f}-point margin: "
        f"is the candidate more than {margin * 100:.1f} points worse than the baseline?"
    )


@dataclass(frozen=True)
class Figure:
    """One figure a verdict rests on (or shows beside it), with the question it answers."""

    subject: str
    name: str  # what it is: "paired difference on the 94 samples both answered, as the judge read them"
    value: str  # "-10.1 points [-16.3, -3.9]"
    question: str
    answer: str  # YES_WORSE | NO_NOT_WORSE | CANNOT_TELL, then why
    decides: bool  # whether the verdict rests on it

    @property
    def line(self) -> str:
        """The figure with its question (``short`` without it, under a line that says it once)."""
        beside = "" if self.decides else " (beside the verdict; it decides nothing)"
        return f"{self.subject}: {self.name} {self.value}: {self.question} {self.answer}{beside}"

    @property
    def short(self) -> str:
        beside = "" if self.decides else " (beside the verdict; it decides nothing)"
        return f"{self.subject}: {self.name} {self.value}: {self.answer}{beside}"

    def to_json(self) -> dict[str, object]:
        return {
            "subject": self.subject,
            "figure": self.name,
            "value": self.value,
            "question": self.question,
            "answer": self.answer,
            "decides": self.decides,
        }


@dataclass(frozen=True)
class Verdict:
    answer: str  # SWITCH | DONT | UNSURE
    candidate: str | None  # the arm to switch to (SWITCH only)
    why: str
    settle: str | None  # what would settle it (UNSURE), or what would firm it up
    reading: str | None  # the app's plain reading of the judge, when it has something to say
    figures: tuple[Figure, ...] = ()
    margin: float | None = None
    arms: tuple[tuple[str, str], ...] = ()
    """Each candidate's own answer (arm, SWITCH | DONT | UNSURE): the verdict is the best of them."""

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
    figures: tuple[Figure, ...] = ()


def _figure(key: str, reading: LineReading, margin: float | None, decides: bool) -> Figure:
    return Figure(key, reading.name, reading.value, question(margin), reading.said(line_text(reading)), decides)


_CALIBRATE_COMPARISON = "a criterion run with a calibrated criterion"
_CALIBRATE_CRITERION = "a sharper calibrated criterion"


def _decide(
    key: str,
    readings: list[LineReading],
    beside: list[LineReading],
    margin: float | None,
    calibrate: str,
    floor: float | None = None,
    extra: str = "",
) -> _Arm:
    """``readings``: the intervals the answer rests on (the first is the queue's when there is
    one: a switch needs every one to clear the line; one showing the candidate worse is a
    don't); ``beside``: shown with their question, deciding nothing."""
    figures = tuple(_figure(key, r, margin, True) for r in readings) + tuple(
        _figure(key, r, margin, False) for r in beside
    )
    worse = next((r for r in readings if r.answer == YES_WORSE), None)
    low = readings[0].low if readings else None
    if worse is not None:
        return _Arm(
            key,
            DONT,
            f"{key} is worse: {worse.name} {worse.value}, below {line_text(worse)} even at its high end",
            None,
            low,
            figures,
        )
    if readings and all(r.answer == NO_NOT_WORSE for r in readings):
        first = readings[0]
        said = "no more than the margin worse" if margin else "not worse"
        return _Arm(
            key,
            SWITCH,
            f"{key} is {said}: {first.name} {first.value} stays at or above {line_text(first)} even at its low "
            f"end{extra}",
            None,
            low,
            figures,
        )
    open_ = next(r for r in readings if r.answer == CANNOT_TELL)
    if floor is not None and floor >= abs(open_.center - open_.line):
        settle = (
            f"more pair labels: the judge's own error alone (±{floor:.3f}) is wider than the gap to "
            f"{line_text(open_)}, so more samples cannot settle it"
        )
    else:
        settle = samples_needed(open_, calibrate)
    cleared = [r for r in readings if r.answer == NO_NOT_WORSE]
    also = f"; {cleared[0].name} {cleared[0].value} clears it" if cleared else ""
    return _Arm(
        key,
        UNSURE,
        f"{key}'s {open_.name} {open_.value} crosses {line_text(open_)}{also}",
        settle,
        low,
        figures,
    )


def _no_interval(key: str, what: str) -> _Arm:
    return _Arm(key, UNSURE, f"{key}: the queue sent no {what} interval", "a finished run with judged pairs", None)


def _others(best: _Arm, arms: list[_Arm]) -> str:
    """The other candidates' own answers, in a few words."""
    words = {SWITCH: "not worse either", DONT: "worse", UNSURE: "no better"}
    said = [f"{a.key} {words[a.answer]}" for a in arms if a is not best]
    return f" (the other candidate{'s' if len(said) != 1 else ''}: {', '.join(said)})" if said else ""


def _combine(arms: list[_Arm], reading: str | None, margin: float | None) -> Verdict:
    figures = tuple(f for a in arms for f in a.figures)
    each = tuple((a.key, a.answer) for a in arms)
    passing = [a for a in arms if a.answer == SWITCH]
    if passing:
        best = max(passing, key=lambda a: a.low if a.low is not None else -1.0)
        return Verdict(SWITCH, best.key, best.why + _others(best, arms), None, reading, figures, margin, each)
    if arms and all(a.answer == DONT for a in arms):
        return Verdict(DONT, None, "; ".join(a.why for a in arms), None, reading, figures, margin, each)
    unsure = [a for a in arms if a.answer == UNSURE] or arms
    if not unsure:
        return Verdict(
            UNSURE, None, "the run has no candidate to judge", "a run with at least one candidate", reading, (), margin
        )
    best = max(unsure, key=lambda a: a.low if a.low is not None else -1.0)  # the most promising candidate
    return Verdict(UNSURE, None, best.why + _others(best, arms), best.settle, reading, figures, margin, each)


def _comparison(
    run: assumed.Run,
    pairwise: assumed.Pairwise | None,
    paired: Mapping[str, PairedDifference | None],
    margin: float | None,
) -> Verdict:
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
            margin=margin,
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
        pair = paired.get(row.key)
        pair_reading = (
            None
            if pair is None
            else paired_reading(
                f"paired difference on the {pair.n} samples both answered, as the judge read them", pair, margin
            )
        )
        if fixed is not None and fixed.win_rate is not None:
            if fixed.win_rate_ci is None:
                arms.append(_no_interval(row.key, "corrected win rate"))
                continue
            queue = rate_reading(
                "corrected win rate (the judge's error corrected)", fixed.win_rate, fixed.win_rate_ci, judged, margin
            )
            beside = [pair_reading] if pair_reading is not None else []
            arms.append(
                _decide(row.key, [queue], beside, margin, _CALIBRATE_COMPARISON, fixed.floor_half_width, savings)
            )
            continue
        if row.win_rate is None or row.ci95 is None:
            arms.append(_no_interval(row.key, "printed win rate"))
            continue
        queue = rate_reading(
            "printed win rate (the interval the queue's gate reads)", row.win_rate, row.ci95, judged, margin
        )
        deciding = [queue] + ([pair_reading] if pair_reading is not None else [])
        arm = _decide(row.key, deciding, [], margin, _CALIBRATE_COMPARISON, None, savings)
        if arm.answer == UNSURE and arm.settle:
            arm = _Arm(
                arm.key,
                arm.answer,
                arm.why,
                f"{arm.settle}; or {LABELS_NEEDED} labelled pairs for a corrected rate",
                arm.low,
                arm.figures,
            )
        arms.append(arm)
    return _combine(arms, reading, margin)


def _criterion(run: assumed.Run, paired: Mapping[str, PairedDifference | None], margin: float | None) -> Verdict:
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
            margin=margin,
        )
    youden = informedness(tpr, tnr)
    by_model = {row.model: row for row in results.per_model}
    incumbent = by_model.get(run.baseline_model or "")
    if incumbent is None:
        return Verdict(
            UNSURE,
            None,
            "the queue sent no pass rate for the incumbent (baseline)",
            "a finished criterion run that grades the baseline",
            None,
            margin=margin,
        )
    line = incumbent.corrected_pass_rate if incumbent.corrected_pass_rate is not None else incumbent.observed_pass_rate
    if line is None:
        return Verdict(
            UNSURE,
            None,
            "the incumbent has no pass rate (nothing judged)",
            "a run with judged answers",
            None,
            margin=margin,
        )
    arms = []
    for row in results.per_model:
        if row.model == run.baseline_model:
            continue
        pair = paired.get(row.model)
        if pair is not None and youden is not None and youden > 0:
            name = (
                f"paired difference of pass rates on the {pair.n} samples both answered, corrected for the judge "
                f"(divided by its TPR+TNR-1 {youden:.2f})"
            )
            arms.append(
                _decide(row.model, [paired_reading(name, pair, margin, youden)], [], margin, _CALIBRATE_CRITERION)
            )
            continue
        corrected = row.corrected_pass_rate is not None
        rate = row.corrected_pass_rate if corrected else row.observed_pass_rate
        ci = row.corrected_ci if corrected else row.observed_ci
        judged = None if row.judged_pass is None or row.judged_fail is None else row.judged_pass + row.judged_fail
        if rate is None or ci is None:
            arms.append(_no_interval(row.model, "pass rate"))
            continue
        what = f"{'corrected' if corrected else 'observed'} pass rate against the incumbent's {line:.3f}"
        shifted = LineReading(
            what, f"{rate:.3f} {interval_text(ci)}", rate, ci[0], ci[1], line - (margin or 0.0), line, judged
        )
        arms.append(_decide(row.model, [shifted], [], margin, _CALIBRATE_CRITERION))
    if not arms:
        return Verdict(
            UNSURE,
            None,
            "the run graded the incumbent alone: there is no candidate to switch to",
            "a criterion run with a candidate",
            None,
            margin=margin,
        )
    return _combine(arms, None, margin)


def verdict(
    run: assumed.Run,
    pairwise: assumed.Pairwise | None = None,
    *,
    paired: Mapping[str, PairedDifference | None] | None = None,
    margin: float | None = None,
) -> Verdict:
    """The verdict on ``run``. ``paired``: each candidate's paired difference against the
    incumbent, from the samples (``application.bakeoffs.decision`` reads them; every view goes
    through it); ``margin``: a noninferiority margin (None: "is it worse at all?")."""
    paired = paired or {}
    if run.status != "DONE" or run.results is None:
        if run.status in ("PENDING", "RUNNING"):
            return Verdict(
                UNSURE,
                None,
                f"{run.id} is {run.status}: no results yet",
                "wait for it to finish (bakeoff watch)",
                None,
                margin=margin,
            )
        return Verdict(
            UNSURE,
            None,
            f"{run.id} ended {run.status or 'without a status'}" + (f": {run.error}" if run.error else ""),
            "run it again",
            None,
            margin=margin,
        )
    return (
        _criterion(run, paired, margin) if run.eval_kind == "criterion" else _comparison(run, pairwise, paired, margin)
    )
