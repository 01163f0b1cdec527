"""Which completed suite run to publish: the person's, from the platform's run list.

Dismisses with the chosen run's id, or None."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static

from api_client.blobfish.shapes_bench import SuiteRun
from tui.screens.leaderboard.community_rows import SuiteRunOption, board_title
from widgets.dialog import ListDialog, list_keys

__all__ = ["SuiteRunPickerScreen"]


class SuiteRunPickerScreen(ListDialog[str]):
    """A list of completed suite runs; Enter chooses, Esc cancels."""

    DEFAULT_CSS = """
    SuiteRunPickerScreen > #pick-suite-dialog { width: 110; max-width: 95%; max-height: 90%; }
    SuiteRunPickerScreen #pick-suite-hint { margin-bottom: 1; }
    SuiteRunPickerScreen OptionList { height: auto; max-height: 16; }
    """

    BINDINGS: ClassVar[list[BindingType]] = list_keys("pick_suite")

    def __init__(self, slug: str, runs: Sequence[SuiteRun]) -> None:
        super().__init__()
        self._slug = slug
        self._runs = list(runs)

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-suite-dialog", classes="dialog-box"):
            yield Static(
                board_title("Publish which suite run of ", self._slug, "?"),
                id="pick-suite-title",
                classes="dialog-title",
            )
            yield Static(
                Text("Your completed suite runs, newest first. ⏎ choose · esc cancel"),
                id="pick-suite-hint",
                classes="dialog-hint",
            )
            yield OptionList(*(SuiteRunOption(run) for run in self._runs), id="pick-suite-list")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.answer(self._runs[event.option_index].run_id)
