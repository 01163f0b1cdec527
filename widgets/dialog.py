"""``DialogScreen``: what every modal dialog shares: its frame, styled once, and one answer.

A dialog composes one box with class ``dialog-box`` (centred on the dimmed screen, with the
dialog border; the dialog gives its width and, where it differs, its padding), and inside it
what it needs of ``dialog-title``, ``dialog-hint``, ``dialog-error`` (a refusal said inline) and
``dialog-buttons`` (a right-aligned row). Ids stay the dialog's own, for tests and its own rules.

A dialog answers once (:meth:`answer`): a second key press or click while the first answer is
on its way does nothing, so one dialog never sends two answers.

``ListDialog``: a dialog that picks from one list: Esc answers None, j/k move the cursor
(``list_keys(prefix)`` gives those keys, with the dialog's own binding ids).
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.text import Text
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList
from textual.widgets.button import ButtonVariant

from widgets.keys import cancel_key, vim_cursor

__all__ = ["DialogScreen", "ListDialog", "answer_buttons", "list_keys"]

ResultT = TypeVar("ResultT")


class DialogScreen(ModalScreen[ResultT], Generic[ResultT]):
    DEFAULT_CSS = """
    DialogScreen { align: center middle; }
    DialogScreen > .dialog-box { height: auto; border: thick $primary; background: $surface; padding: 1 2; }
    DialogScreen .dialog-title { text-style: bold; }
    DialogScreen .dialog-hint { color: $foreground-muted; }
    DialogScreen .dialog-error { color: $error; height: auto; }
    DialogScreen .dialog-buttons { height: auto; align-horizontal: right; }
    DialogScreen .dialog-buttons Button { margin-left: 2; }
    """

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._answered = False

    @property
    def answered(self) -> bool:
        """True once the dialog has given its (single) answer."""
        return self._answered

    def answer(self, result: ResultT) -> None:
        """Dismiss with ``result``, unless the dialog has answered already."""
        if self._answered:
            return
        self._answered = True
        self.dismiss(result)


def list_keys(prefix: str) -> list[BindingType]:
    """The keys of a ``ListDialog``: Esc cancels; j and k move the list's cursor (as the arrows do)."""
    return [
        cancel_key(prefix),
        *vim_cursor(prefix, "down", "up"),
    ]


class ListDialog(DialogScreen[ResultT | None]):
    """A dialog that picks from its one ``OptionList``; Esc answers None. Its BINDINGS are
    ``list_keys(prefix)`` (and any of its own)."""

    def action_cancel(self) -> None:
        self.answer(None)

    def action_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()


def answer_buttons(
    prefix: str,
    ok_label: str,
    *,
    ok: str = "ok",
    cancel: str = "cancel",
    cancel_label: str = "Cancel",
    ok_variant: ButtonVariant = "primary",
    compact: bool = False,
) -> Horizontal:
    """A dialog's row of two buttons, ``#<prefix>-buttons``: ``#<prefix>-<cancel>`` then the
    answering one, ``#<prefix>-<ok>``, right-aligned."""
    return Horizontal(
        Button(Text(cancel_label), id=f"{prefix}-{cancel}", compact=compact),
        Button(Text(ok_label), id=f"{prefix}-{ok}", variant=ok_variant, compact=compact),
        id=f"{prefix}-buttons",
        classes="dialog-buttons",
    )
