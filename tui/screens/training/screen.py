"""The Training sets screen: every set on the platform, one set's detail, and ``b`` to build
a new set from the diagnosis suggestions (see ``training_build``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Static

from api_client.blahdev.shapes import TrainingSet
from api_client.errors import BlahError, NotFoundError
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import open_list, platform_work
from tui.screens.training.sets import TrainingSetDetail, TrainingSetTable
from widgets.footer import KeyFooter
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["TrainingSetsScreen"]


class TrainingSetsScreen(BlahScreen):
    """Top-level screen (command palette: "Training sets")."""

    SCREEN_TITLE = "Training sets"

    DEFAULT_CSS = """
    TrainingSetsScreen #ts-status { height: auto; padding: 0 1; color: $foreground-muted; }
    TrainingSetsScreen #ts-body { height: 1fr; }
    TrainingSetsScreen #ts-table { width: 3fr; height: 1fr; }
    TrainingSetsScreen #ts-side { width: 2fr; height: 1fr; border-left: solid $panel; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "build", "Build from suggestions", id="training.build"),
        bindings.refresh("training"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sets: list[TrainingSet] = []
        self.detail: TrainingSet | None = None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading…"), id="ts-status")
        with Horizontal(id="ts-body"):
            yield TrainingSetTable(id="ts-table")
            with VerticalScroll(id="ts-side"):
                yield TrainingSetDetail(Text("Highlight a set to see it.", style="italic"), id="ts-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        open_list(self, "#ts-table", self.load, lambda: self._status("offline: training sets are on the platform"))

    def _status(self, text: str) -> None:
        self.query_one("#ts-status", Static).update(Text(text))

    @platform_work(exclusive=True, group="training-load")
    async def load(self, client: BlahClient, select: str | None = None) -> None:
        try:
            sets = await client.list_training_sets()
        except BlahError as error:
            self._status(f"couldn't load: {describe_error(error)}")
            raise
        self.sets = sorted(sets, key=lambda s: (s.created_at or 0, s.id), reverse=True)
        self.query_one("#ts-table", TrainingSetTable).show(self.sets, select)
        if self.sets:
            self._status(f"{len(self.sets)} training sets, newest first · b builds one from the suggestions")
        else:
            self._status("the platform returned no training sets · b builds one from the suggestions")

    @on(DataTable.RowHighlighted, "#ts-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value:
            self.load_detail(event.row_key.value)

    @platform_work(exclusive=True, group="training-detail")
    async def load_detail(self, client: BlahClient, set_id: str) -> None:
        detail = self.query_one("#ts-detail", TrainingSetDetail)
        try:
            item = await client.get_training_set(set_id)
        except NotFoundError:
            detail.show_problem("couldn't load: the platform has no such set (any more)")
            return
        except BlahError as error:
            detail.show_problem(f"couldn't load: {describe_error(error)}")
            raise
        self.detail = item
        detail.show(item)

    def action_refresh(self) -> None:
        self.load()

    def action_build(self) -> None:
        from tui.screens.training.build import TrainingBuildScreen

        def back(_: object = None) -> None:
            self.load(select=screen.upload.uploaded_id)

        screen = TrainingBuildScreen()
        self.app.push_screen(screen, back)
