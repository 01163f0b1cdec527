"""Models and evals: search, list, read the details, switch the model the app is about,
mute/unmute in the chatroom, register a new model. Playground and Games are one key away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from api_client.blahdev.shapes import Eval, Model
from api_client.errors import BlahError
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import open_list, platform_work
from tui.screens.chatroom.mute import MuteFlow
from tui.screens.models.detail import ModelDetail
from tui.screens.models.register import RegisterModelScreen
from tui.screens.models.tables import EvalTable, ModelTable
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["ModelsScreen"]


class ModelsScreen(bindings.VimCursor, BlahScreen):
    """Top-level screen (key 6)."""

    AUTO_FOCUS = "#models-table"
    """The table, not the search box above it: keys pressed as the screen opens are commands."""

    SCREEN_TITLE = "Models & evals"

    DEFAULT_CSS = """
    ModelsScreen #models-search { margin: 0 1; }
    ModelsScreen #models-status { height: 1; padding: 0 1; color: $foreground-muted; }
    ModelsScreen #models-body { height: 1fr; }
    ModelsScreen #models-lists { width: 3fr; }
    ModelsScreen .list-title { height: 1; padding: 0 1; text-style: bold; }
    ModelsScreen #models-table { height: 1fr; }
    ModelsScreen #evals-table { height: 1fr; }
    ModelsScreen #models-detail { width: 2fr; border-left: solid $panel; padding: 0 1; }
    """

    CURSOR_LIST = "#models-table"  # j / k move the models while the focus is outside the tables
    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.search("models"),
        Binding("s", "switch_model", "Switch to model", id="models.switch"),
        bindings.mute("models"),
        Binding("n", "register", "Register", id="models.register"),
        Binding("p", "playground", "Playground", id="models.playground"),
        Binding("g", "games", "Games", id="models.games"),
        bindings.refresh("models"),
        *bindings.vim_cursor("models"),
        Binding("escape", "leave_search", "Back to list", id="models.leave_search"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.models: list[Model] = []
        self.evals: list[Eval] = []
        self.query_text = ""
        self.mute_flow = MuteFlow()
        self._detail_for: str | None = None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Input(placeholder="Search models and evals… (Enter; empty shows everything)", id="models-search")
        yield Static(Text("loading…", end=""), id="models-status")
        with Horizontal(id="models-body"):
            with Vertical(id="models-lists"):
                yield Static(Text("Models"), classes="list-title")
                yield ModelTable(id="models-table")
                yield Static(Text("Evals"), classes="list-title")
                yield EvalTable(id="evals-table")
            with VerticalScroll(id="models-detail"):
                yield ModelDetail(
                    Text("Highlight a model or an eval to read it.", style="italic"), id="models-detail-body"
                )
        yield KeyFooter()

    def on_mount(self) -> None:
        open_list(
            self,
            "#models-table",
            self.load,
            lambda: self._status(Text("offline: models and evals need the platform", style="italic")),
        )

    # ----------------------------------------------------------------- data

    def _status(self, text: Text) -> None:
        self.query_one("#models-status", Static).update(text)

    @platform_work(exclusive=True, group="models-load")
    async def load(self, client: BlahClient, query: str = "") -> None:
        self._status(Text("loading…", end=""))
        try:
            if query:
                found = await client.search(query)
                models, evals = list(found.models), list(found.evals)
            else:
                models = await client.list_models()
                evals = await client.list_evals()
        except BlahError as error:
            self._status(Text(f"couldn't load: {describe_error(error)}", end=""))
            raise
        self.query_text = query
        self.models, self.evals = models, evals
        for model in models:
            self.blah_app.note_chatroom_enabled(model.id, model.chatroom_enabled)
        self._fill_models()
        self._fill_evals()
        self._status(self._summary())

    def _summary(self) -> Text:
        models = f"{len(self.models)} model{'s' if len(self.models) != 1 else ''}"
        evals = f"{len(self.evals)} eval{'s' if len(self.evals) != 1 else ''}"
        if not self.query_text:
            line = Text(f"every model ({models}) and eval ({evals}) on the platform", end="")
        else:
            line = Text(f"search “{one_line(self.query_text, max_len=60)}”: {models}, {evals}", end="")
        if not self.models:
            line.append(
                " · the platform returned no models" + (" for this search" if self.query_text else ""), style="bold"
            )
        if not self.evals:
            line.append(
                " · the platform returned no evals" + (" for this search" if self.query_text else ""), style="bold"
            )
        return line

    def _enabled(self, model: Model) -> bool | None:
        known = self.blah_app.chatroom_enabled.get(model.id)
        return known if known is not None else model.chatroom_enabled

    def _fill_models(self) -> None:
        self.query_one("#models-table", ModelTable).show(
            self.models, current_model_id=self.ctx.model_id, enabled=self._enabled
        )

    def _fill_evals(self) -> None:
        self.query_one("#evals-table", EvalTable).show(self.evals)

    def highlighted_model_id(self) -> str | None:
        return self.query_one("#models-table", ModelTable).highlighted_id

    def highlighted_model(self) -> Model | None:
        model_id = self.highlighted_model_id()
        return next((m for m in self.models if m.id == model_id), None)

    @property
    def _detail(self) -> ModelDetail:
        return self.query_one("#models-detail-body", ModelDetail)

    def _show_model_detail(self, model: Model) -> None:
        self._detail.show_model(model, current_model_id=self.ctx.model_id, enabled=self._enabled(model))

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The detail follows the list being read: the focused one (at first, the models)."""
        table = event.data_table
        first_look = self._detail_for is None and table.id == "models-table"
        if (table.has_focus or first_look) and event.row_key.value is not None:
            self._show_row(table, event.row_key.value)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        table = event.widget
        if isinstance(table, DataTable) and table.row_count:
            row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
            if row_key.value is not None:
                self._show_row(table, row_key.value)

    def _show_row(self, table: DataTable[Text], key: str) -> None:
        if table.id == "models-table":
            model = next((m for m in self.models if m.id == key), None)
            if model is None:
                return
            self._detail_for = model.id
            self._show_model_detail(model)
            self.load_model_detail(model.id)
        else:
            item = next((e for e in self.evals if e.id == key), None)
            if item is None:
                return
            self._detail_for = item.id
            self._detail.show_eval(item)
            self.load_eval_detail(item.id)

    @platform_work(exclusive=True, group="models-detail")
    async def load_model_detail(self, client: BlahClient, model_id: str) -> None:
        model = await client.get_model(model_id)
        self.blah_app.note_chatroom_enabled(model.id, model.chatroom_enabled)
        self.models = [model if m.id == model.id else m for m in self.models]
        if self._detail_for == model_id:
            self._show_model_detail(model)

    @platform_work(exclusive=True, group="models-detail")
    async def load_eval_detail(self, client: BlahClient, eval_id: str) -> None:
        item = await client.get_eval(eval_id)
        if self._detail_for == eval_id:
            self._detail.show_eval(item)

    def on_model_switched(self, model_id: str) -> None:
        self._redraw_models()

    def on_model_state_changed(self, model_id: str) -> None:
        self._redraw_models()

    def _redraw_models(self) -> None:
        self._fill_models()
        model = self.highlighted_model()
        if model is not None and self._detail_for == model.id:
            self._show_model_detail(model)

    # ----------------------------------------------------------------- actions

    @on(Input.Submitted, "#models-search")
    def _search(self, event: Input.Submitted) -> None:
        self.load(event.value.strip())
        self.query_one("#models-table", DataTable).focus()

    def action_search(self) -> None:
        self.set_focus(self.query_one("#models-search", Input))  # at once: typing follows

    def action_leave_search(self) -> None:
        self.query_one("#models-table", DataTable).focus()

    def action_refresh(self) -> None:
        self.load(self.query_text)

    def action_switch_model(self) -> None:
        model_id = self.highlighted_model_id()
        if model_id is None:
            self.notify("No model highlighted", severity="warning", markup=False)
            return
        if model_id == self.ctx.model_id:
            self.notify("The app is already about this model", markup=False)
            return
        self.blah_app.switch_model(model_id)

    def action_toggle_mute(self) -> None:
        model = self.highlighted_model()
        if model is None:
            self.notify("No model highlighted", severity="warning", markup=False)
            return
        if self.mute_flow.busy(model.id):
            return
        self.mute_model(model.id, model.name, enable=self._enabled(model) is False)

    @work(group="models-mute", exit_on_error=False)
    async def mute_model(self, model_id: str, name: str | None, enable: bool) -> None:
        await self.mute_flow.run(self, model_id, name, enable)

    def action_register(self) -> None:
        self.app.push_screen(RegisterModelScreen(self.ctx), self._registered)

    def _registered(self, model: Model | None) -> None:
        if model is None:
            return
        self.models = [*(m for m in self.models if m.id != model.id), model]
        self._fill_models()
        table = self.query_one("#models-table", DataTable)
        table.move_cursor(row=table.get_row_index(model.id))
        table.focus()
        self.notify(
            f"Registered {one_line(model.name or model.id, max_len=60)} as {one_line(model.id, max_len=60)}",
            markup=False,
        )

    def action_playground(self) -> None:
        from tui.screens.playground.screen import PlaygroundScreen

        model_id = self.highlighted_model_id() or self.ctx.model_id
        self.app.push_screen(PlaygroundScreen(model_id=model_id))

    def action_games(self) -> None:
        self.app.switch_mode("games")
