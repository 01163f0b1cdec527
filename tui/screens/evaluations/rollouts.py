"""One evaluation's rollouts: reward, grade, steps, tool calls, findings. Enter replays a
rollout; ``x`` exports the rollout under the cursor, ``X`` the whole evaluation, as JSONL."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from application.evaluations.evidence import Evaluation, Rollout
from common.format import plural
from diagnosis.rollouts import EvaluationDiagnosis, RolloutDiagnosis
from tui import bindings
from tui.screens.evaluations.exporting import EvaluationExportScreen, export_bindings
from tui.screens.evaluations.tables import RolloutTable, title_line
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["RolloutsScreen", "evaluation_title"]


def evaluation_title(evaluation: Evaluation) -> Text:
    summary = evaluation.summary
    return title_line(
        "evaluation",
        one_line(summary.evaluation_id, max_len=40),
        ("", one_line(evaluation.taskset or "—", max_len=30)),
        ("model", one_line(summary.model or "—", max_len=40)),
        ("mean reward", "—" if summary.mean_reward is None else f"{summary.mean_reward:.2f}"),
    )


class RolloutsScreen(bindings.RowAction, EvaluationExportScreen):
    SCREEN_TITLE = "Evaluations · rollouts"

    DEFAULT_CSS = """
    RolloutsScreen #ro-title { height: 1; padding: 0 1; background: $panel; }
    RolloutsScreen #ro-summary { height: 1; padding: 0 1; }
    RolloutsScreen #ro-table { height: 1fr; }
    """

    ROW_ACTION = "replay"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True, id="rollouts.replay"),
        *export_bindings("rollouts"),
    ]

    def __init__(self, evaluation: Evaluation, diagnosis: EvaluationDiagnosis) -> None:
        super().__init__(evaluation)
        self.diagnosis = diagnosis

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(evaluation_title(self.evaluation), id="ro-title", markup=False)
        yield Static(self._summary(), id="ro-summary", markup=False)
        yield RolloutTable(self.diagnosis.rollouts, id="ro-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def _summary(self) -> Text:
        d = self.diagnosis
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{plural(len(d.rollouts), 'rollout')}", style="bold")
        text.append(
            f"   failed {d.failed_rollouts}   ungraded {d.ungraded_rollouts}   "
            f"tool loops {d.tool_loop_rollouts}   failed tool calls "
        )
        text.append("none made" if not d.tool_calls else f"{d.failed_tool_calls}/{d.tool_calls}")
        return text

    def _current(self) -> RolloutDiagnosis | None:
        table = self.query_one("#ro-table", RolloutTable)
        rollouts = self.diagnosis.rollouts
        return rollouts[table.cursor_row] if rollouts and 0 <= table.cursor_row < len(rollouts) else None

    def action_replay(self) -> None:
        current = self._current()
        if current is not None:
            from tui.screens.evaluations.replay import ReplayScreen

            self.app.push_screen(ReplayScreen(self.evaluation, current))

    def rollout_in_view(self) -> Rollout | None:
        current = self._current()
        return None if current is None else current.rollout
