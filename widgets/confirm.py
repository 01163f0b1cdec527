"""A reusable confirmation dialog for every write the app can make.

The TUI's screens do not push it themselves: every write asks through ``tui.send_once.SendOnce``
(guard, this dialog, send once, settle a lost answer)::

    if await self.write.confirm("Cancel run?", safe_text(f"Run {run_id} will stop."), label="Cancel run"):
        await self.write.send(...)

The dialog answers exactly once: the first confirm/cancel (key or click) dismisses it and every
later press is ignored, so a double key press can never fire the write twice. ``body`` may be a
``rich.text.Text`` (build untrusted parts with ``widgets.safe_text.safe_text``) or any Rich
renderable; a plain ``str`` is shown literally, never parsed as markup.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

__all__ = ["ConfirmScreen"]


class ConfirmScreen(ModalScreen[bool]):
    """Ask before a write. Dismisses with True (confirmed) or False (cancelled), once."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
    }
    ConfirmScreen > #confirm-dialog {
        width: 72;
        max-width: 90%;
        height: auto;
        max-height: 80%;
        border: thick $primary;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen.danger > #confirm-dialog {
        border: thick $error;
    }
    ConfirmScreen #confirm-title {
        text-style: bold;
        margin-bottom: 1;
    }
    ConfirmScreen #confirm-body {
        height: auto;
        max-height: 20;
        overflow-y: auto;
    }
    ConfirmScreen #confirm-buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }
    ConfirmScreen #confirm-buttons Button {
        margin-left: 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Yes", id="confirm.yes"),
        Binding("n,escape", "cancel", "No", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str | Text,
        body: RenderableType | str = "",
        *,
        confirm_label: str = "Confirm",
        cancel_label: str = "Cancel",
        danger: bool = False,
    ) -> None:
        super().__init__(classes="danger" if danger else None)
        self._title = title if isinstance(title, Text) else Text(title)
        self._body: RenderableType = Text(body) if isinstance(body, str) else body
        self._confirm_label = confirm_label
        self._cancel_label = cancel_label
        self._answered = False

    @property
    def answered(self) -> bool:
        """True once the dialog has given its (single) answer."""
        return self._answered

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(self._title, id="confirm-title", markup=False)
            yield Static(self._body, id="confirm-body", markup=False)
            with Horizontal(id="confirm-buttons"):
                yield Button(
                    Text(self._cancel_label), id="confirm-cancel", variant="default", compact=False
                )
                yield Button(
                    Text(self._confirm_label),
                    id="confirm-ok",
                    variant="error" if "danger" in self.classes else "primary",
                )

    def on_mount(self) -> None:
        for button in self.query("#confirm-cancel").results(Button):  # none when closed as it opened
            button.focus()

    def _answer(self, value: bool) -> None:
        if self._answered:
            return
        self._answered = True
        for button in self.query(Button):
            button.disabled = True
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._answer(event.button.id == "confirm-ok")

    def action_confirm(self) -> None:
        self._answer(True)

    def action_cancel(self) -> None:
        self._answer(False)


class WideConfirmScreen(ConfirmScreen):
    """A confirmation wide and tall enough for a long body (what a bake-off spends on): the
    body scrolls within the screen so the buttons stay in view at 80x24."""

    DEFAULT_CSS = """
    WideConfirmScreen > #confirm-dialog { width: 110; max-width: 98%; max-height: 98%; padding: 0 1; }
    WideConfirmScreen #confirm-title { margin-bottom: 0; }
    WideConfirmScreen #confirm-body { max-height: 70vh; }
    WideConfirmScreen #confirm-buttons { margin-top: 0; }
    """
