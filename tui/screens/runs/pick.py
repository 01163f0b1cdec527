"""Choose models: for a new run (the person's own preselected) or peers to compare against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from api_client.blahdev.shapes import Model
from tui import bindings
from tui.cell_format import short
from widgets.check_list import CheckList, selected_count_text
from widgets.dialog import answer_buttons
from widgets.form_dialog import FormDialog
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from tui.base_screen import BlahScreen

__all__ = ["ModelPickerScreen", "ask_for_models", "model_label"]


def model_label(model: Model, *, own_id: str | None = None) -> Text:
    """``Name (id)`` as inert text, with a mark on the person's own model."""
    text = Text(end="")
    name = short(model.name, 50) if model.name else None
    text.append(name or one_line(model.id, max_len=60), style="bold" if model.id == own_id else "")
    if name:
        text.append(f"  {one_line(model.id, max_len=60)}", style="dim")
    if model.id == own_id:
        text.append("  ◀ your model", style="italic")
    return text


class ModelPickerScreen(FormDialog[list[str]]):
    """A selection list of models. Dismisses with the chosen ids (in list order) or None."""

    DEFAULT_CSS = """
    ModelPickerScreen > #pick-dialog { width: 90; max-width: 95%; max-height: 90%; }
    ModelPickerScreen #pick-hint { margin-bottom: 1; }
    ModelPickerScreen #pick-count { height: 1; text-style: bold; }
    ModelPickerScreen SelectionList { height: auto; max-height: 20; }
    ModelPickerScreen #pick-buttons { margin-top: 1; }
    """

    BINDINGS = [
        Binding("y", "accept", "Continue", id="pick.accept"),
        bindings.cancel("pick"),
        *bindings.vim_cursor("pick", "down", "up"),
    ]
    ERROR_ID = "pick-error"
    OK_ID = "pick-ok"

    def __init__(
        self,
        models: Sequence[Model],
        *,
        title: str,
        hint: str,
        preselected: Sequence[str] = (),
        own_id: str | None = None,
        exclude: Sequence[str] = (),
        min_selected: int = 1,
        max_selected: int | None = None,
    ) -> None:
        super().__init__()
        self._models = [m for m in models if m.id not in exclude]
        self._title = title
        self._hint = hint
        self._preselected = set(preselected)
        self._own_id = own_id
        self._min = min_selected
        self._max = max_selected

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-dialog", classes="dialog-box"):
            yield Static(Text(self._title), id="pick-title", classes="dialog-title")
            yield Static(Text(self._hint), id="pick-hint", classes="dialog-hint")
            yield Static("", id="pick-count")
            yield CheckList[str](
                *(
                    Selection(model_label(m, own_id=self._own_id), m.id, m.id in self._preselected)
                    for m in self._models
                ),
                id="pick-list",
            )
            yield Static("", id="pick-error", classes="dialog-error")
            yield answer_buttons("pick", "Continue (y)")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()
        self._show_count()

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self._show_count()

    def _show_count(self) -> None:
        count = selected_count_text(len(self.chosen()), len(self._models))
        if self._max is not None:
            count += f" (at most {self._max})"
        self.query_one("#pick-count", Static).update(Text(count))

    def chosen(self) -> list[str]:
        selected = set(self.query_one(SelectionList).selected)
        return [m.id for m in self._models if m.id in selected]

    def action_down(self) -> None:
        self.query_one(SelectionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(SelectionList).action_cursor_up()

    def request(self) -> tuple[list[str] | None, str | None]:
        """``y`` or Continue: the chosen ids, when there are as many as asked for."""
        chosen = self.chosen()
        if len(chosen) < self._min:
            return None, f"Choose at least {self._min} model{'s' if self._min > 1 else ''}."
        if self._max is not None and len(chosen) > self._max:
            return None, f"Choose at most {self._max} model{'s' if self._max > 1 else ''}."
        return chosen, None


async def ask_for_models(
    screen: BlahScreen,
    *,
    title: str,
    hint: str,
    preselected: Sequence[str] = (),
    own_id: str | None = None,
    exclude: Sequence[str] = (),
    max_selected: int | None = None,
) -> list[str] | None:
    """Lists the platform's models and waits for the person's choice (at least one); None when
    cancelled, or offline (nothing to list). Call it from a worker of ``screen``; a failed
    listing raises the client's ``BlahError``."""
    client = screen.ctx.client
    if client is None:
        return None
    models = await client.list_models()
    picker = ModelPickerScreen(
        models,
        title=title,
        hint=hint,
        preselected=preselected,
        own_id=own_id,
        exclude=exclude,
        min_selected=1,
        max_selected=max_selected,
    )
    return await screen.app.push_screen_wait(picker)
