"""``FormDialog``: a modal form that answers once, with what was asked or None.

A dialog that starts a job (a benchmark run, a bake-off) builds its request from its fields;
a field that is wrong is said inline and the dialog stays open; Enter in a field or the OK
button accept, Esc or Cancel dismiss. Either answers once: a second press while the answer is
on its way does nothing, so one dialog never starts two jobs.
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual.widgets import Button, Input, Static

from widgets.dialog import DialogScreen

__all__ = ["FormDialog"]

RequestT = TypeVar("RequestT")


class FormDialog(DialogScreen[RequestT | None], Generic[RequestT]):
    """Subclasses compose their fields, a ``Static`` with id ``ERROR_ID`` for the inline
    refusal and a ``Button`` with id ``OK_ID``; they implement :meth:`request`.

    The frame (box, title, hint, error line, buttons) is ``DialogScreen``'s."""

    ERROR_ID: ClassVar[str] = "form-error"
    OK_ID: ClassVar[str] = "form-ok"

    def request(self) -> tuple[RequestT | None, str | None]:
        """The request the fields make, or None with the sentence saying what is wrong."""
        raise NotImplementedError

    def action_accept(self) -> None:
        if self._answered:
            return
        request, problem = self.request()
        if request is None:
            self.query_one(f"#{self.ERROR_ID}", Static).update(Text(problem or ""))
            return
        self.answer(request)

    def action_cancel(self) -> None:
        self.answer(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_accept()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == self.OK_ID:
            self.action_accept()
        else:
            self.action_cancel()
