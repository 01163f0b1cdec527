"""A bake-off's plan in words, before anything is spent: the interval the run will have, the
power of a noninferiority gate and the samples a question needs (``diagnosis.planning``),
the same sentences in ``bakeoff plan``, the New bake-off dialog, its confirmation and a
refused (underpowered) certified switch. Each figure says the question it answers; a count
past the queue's cap is said to be past it, with what to do instead (``beyond_cap``: a wider
margin, a calibrated criterion, several runs), the same words as a finished run's verdict."""

from __future__ import annotations

from diagnosis.planning import SAMPLE_CAP, Plan, PlanQuestion, beyond_cap, plan, underpowered_advice

__all__ = ["early_decision_line", "margin_question", "plan_lines", "run_plan_lines", "underpowered_advice"]


def _points(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f} points"


_CALIBRATE = "a sharper calibrated criterion"


def margin_question(margin: float) -> str:
    """The question a noninferiority margin asks, in words (the same as a verdict's)."""
    return f"is the candidate no more than {_points(margin)} worse than the baseline?"


def plan_lines(result: Plan) -> list[str]:
    """Every figure of a plan, one sentence each, then its notes."""
    q = result.question
    lines = [f"expected rate {result.rate:g}" + (" (assumed)" if result.rate_assumed else "")]
    if q.samples is not None:
        if result.half_width is None:
            lines.append(f"at {q.samples} samples no interval means anything with this judge")
        else:
            lines.append(f"at {q.samples} samples the 95% interval is about ±{_points(result.half_width)}")
        if result.decided_pairs is not None:
            lines.append(
                f"  about {result.decided_pairs:.0f} decided pairs (tie share {q.tie_share:g}): "
                f"±{_points(result.decided_half_width)} on wins/(wins+losses)"
            )
    if q.half_width is not None:
        needed = result.samples_for_half_width
        if needed is None:
            lines.append(f"no sample count gives ±{_points(q.half_width)} with this judge")
        else:
            if needed > SAMPLE_CAP:
                lines.append(beyond_cap(f"give ±{_points(q.half_width)}", needed, None, _CALIBRATE))
            else:
                lines.append(f"±{_points(q.half_width)} needs about {needed} samples")
    if q.margin is not None:
        if result.power is not None:
            lines.append(
                f"noninferiority at a {_points(q.margin)} margin ({margin_question(q.margin)}): "
                f"{result.power:.0%} power at {q.samples} samples when the candidate is truly as good"
                + (" (underpowered: the queue may refuse it with 412)" if result.underpowered else "")
            )
        needed = result.samples_for_margin
        if needed is not None and needed > SAMPLE_CAP:
            lines.append(
                "  " + beyond_cap(f"reach {q.power:.0%} power", needed, result.smallest_margin_at_cap, _CALIBRATE)
            )
        elif needed is not None:
            lines.append(f"  {q.power:.0%} power needs about {needed} samples")
        if q.samples is not None:
            lines.append(early_decision_line(q.samples, q.margin))
    if result.smallest_margin_at_cap is not None:
        lines.append(
            f"the smallest margin {SAMPLE_CAP} samples certify with {q.power:.0%} power: "
            f"{_points(result.smallest_margin_at_cap)}"
        )
    return lines + [f"note: {n}" for n in result.notes]


def run_plan_lines(
    samples: int | None, margin: float | None, tpr: float | None, tnr: float | None, rate: float | None = None
) -> list[str]:
    """The plan of a run being set up (the dialog's and the confirmation's), short: its
    interval, and with a margin the margin's power and what would be enough. Silent (no lines)
    for values the queue would refuse anyway."""
    question = PlanQuestion(samples=samples, rate=rate, margin=margin, tpr=tpr, tnr=tnr)
    if question.problems() or samples is None:
        return []
    result = plan(question)
    basis = "at a rate of 0.5, the widest" if result.rate_assumed else f"at a rate of {result.rate:g}"
    if result.half_width is None:
        return [
            (
                f"the judge is no better than chance (TPR+TNR-1 = {result.judge_youden:+.2f}): no sample count "
                "makes its verdict mean anything"
            )
        ]
    corrected = " after the judge's correction" if result.judge_youden is not None else ""
    lines = [f"at {samples} samples the 95% interval will be about ±{_points(result.half_width)}{corrected} ({basis})"]
    if margin is not None and result.power is not None:
        needed = result.samples_for_margin
        enough = (
            ""
            if needed is None
            else f"; {question.power:.0%} power needs about {needed} samples"
            if needed <= SAMPLE_CAP
            else f"; {question.power:.0%} power takes more than one run (the queue caps a run at {SAMPLE_CAP} samples)"
        )
        smallest = (
            ""
            if result.smallest_margin_at_cap is None
            else f"; {SAMPLE_CAP} samples certify a margin of {_points(result.smallest_margin_at_cap)}"
            + (f"; or {_CALIBRATE}, or several runs read together" if needed is None or needed > SAMPLE_CAP else "")
        )
        lines.append(
            f"a {margin * 100:.1f}-point margin (no more than {margin * 100:.1f} points worse?) passes "
            f"{result.power:.0%} of the time "
            f"when the candidate is truly as good{enough}{smallest}"
        )
        lines.append(early_decision_line(samples, margin))
    return lines


def early_decision_line(samples: int, margin: float) -> str:
    """What stopping when decided would take (``bakeoff watch --stop-when-decided``): the samples
    the anytime-valid sequence needs to show a candidate that is truly as good noninferior,
    beside the fixed-n run's ``samples``."""
    from diagnosis.early_stop import expected_samples

    needed = expected_samples(samples, margin)
    if needed is None:
        return (
            f"stopping when decided: a candidate truly as good is not expected to be shown noninferior before "
            f"the last of {samples} samples (the anytime-valid interval is wider)"
        )
    return (
        f"stopping when decided: a candidate truly as good is shown noninferior after about {needed} of "
        f"{samples} samples (anytime-valid; the fixed-n interval needs all {samples})"
    )
