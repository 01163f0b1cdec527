"""The bake-off view's panels of the run read (``detail_texts``): its head line, its results
(per-candidate or per-model blocks, the assertions), the queue's gate and a comparison of two
runs, each a separate panel of the view (one key reaches each; the verdict is drawn between the
head and the results). All pure Rich builders: the win/tie/loss bar, the interval against the
50% line, each block.

Every platform string goes through ``safe_strings.one_line`` into a plain ``Text`` (never
markup); a figure the platform did not send is a dash with why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widgets import Static

from application.bakeoffs.assertions import AssertionRow, assertion_rows
from application.bakeoffs.gate import GateLine, gate_headline, gate_lines, gate_thresholds, thresholds_text
from application.bakeoffs.new_run.hints import population_text
from application.bakeoffs.progress import RunProgress
from application.bakeoffs.readings import SwitchReadings
from application.bakeoffs.results import (
    MISSING,
    CandidateRow,
    CriterionRow,
    JudgeFigures,
    candidate_rows,
    criterion_rows,
    judge_figures,
    win_verdict,
)
from application.bakeoffs.samples import SampleRow, cap_sentence
from application.bakeoffs.words import baseline_text, metric_text, micros_usd_text, model_text
from common.format import DASH, format_latency
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = [
    "DetailTexts",
    "RunPanel",
    "assertions_block",
    "candidate_block",
    "comparison_block",
    "criterion_block",
    "detail_texts",
    "gate_block",
    "head_block",
    "interval_axis",
    "readings_text",
    "results_block",
    "wtl_bar",
]

AXIS = 25
BAR = 20


def wtl_bar(wins: int | None, ties: int | None, losses: int | None, width: int = BAR) -> Text:
    """Wins █, ties ▒, losses ░ in proportion; a dash line when a count is missing."""
    if wins is None or ties is None or losses is None or wins + ties + losses == 0:
        return Text("·" * width, style="dim")
    total = wins + ties + losses
    w = round(width * wins / total)
    t = round(width * (wins + ties) / total) - w
    bar = Text()
    bar.append("█" * w, style="green")
    bar.append("▒" * t, style="yellow")
    bar.append("░" * (width - w - t), style="red")
    return bar


def interval_axis(
    rate: float | None, ci: tuple[float, float] | None, width: int = AXIS, line: float | None = 0.5
) -> Text:
    """0..1 on ``width`` cells: ━ across the interval, ● at the rate, │ at ``line`` (50%)."""
    cells = ["·"] * width

    def at(value: float) -> int:
        return min(width - 1, max(0, round(value * (width - 1))))

    if ci is not None:
        for k in range(at(ci[0]), at(ci[1]) + 1):
            cells[k] = "━"
    if line is not None:
        cells[at(line)] = "│" if cells[at(line)] == "·" else "┿"
    if rate is not None:
        cells[at(rate)] = "●"
    return Text("0[" + "".join(cells) + "]1")


def _rate(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


def _ci(value: Sequence[float] | None) -> str:
    return "[—, —]" if value is None else f"[{value[0]:.3f}, {value[1]:.3f}]"


def _count(value: int | None) -> str:
    return DASH if value is None else str(value)


def _money(micros: int | None) -> str:
    return micros_usd_text(micros)


def candidate_block(row: CandidateRow, cap_line: str | None) -> Text:
    text = Text(one_line(row.key, 40), style="bold")
    if row.model and row.model != row.key:
        text.append(f" ({one_line(row.model, 40)})", style="dim")
    text.append("\n  ")
    text.append_text(wtl_bar(row.wins, row.ties, row.losses))
    text.append(f" wins {_count(row.wins)} · ties {_count(row.ties)} · losses {_count(row.losses)}\n  ")
    text.append_text(interval_axis(row.win_rate, row.ci))
    text.append(f" win rate {_rate(row.win_rate)} {_ci(row.ci)} · {win_verdict(row.ci)}\n  ")
    unreportable = DASH if row.unreportable is None else ("yes" if row.unreportable else "no")
    savings = DASH if row.savings_pct is None else f"{row.savings_pct:+.1f}%"
    text.append(
        f"failed {_count(row.failed)} · unreportable {unreportable} · truncated {_count(row.truncated)} · "
        f"latency {format_latency(row.latency_ms)} · cost {_money(row.cost_micros)} · savings {savings}"
    )
    missing = [
        name
        for name, value in (("latency", row.latency_ms), ("cost", row.cost_micros), ("savings", row.savings_pct))
        if value is None
    ]
    if missing:
        text.append(f" ({', '.join(missing)}: {MISSING})", style="dim")
    text.append("\n  ")
    if row.disagreement is None or row.position_bias is None:
        text.append(f"orderings disagreed: {DASH} · position bias: {DASH} (the pairwise sheet: {MISSING})", style="dim")
    else:
        text.append(
            f"the two orderings disagreed on {row.disagreement * 100:.0f}% of pairs "
            f"({row.disagreeing_pairs} of {row.read_pairs}) · position bias {row.position_bias:+.1f} points "
            "(picks of the first shown minus the second)"
        )
    if cap_line:
        text.append("\n  ")
        text.append(one_line(cap_line, 120), style="italic")
    return text


def criterion_block(rows: Sequence[CriterionRow], judge: JudgeFigures | None) -> Text:
    text = Text()
    if judge is None:
        text.append(f"frozen judge: {MISSING}", style="dim")
    else:
        text.append(
            f"frozen judge {one_line(judge.name or DASH, 40)}: TPR {_rate(judge.tpr)} · "
            f"TNR {_rate(judge.tnr)} · kappa {_rate(judge.kappa)}"
        )
    for row in rows:
        text.append("\n")
        text.append(one_line(model_text(row.model), 40), style="bold")
        text.append(
            f"  pass {_count(row.judged_pass)} · fail {_count(row.judged_fail)} · unparsed "
            f"{_count(row.unparsed)} · truncated {_count(row.truncated)}\n  "
        )
        text.append_text(_both_axis(row))
        text.append(
            f" observed ○ {_rate(row.observed)} {_ci(row.observed_ci)} · corrected ● "
            f"{_rate(row.corrected)} {_ci(row.corrected_ci)}\n  correction: {row.correction}"
        )
    return text


def _both_axis(row: CriterionRow, width: int = AXIS) -> Text:
    """Observed ○ and corrected ● with their intervals on one 0..1 axis."""
    cells = ["·"] * width

    def at(value: float) -> int:
        return min(width - 1, max(0, round(value * (width - 1))))

    for ci, mark in ((row.observed_ci, "─"), (row.corrected_ci, "━")):
        if ci is not None:
            for k in range(at(ci[0]), at(ci[1]) + 1):
                cells[k] = mark
    if row.observed is not None:
        cells[at(row.observed)] = "○"
    if row.corrected is not None:
        cells[at(row.corrected)] = "●"
    return Text("0[" + "".join(cells) + "]1")


def gate_block(
    headline: str, lines: Sequence[GateLine], threshold: float, what: str = "win rate", others: str = ""
) -> Text:
    """The queue's gate: each check it returned (win rate, pass rate, assertion pass rate,
    noninferiority) with what it required, what it found and its note."""
    text = Text(f"Gate (min {what} {threshold:.2f}; t changes it{' · ' + others if others else ''}): ", style="bold")
    text.append(one_line(headline, 200), style="green" if headline.startswith("gate PASS") else "red")
    for line in lines:
        text.append(
            f"\n  {'pass' if line.passed else 'FAIL'}  {one_line(line.kind or line.check, 24)} "
            f"{one_line(line.model, 32)}: {line.required_word} {line.required} · {line.actual_word} "
            f"{line.lower_bound}"
        )
        if line.note:
            text.append(f" · {one_line(line.note, 160)}", style="dim")
    return text


def assertions_block(rows: Sequence[AssertionRow], configured: int, sent: bool = False) -> Text:
    """Per model: answers passing every assertion, and each assertion's count. ``sent``: the
    queue sent an ``assertion_results`` block (read into ``rows`` when its shape is known)."""
    text = Text("Assertions", style="bold")
    text.append(" (deterministic, checked on every answer; free)")
    if not rows:
        said = (
            "the queue's results for them are in a shape this app does not read (bakeoff show prints them)"
            if sent
            else "the queue sent no results for them"
        )
        text.append(f"\n  {configured} configured; {said}", style="dim")
    for row in rows:
        rate = DASH if row.pass_rate is None else f"{row.pass_rate * 100:.0f}%"
        text.append(
            f"\n  {one_line(model_text(row.model), 32)}: "
            f"all passed {_count(row.passed_all)}/{_count(row.answers)} ({rate})"
        )
        parts = [f"{one_line(name, 48)} {_count(passed)}/{_count(row.answers)}" for name, passed in row.per_assertion]
        if parts:
            text.append(" · " + " · ".join(parts), style="dim")
    return text


def comparison_block(comparison: assumed.Comparison) -> Text:
    a, b = comparison.a or {}, comparison.b or {}
    text = Text("Compared: before ", style="bold")
    text.append(one_line(str(a.get("id") or DASH), 30))
    text.append(" → after ", style="bold")
    text.append(one_line(str(b.get("id") or DASH), 30))
    text.append("  (before: the run marked first with x; X swaps them)", style="dim")
    for label, side in (("before", a), ("after", b)):
        name, created = side.get("name"), side.get("created_at")
        if name or created:
            text.append(
                f"\n  {label}: {one_line(str(name or DASH), 60)}"
                f"{f' · created {one_line(str(created), 30)}' if created else ''}",
                style="dim",
            )
    if not comparison.rows:
        text.append("\n  no arm is in both runs")
    for row in comparison.rows:
        before = row.a.rate if row.a else None
        after = row.b.rate if row.b else None
        delta = DASH if row.delta is None else f"{row.delta:+.3f}"
        word = DASH if row.significant is None else ("changed" if row.significant else "no detectable change")
        text.append(
            f"\n  {one_line(model_text(row.arm), 32)} {one_line(metric_text(row.metric), 20)}: "
            f"{_rate(before)} → {_rate(after)} · after − before {delta} "
            f"{_ci(row.delta_ci or None)} · {word}"
        )
    for which in ("a", "b"):
        keys = (comparison.unmatched or {}).get(which) or []
        if keys:
            text.append(
                f"\n  only in {which}: {one_line(', '.join(model_text(str(k)) for k in keys), 120)}", style="dim"
            )
    return text


@dataclass(frozen=True)
class DetailTexts:
    """The run's panels as drawn, each its own widget in the view (so one key reaches each):
    ``head`` (id, name, status), ``results`` (the setup, each candidate's or model's block, the
    assertions), ``gate`` (the queue's gate) and ``comparison`` (two runs compared, or the run
    marked before). An empty ``Text`` is a panel this run does not have."""

    head: Text
    results: Text
    gate: Text
    comparison: Text

    def whole(self) -> Text:
        """The panels in the view's order (without the verdict, which is drawn between the head
        and the results by ``LabelActions``), blank-line separated."""
        return Text("\n\n").join(part for part in (self.head, self.results, self.gate, self.comparison) if part)


def head_block(run: assumed.Run, progress: RunProgress) -> Text:
    """One line (where it fits): which run, and where it is, so the verdict under it is read as
    this run's."""
    text = Text(f"{one_line(run.id, 30)} · ", style="bold")
    text.append(one_line(run.name or DASH, 60), style="bold")
    text.append(f" · {progress.describe(run.status, run.progress_ratio)}")
    if run.error:
        text.append(f" · {one_line(run.error, 200)}", style="red")
    return text


def results_block(run: assumed.Run, samples: Sequence[SampleRow], pairwise: Any) -> Text:
    """The setup (baseline, judge, samples, cap, population) and the results as the platform
    sent them: per candidate, or per model for a criterion run; then the assertions."""
    text = Text(
        f"baseline {one_line(baseline_text(run.baseline_model), 40)} · judge "
        f"{one_line(run.judge_model or DASH, 40)} · "
        f"{run.sample_count if run.sample_count is not None else DASH} samples · output cap "
        f"{f'{run.max_output_tokens:,}' if run.max_output_tokens is not None else DASH} tokens"
    )
    text.append(f"\n{one_line(population_text(run), 200)}", style="dim")
    if run.status != "DONE":
        text.append(
            "\n\nno results yet: they come when the run is DONE"
            if not run.terminal
            else f"\n\nno results: the run ended {one_line(run.status or '?', 12)}",
            style="dim",
        )
    elif run.eval_kind == "criterion":
        text.append("\n\n")
        text.append_text(criterion_block(criterion_rows(run), judge_figures(run)))
    else:
        for row in candidate_rows(run, pairwise):
            text.append("\n\n")
            text.append_text(candidate_block(row, cap_sentence(samples, row.key, run.max_output_tokens)))
    if run.status == "DONE" and run.assertions:
        text.append("\n\n")
        text.append_text(
            assertions_block(
                assertion_rows(run), len(run.assertions), bool(run.results and run.results.assertion_results)
            )
        )
    return text


def detail_texts(
    run: assumed.Run,
    *,
    progress: RunProgress,
    gate: tuple[int, Any] | None,
    threshold: float,
    samples: Sequence[SampleRow],
    pairwise: Any,
    comparison: assumed.Comparison | None,
    before_id: str | None,
) -> DetailTexts:
    """``run``'s panels (``gate``: the queue's status code and verdict, none until read;
    ``samples``: the loaded samples, for the cap sentence)."""
    gate_text = Text("")
    if gate is not None:
        status, verdict = gate
        others = {
            k: v for k, v in gate_thresholds(run, threshold).items() if k not in ("min_win_rate", "min_pass_rate")
        }
        gate_text = gate_block(
            gate_headline(status, verdict),
            gate_lines(verdict),
            threshold,
            "pass rate" if run.eval_kind == "criterion" else "win rate",
            thresholds_text(others),
        )
    compared = Text("")
    if comparison is not None:
        compared = comparison_block(comparison)
    elif before_id is not None:
        compared = Text(f"before: {one_line(before_id, 30)} (x on another finished run compares)", style="dim")
    return DetailTexts(head_block(run, progress), results_block(run, samples, pairwise), gate_text, compared)


class RunPanel(Static):
    """One panel of the run's scroll pane (the verdict, the results, the gate, ...): ``draw``
    shows its text, and a panel with nothing to say takes no room, so the panel keys and the
    scroll pane see only what is drawn."""

    def __init__(self, *, id: str) -> None:
        super().__init__(Text(""), id=id)
        self.display = False  # until it has something to say

    def draw(self, text: Text) -> None:
        self.update(text)
        self.display = bool(text.plain)


# The app's own reading of a finished bake-off, drawn under the calibration (its panel
# ``#bakeoff-readings``, redrawn after each label): per candidate the judge's biases from the
# swapped pairs already paid for, and (with pair labels) the prediction-powered win rate beside
# the queue's corrected one (``application.bakeoffs.readings``). Never instead of the queue's
# numbers: headed as ours. (The paired difference is one of the verdict's figures, drawn with it.)

_LEANING = ("leans to", "favours the", "its kin", "not shown noninferior")


def readings_text(readings: SwitchReadings | None) -> Text:
    """The panel's text; empty until a finished run's samples are read."""
    arms = [(arm.arm, arm.sentences()) for arm in readings.arms] if readings is not None else []
    if readings is None or not any(said for _, said in arms):  # the paired difference is the verdict's figure
        return Text("")
    text = Text("The app's own reading", style="bold")
    text.append(" (beside the queue's numbers, not instead of them)\n", style="dim")
    for name, said in arms:
        if not said:
            continue
        text.append(one_line(name, 60), style="bold")
        text.append("\n")
        for sentence in said:
            text.append(
                "  " + one_line(sentence, 240) + "\n", style="yellow" if any(w in sentence for w in _LEANING) else ""
            )
    for note in readings.notes:
        text.append(one_line(note, 240) + "\n", style="dim")
    text.rstrip()
    return text
