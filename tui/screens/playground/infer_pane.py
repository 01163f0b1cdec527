"""The Playground's Infer tab: one prompt and an optional token limit, sent with ctrl+s or the
button. The pane checks what was written and asks the screen to send it (``InferPane.Send``);
the screen makes the call and sets ``busy`` while it is in flight."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Label, TabPane, TextArea

__all__ = ["InferPane"]


class InferPane(TabPane):
    """The prompt (``#infer-prompt``), the limit (``#infer-max``) and the send button."""

    DEFAULT_CSS = """
    InferPane #infer-prompt { height: 8; }
    InferPane #infer-controls { height: auto; }
    InferPane #infer-controls Label { padding: 1 1 0 1; }
    InferPane #infer-max { width: 26; }
    """

    @dataclass
    class Send(Message):
        """Send this prompt (checked: not blank; ``max_tokens`` None or above 0)."""

        prompt: str
        max_tokens: int | None

    def __init__(self, title: str = "Infer", *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self._busy = False

    def compose(self) -> ComposeResult:
        yield TextArea(id="infer-prompt", soft_wrap=True, show_line_numbers=False)
        with Horizontal(id="infer-controls"):
            yield Label(Text("max tokens"))
            yield Input(id="infer-max", type="integer", placeholder="platform default", select_on_focus=False)
            yield Button(Text("Send (ctrl+s)"), id="infer-send", variant="primary")

    @property
    def busy(self) -> bool:
        """A call is in flight: sending again does nothing, and the button says so."""
        return self._busy

    @busy.setter
    def busy(self, value: bool) -> None:
        self._busy = value
        self.query_one("#infer-send", Button).disabled = value

    def send(self) -> None:
        """Check the prompt and the limit (a notification says what is wrong), then post
        ``Send``. Nothing while a call is in flight."""
        if self._busy:
            return
        prompt = self.query_one("#infer-prompt", TextArea).text
        if not prompt.strip():
            self.notify("Write a prompt first", severity="warning", markup=False)
            return
        raw_max = self.query_one("#infer-max", Input).value.strip()
        max_tokens: int | None = None
        if raw_max:
            try:
                max_tokens = int(raw_max)
            except ValueError:
                max_tokens = 0
            if max_tokens <= 0:
                self.notify("max tokens must be a whole number above 0 (or empty)", severity="error", markup=False)
                return
        self.post_message(self.Send(prompt, max_tokens))

    @on(Button.Pressed, "#infer-send")
    def _send_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.send()
