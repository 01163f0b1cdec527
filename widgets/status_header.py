"""The one-line header of every screen: platform, model, connection state, screen title."""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from textual.widget import Widget

from widgets.safe_text import one_line

CONNECTION_STYLES = {
    "connected": ("●", "$success"),
    "connecting": ("◌", "$warning"),
    "error": ("✖", "$error"),
    "offline": ("○", "$foreground-muted"),
    "no such model": ("✖", "$error"),  # the platform answers, but has no such model
}


class StatusHeader(Widget):
    """Names the platform, the model and the connection state. All values are set by the
    app (``BlahApp`` pushes them with ``update_status``); untrusted text is sanitised."""

    DEFAULT_CSS = """
    StatusHeader {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    platform: reactive[str] = reactive("")
    model_id: reactive[str] = reactive("")
    connection: reactive[str] = reactive("connecting")
    detail: reactive[str] = reactive("")
    screen_title: reactive[str] = reactive("")
    muted_model: reactive[bool] = reactive(False)

    def render(self) -> RenderResult:
        symbol, _ = CONNECTION_STYLES.get(self.connection, ("?", ""))
        colour = {
            "connected": self.app.current_theme.success,
            "connecting": self.app.current_theme.warning,
            "error": self.app.current_theme.error,
            "no such model": self.app.current_theme.error,
        }.get(self.connection)
        full = self._line(colour, symbol, compact=False)
        if self.size.width and full.cell_len > self.size.width:
            return self._line(colour, symbol, compact=True)
        return full

    def _line(self, colour: str | None, symbol: str, *, compact: bool) -> Text:
        """The header; ``compact`` (a narrow terminal, 80 columns) drops the app's badge and puts
        the platform last, so what is cut is the least needed: the screen, the model and the
        connection state always show."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if not compact:
            text.append(" blah-tui ", style="bold reverse")
        text.append(f" {self.screen_title} ", style="bold")
        if not compact:
            text.append("│ ")
            text.append(one_line(self.platform, max_len=40))
        text.append("│ model " if compact else " │ model ")
        text.append(one_line(self.model_id, max_len=60), style="bold")
        if self.muted_model:
            text.append(" (muted in chatroom)", style="italic")
        text.append(" │ ")
        text.append(f"{symbol} {self.connection}", style=colour or "")
        if self.detail:
            text.append(f" ({one_line(self.detail, max_len=80)})", style="dim")
        if compact:
            text.append(" │ ")
            text.append(one_line(self.platform, max_len=40))
        return text
