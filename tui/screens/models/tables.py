"""The Models screen's two lists: every model (the one the app is about marked, its chatroom
state) and every eval, one row each. Platform strings go through ``widgets.safe_text``; a
field the platform did not send is shown as "—", never guessed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.widgets import DataTable

from api_client.blahdev.shapes import Eval, Model
from common.format import DASH
from tui.screens.models.detail import chatroom_cell, yes_no
from widgets.fitted_table import FittedTable
from widgets.safe_text import one_line_text

__all__ = ["EVAL_COLUMNS", "MODEL_COLUMNS", "EvalTable", "ModelTable", "eval_row", "model_row"]

MODEL_COLUMNS = ("", "Name", "Id", "Template", "Chatroom", "Official")
EVAL_COLUMNS = ("Name", "Id", "Type", "Subject", "Instruction")


def model_row(model: Model, *, current_model_id: str, enabled: bool | None) -> tuple[Text, ...]:
    """Cells of the models table: mark, name, id, template, chatroom state, official."""
    mark = Text("◆" if model.id == current_model_id else "", end="")
    name = one_line_text(model.name or DASH, max_len=40, style="bold" if model.id == current_model_id else "")
    template = one_line_text(model.chat_template, max_len=16) if model.chat_template else Text("unknown", style="dim")
    return (
        mark,
        name,
        one_line_text(model.id, max_len=40),
        template,
        chatroom_cell(enabled),
        Text(yes_no(model.is_official), end=""),
    )


def eval_row(item: Eval) -> tuple[Text, ...]:
    """Cells of the evals table: name, id, type, subject, instruction type."""
    return (
        one_line_text(item.name or DASH, max_len=40),
        one_line_text(item.id, max_len=30),
        one_line_text(item.eval_type or DASH, max_len=12),
        one_line_text(item.subject or DASH, max_len=20),
        one_line_text(item.instruction_type or DASH, max_len=20),
    )


def highlighted_key(table: DataTable[Text]) -> str | None:
    """The key of the row under the table's cursor (None when the table is empty)."""
    if not table.row_count:
        return None
    row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return row_key.value


class ModelTable(FittedTable):
    """Every model, one row each; the cursor stays on its model across a refill."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.add_columns(*MODEL_COLUMNS)

    @property
    def highlighted_id(self) -> str | None:
        return highlighted_key(self)

    def show(self, models: Sequence[Model], *, current_model_id: str, enabled: Callable[[Model], bool | None]) -> None:
        keep = self.highlighted_id
        self.clear()
        for model in models:
            self.add_row(*model_row(model, current_model_id=current_model_id, enabled=enabled(model)), key=model.id)
        if keep is not None and any(m.id == keep for m in models):
            self.move_cursor(row=self.get_row_index(keep))


class EvalTable(FittedTable):
    """Every eval, one row each."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.add_columns(*EVAL_COLUMNS)

    def show(self, evals: Sequence[Eval]) -> None:
        self.clear()
        for item in evals:
            self.add_row(*eval_row(item), key=item.id)
