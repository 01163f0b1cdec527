"""The bake-off view's calibration panel and verdict, as pure Rich builders, and the critique
dialog (``w``: a verdict with a reason).

- ``verdict_block``: the one sentence answering "switch?", with why, what would settle it and
  the app's plain reading of the judge (beside the queue's gate, which stays the queue's);
- ``calibration_block``: what the person's pair labels bought: labelled and counted pairs,
  agreement, kappa, usable or why not, per side sensitivity/specificity with intervals, and
  per arm the printed win rate beside the corrected one (once usable) or how many more labels
  it needs; plus whether the figures match a recount from the samples.

Every platform string is drawn inert (``one_line`` into a plain ``Text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from application.bakeoffs.calibration import CalibrationPanel, Recomputed, labels_needed_sentence
from application.bakeoffs.decision import figure_lines
from application.bakeoffs.figures import interval_text, rate_text
from application.bakeoffs.verdict import DONT, SWITCH, Figure, Verdict
from common.format import DASH, plural
from common.safe_strings import one_line
from tui import bindings
from widgets.dialog import DialogScreen

__all__ = ["CritiqueDialog", "calibration_block", "verdict_block"]

_STYLE = {SWITCH: "bold green", DONT: "bold red"}
LABEL_KEYS = "c candidate better · b baseline better · = tie · w with a critique · u remove"


def verdict_block(verdict: Verdict, gate: Sequence[Figure] = ()) -> Text:
    """The decision (``application.bakeoffs.decision``): its sentence, what would settle it, the
    judge's reading, then each figure with the question it answers (the queue's ``gate`` too)."""
    text = Text("Switch? ", style="bold")
    text.append(one_line(verdict.sentence, 900), style=_STYLE.get(verdict.answer, "bold yellow"))
    if verdict.settle:
        text.append("\n  what would settle it: ", style="bold")
        text.append(one_line(verdict.settle, 600))
    if verdict.reading:
        text.append("\n  the app's reading of the judge: ", style="bold")
        text.append(one_line(verdict.reading, 400), style="yellow")
    for line in figure_lines(verdict):
        text.append("\n  " + one_line(line, 600), style="dim" if "decides nothing" in line else "")
    for figure in gate:
        text.append("\n    " + one_line(figure.line, 600), style="dim")
    return text


def calibration_block(panel: CalibrationPanel, recount: Recomputed | None = None) -> Text:
    text = Text("Calibration (your pair labels against the judge)", style="bold")
    text.append(
        f"\n  labelled pairs {panel.labelled} · counted {panel.counted or 0} · agreement "
        f"{rate_text(panel.agreement)} · kappa {rate_text(panel.kappa)} · "
    )
    if panel.usable:
        text.append("usable", style="green")
    else:
        text.append(f"not usable: {one_line(panel.reason or DASH, 160)}", style="yellow")
    for side in panel.sides:
        text.append(f"\n  {side.line()}")
    for arm in panel.arms:
        text.append(f"\n  {one_line(arm.key, 36)}: printed {rate_text(arm.printed)} {interval_text(arm.printed_ci)}")
        if arm.corrected is not None:
            text.append(" · corrected ", style="bold")
            text.append(f"{rate_text(arm.corrected)} {interval_text(arm.corrected_ci)}", style="bold green")
            if arm.floor_half_width is not None:
                text.append(f" (judge error alone ±{arm.floor_half_width:.3f})", style="dim")
        else:
            text.append(" · corrected —", style="dim")
    text.append(f"\n  {labels_needed_sentence(panel)}", style="italic")
    if recount is not None and panel.labelled:
        if recount.matches(panel):
            text.append(
                f"\n  recounted from the samples: {plural(recount.n, 'pair')}, "
                f"agreement {rate_text(recount.agreement)}, "
                f"kappa {rate_text(recount.kappa)}: same as the queue's",
                style="dim",
            )
        else:
            text.append(
                f"\n  recounted from the samples: {plural(recount.n, 'pair')}, "
                f"agreement {rate_text(recount.agreement)}, "
                f"kappa {rate_text(recount.kappa)}: NOT what the queue says",
                style="bold red",
            )
    text.append(f"\n  on a sample row: {LABEL_KEYS}", style="dim")
    return text


class CritiqueDialog(DialogScreen["tuple[str, str] | None"]):
    """A verdict with a critique: dismisses with (verdict, critique), or None when cancelled.
    Only what the person chooses is returned; nothing is preselected."""

    DEFAULT_CSS = """
    CritiqueDialog > #critique-dialog { width: 90; max-width: 95%; }
    CritiqueDialog #critique-title { margin-bottom: 1; }
    CritiqueDialog #critique-buttons { height: auto; margin-top: 1; }
    CritiqueDialog #critique-buttons Button { margin-right: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [bindings.cancel("critique")]

    def __init__(self, what: str) -> None:
        super().__init__()
        self._what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="critique-dialog", classes="dialog-box"):
            yield Static(
                Text(f"Your verdict on {one_line(self._what, 80)}, with why"),
                id="critique-title",
                classes="dialog-title",
            )
            yield Input(placeholder="why (at most 2000 characters)", max_length=2000, id="critique-text")
            with Horizontal(id="critique-buttons"):
                yield Button(Text("Candidate better"), id="critique-candidate", variant="primary")
                yield Button(Text("Baseline better"), id="critique-baseline", variant="primary")
                yield Button(Text("Tie"), id="critique-tie", variant="primary")
                yield Button(Text("Cancel"), id="critique-cancel")

    def on_mount(self) -> None:
        self.query_one("#critique-text", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#critique-candidate", Button).focus()  # the verdict is still the person's to pick

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choice = (event.button.id or "").removeprefix("critique-")
        if choice in ("candidate", "baseline", "tie"):
            critique = self.query_one("#critique-text", Input).value.strip()
            self.answer((choice, critique))
        else:
            self.answer(None)

    def action_cancel(self) -> None:
        self.answer(None)
