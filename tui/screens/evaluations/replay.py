"""Replay of one rollout: its steps beside the step under the cursor, read from the record.

The step list (left) and the step (right): prompt, tool calls with their recorded results,
final answer, tokens, captured training samples, findings; below, the rollout's structured
grade. ``n``/``p`` walk the steps, Enter opens the step in the Inspector (the same one a
blah.dev call opens in), ``x``/``X`` export the rollout / the whole evaluation as JSONL.
Replay never runs a tool call again: the banner says so.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from application.evaluations.evidence import Evaluation, Rollout, RolloutStep
from application.evaluations.inspect import REPLAY_NOTE, RolloutSteps
from common.format import plural
from diagnosis.rollouts import RolloutDiagnosis
from tui.screens.evaluations.exporting import EvaluationExportScreen, export_bindings
from tui.screens.evaluations.replay_panels import FindingsPanel, GradePanel, StepPanel, step_text
from tui.screens.evaluations.tables import clip, title_line, verdict
from widgets.badges import badges_text
from widgets.footer import KeyFooter
from widgets.row_list import RowList
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["ReplayScreen"]


def rollout_title(evaluation: Evaluation, diagnosis: RolloutDiagnosis) -> Text:
    rollout = diagnosis.rollout
    return title_line(
        "rollout",
        one_line(rollout.rollout_id, max_len=40),
        ("", one_line(rollout.task_id or "—", max_len=40)),
        ("reward", "—" if rollout.reward is None else f"{rollout.reward:g}"),
        ("", verdict(rollout.grade)),
        (f"{plural(len(rollout.steps), 'step')}", None),
    )


def _what(step: RolloutStep) -> Text:
    """What the step did, in about 14 cells: its tool (and how many more, how many failed),
    else its answer."""
    if step.tool_calls:
        failed = sum(call.failed for call in step.tool_calls)
        more = f" +{len(step.tool_calls) - 1}" if len(step.tool_calls) > 1 else ""
        text = Text(clip(step.tool_calls[0].name or "tool", 12 - len(more)) + more)
        if failed:
            text.append(f" ✖{failed}", style="bold red")
        return text
    if step.final_answer is None:
        return Text("—", style="dim")
    return Text("answer" if step.final_answer.strip() else "empty answer", style="bold")


STEP_HEADER = Text("   #  turn  what            tokens  findings")


def step_row(position: int, step: RolloutStep, kinds: list[str]) -> Text:
    """One line of the step list, in the columns of ``STEP_HEADER``."""
    text = Text(no_wrap=True)
    text.append(f"{position + 1:>4} {'—' if step.turn is None else step.turn:>5}  ")
    what = _what(step)
    what.truncate(14, pad=True)
    text.append_text(what)
    text.append(f"  {'—' if step.completion_tokens is None else f'{step.completion_tokens:,}':>6}  ")
    text.append_text(badges_text(kinds))
    return text


class ReplayScreen(EvaluationExportScreen):
    SCREEN_TITLE = "Evaluations · replay"

    DEFAULT_CSS = """
    ReplayScreen #rp-title { height: 1; padding: 0 1; background: $panel; }
    ReplayScreen #rp-banner { height: 1; padding: 0 1; color: $warning; text-style: bold; }
    ReplayScreen #rp-steps { width: 46; height: 1fr; }
    ReplayScreen #rp-side { width: 1fr; height: 1fr; border-left: vkey $panel-lighten-1; padding: 0 1; }
    ReplayScreen .rp-section { text-style: bold; color: $primary; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "step(1)", "Next step", id="replay.next"),
        Binding("p", "step(-1)", "Previous step", id="replay.previous"),
        Binding("enter", "inspect", "Inspector", priority=True, id="replay.inspect"),
        *export_bindings("replay"),
    ]

    def __init__(self, evaluation: Evaluation, diagnosis: RolloutDiagnosis) -> None:
        super().__init__(evaluation)
        self.diagnosis = diagnosis
        self.steps = RolloutSteps(evaluation, diagnosis.rollout, diagnosis)
        self.position = 0

    @property
    def step(self) -> RolloutStep | None:
        steps = self.diagnosis.rollout.steps
        return steps[self.position] if 0 <= self.position < len(steps) else None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(rollout_title(self.evaluation, self.diagnosis), id="rp-title", markup=False)
        yield Static(Text(REPLAY_NOTE), id="rp-banner", markup=False)
        with Horizontal():
            rollout = self.diagnosis.rollout
            yield RowList(len(rollout.steps), self._step_row, STEP_HEADER, id="rp-steps")
            with VerticalScroll(id="rp-side"):
                yield StepPanel(id="rp-step", markup=False)
                yield Static(Text("Rollout grade"), classes="rp-section", markup=False)
                yield GradePanel(rollout.grade, id="rp-grade")
                yield Static(Text("Rollout findings"), classes="rp-section", markup=False)
                yield FindingsPanel(
                    diagnosis_rollout_findings(self.diagnosis),
                    "no tool-call loop, no failed tool call",
                    id="rp-findings",
                )
        yield KeyFooter()

    def _step_row(self, position: int) -> Text:
        step = self.diagnosis.rollout.steps[position]
        return step_row(position, step, [f.kind for f in self.diagnosis.findings_at(step.index)])

    def on_mount(self) -> None:
        self._show_step()
        self.query_one("#rp-steps", RowList).focus()

    def _show_step(self) -> None:
        step = self.step
        panel = self.query_one("#rp-step", StepPanel)
        if step is None:
            panel.show_no_steps()
            return
        rollout = self.diagnosis.rollout
        panel.update(
            step_text(
                step,
                self.position,
                len(rollout.steps),
                rollout.max_tokens,
                self.diagnosis.findings_at(step.index),
                rollout.grade,
            )
        )
        self.query_one("#rp-side", VerticalScroll).scroll_home(animate=False)

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        event.stop()
        if event.index != self.position:
            self.position = event.index
            self._show_step()

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        event.stop()
        self.action_inspect()

    def action_step(self, delta: int) -> None:
        total = len(self.diagnosis.rollout.steps)
        target = self.position + delta
        if not 0 <= target < total:
            self.notify("this is the last step" if delta > 0 else "this is the first step", markup=False, timeout=2)
            return
        self.query_one("#rp-steps", RowList).move_to(target)

    def action_inspect(self) -> None:
        step = self.step
        if step is None:
            return
        from tui.screens.inspector.screen import InspectorScreen

        def back(step_id: str | None) -> None:
            target = self.steps.step(step_id) if step_id else None
            if target is not None:
                index = self.diagnosis.rollout.steps.index(target)
                self.query_one("#rp-steps", RowList).move_to(index)

        self.app.push_screen(InspectorScreen(self.steps.ids[self.position], source=self.steps), back)

    def rollout_in_view(self) -> Rollout:
        return self.diagnosis.rollout


def diagnosis_rollout_findings(diagnosis: RolloutDiagnosis) -> list:
    """The findings about the rollout as a whole: tool-call loops and failed tool calls."""
    return [*diagnosis.tool_loops, *diagnosis.rollout_findings]
