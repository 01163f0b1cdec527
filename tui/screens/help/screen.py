"""`?`: the keys of the screen underneath (as remapped by the keymap, with their ids for the
``[keymap]`` table), the keys that work everywhere, and what each badge means."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static

from common.format import DASH
from tui.help import CONVENTIONS, KeyRow, active_key_rows
from widgets.badges import legend_text, theme_badge_styles
from widgets.safe_text import one_line


def _title_of(screen: Screen[object]) -> str:
    title = getattr(screen, "SCREEN_TITLE", "") or type(screen).__name__.removesuffix("Screen")
    return one_line(str(title), max_len=60)


class HelpScreen(ModalScreen[None]):
    """The help for ``target`` (the screen that was showing when `?` was pressed)."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > #help-box {
        width: 90%;
        max-width: 120;
        height: 90%;
        background: $surface;
        border: round $primary;
        padding: 0 1;
    }
    HelpScreen .help-heading {
        text-style: bold;
        color: $primary;
        margin-top: 1;
    }
    HelpScreen DataTable {
        height: auto;
        max-height: 24;
    }
    HelpScreen #help-hint {
        color: $foreground-muted;
        dock: bottom;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close"),
        Binding("j", "scroll('down')", "Down", show=False, id="help.down"),
        Binding("k", "scroll('up')", "Up", show=False, id="help.up"),
    ]

    def __init__(self, target: Screen[object]) -> None:
        super().__init__()
        self.target_title = _title_of(target)
        self.rows: list[KeyRow] = active_key_rows(target)
        self.legend = Text()  # painted on mount, in the theme's colours

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            with VerticalScroll(id="help-scroll"):
                yield Static(Text(f"Keys on {self.target_title}", style="bold"), id="help-title")
                if self.rows:
                    yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
                else:
                    yield Static(Text("This screen has no keys of its own."), classes="empty-state")
                yield Static(Text("Everywhere"), classes="help-heading")
                yield Static(self._conventions(), id="help-conventions")
                yield Static(Text("Badges"), classes="help-heading")
                yield Static(id="help-legend")
            yield Static(
                Text("esc/q/? close · remap any key by its id in the [keymap] table of the config file"),
                id="help-hint",
            )

    def on_mount(self) -> None:
        if self.rows:
            table = self.query_one("#help-keys", DataTable)
            table.add_columns(*(Text(label) for label in ("Key", "What it does", "Id (for [keymap])", "Where")))
            for row in self.rows:
                style = "" if row.enabled else "dim"
                table.add_row(
                    Text(row.key, style="bold " + style),
                    Text(row.description, style=style),
                    Text(row.binding_id or DASH, style="dim" if row.binding_id else "italic dim"),
                    Text(row.where, style=style),
                )
        self._paint_legend()
        self.watch(self.app, "theme", self._paint_legend, init=False)

    def _paint_legend(self, _theme: str | None = None) -> None:
        """Badges drawn in the current theme's colours, exactly as in the lists."""
        styles = theme_badge_styles(self.app.get_css_variables())
        self.legend = legend_text(styles)
        self.query_one("#help-legend", Static).update(self.legend)

    @staticmethod
    def _conventions() -> Text:
        width = max(len(key) for key, _ in CONVENTIONS) + 2
        lines = [Text.assemble((key.ljust(width), "bold"), what) for key, what in CONVENTIONS]
        return Text("\n").join(lines)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, direction: str) -> None:
        scroll = self.query_one("#help-scroll", VerticalScroll)
        if direction == "down":
            scroll.scroll_down()
        else:
            scroll.scroll_up()
