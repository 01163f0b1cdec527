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
from textual.containers import Vertical
from textual.widgets import Button, Static

from widgets.dialog import DialogScreen, answer_buttons

__all__ = ["ConfirmScreen"]


class ConfirmScreen(DialogScreen[bool]):
    """Ask before a write. Dismisses with True (confirmed) or False (cancelled), once."""

    DEFAULT_CSS = """
    ConfirmScreen > #confirm-dialog {
        width: 72;
        max-width: 90%;
        max-height: 80%;
    }
    ConfirmScreen.danger > #confirm-dialog {
        border: thick $error;
    }
    ConfirmScreen #confirm-title {
        margin-bottom: 1;
    }
    ConfirmScreen #confirm-body {
        height: auto;
        max-height: 45vh;  /* scrolls within, so the buttons stay in view at 80x24 */
        overflow-y: auto;
    }
    ConfirmScreen #confirm-buttons {
        margin-top: 1;
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

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog", classes="dialog-box"):
            yield Static(self._title, id="confirm-title", classes="dialog-title", markup=False)
            yield Static(self._body, id="confirm-body", markup=False)
            yield answer_buttons(
                "confirm",
                self._confirm_label,
                cancel_label=self._cancel_label,
                ok_variant="error" if "danger" in self.classes else "primary",
            )

    def on_mount(self) -> None:
        for button in self.query("#confirm-cancel").results(Button):  # none when closed as it opened
            button.focus()

    def answer(self, result: bool) -> None:
        if not self.answered:
            for button in self.query(Button):
                button.disabled = True
        super().answer(result)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.answer(event.button.id == "confirm-ok")

    def action_confirm(self) -> None:
        self.answer(True)

    def action_cancel(self) -> None:
        self.answer(False)


class WideConfirmScreen(ConfirmScreen):
    """A confirmation wide and tall enough for a long body (what a bake-off spends on): the
    body scrolls within the screen so the buttons stay in view at 80x24."""

    DEFAULT_CSS = """
    WideConfirmScreen > #confirm-dialog { width: 110; max-width: 98%; max-height: 98%; padding: 0 1; }
    WideConfirmScreen #confirm-title { margin-bottom: 0; }
    WideConfirmScreen #confirm-body { max-height: 70vh; }
    WideConfirmScreen #confirm-buttons { margin-top: 0; }
    """
