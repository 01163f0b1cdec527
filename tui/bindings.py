"""The key bindings many screens share, written once: a verb keeps its key on every screen.

Each screen names its area (the prefix of its binding ids: ``checkpoints``, ``runs.bench``, ...)
and places these where its footer wants them; its own list declares only the keys no other screen
has. The keys, actions and ids stay what tests and keymaps know (``<area>.back``,
``<area>.refresh``, ``<area>.open``, ``<area>.export``, ...). Where the word in the footer or the
method differs by screen (what Enter opens, what ``d`` deletes), the screen passes it; the key and
the id are the verb's. ``cancel`` and ``vim_cursor`` are the widgets' own (``widgets/keys.py``),
so a dialog, a table and a screen say them alike.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList

from widgets.keys import cancel_key as cancel
from widgets.keys import vim_cursor

if TYPE_CHECKING:
    from textual.widgets import DataTable

__all__ = [
    "DATA_TABLE_MODULE",
    "RowAction",
    "VimCursor",
    "back",
    "cancel",
    "cancel_run",
    "close",
    "delete",
    "export",
    "follow",
    "leave_input",
    "mute",
    "new",
    "open_row",
    "pick_model",
    "publish",
    "refresh",
    "results",
    "resume",
    "search",
    "sort_by",
    "submit",
    "tabs",
    "vim_cursor",
]


def back(area: str, action: str = "app.pop_screen") -> Binding:
    """Escape leaves a pushed screen for the one below (``action="back"``: the screen's own
    ``action_back``, which does its part first)."""
    return Binding("escape", action, "Back", id=f"{area}.back")


def close(area: str) -> Binding:
    """Escape closes a form without sending it."""
    return Binding("escape", "close", "Close", id=f"{area}.close")


def leave_input(area: str, description: str = "Leave the text box") -> Binding:
    """Escape moves the focus out of the screen's text box."""
    return Binding("escape", "leave_input", description, id=f"{area}.leave_input")


def submit(area: str, description: str, *, action: str = "submit", priority: bool = False) -> Binding:
    """``ctrl+s`` sends the form (each form confirms first where the send spends or writes)."""
    return Binding("ctrl+s", action, description, priority=priority, id=f"{area}.submit")


def open_row(area: str, description: str = "Open", *, action: str = "open", priority: bool = False) -> Binding:
    """Enter opens the highlighted row (what it opens is the screen's)."""
    return Binding("enter", action, description, priority=priority, id=f"{area}.open")


def results(area: str, action: str, description: str) -> Binding:
    """``v`` shows the results of what the screen is about."""
    return Binding("v", action, description, id=f"{area}.results")


def search(area: str) -> Binding:
    """``/`` opens the screen's search box."""
    return Binding("slash", "search", "Search", id=f"{area}.search")


def sort_by(area: str, key: str, column: str) -> Binding:
    """A key that sorts the screen's table by one column (``action_sort(column)``)."""
    return Binding(key, f"sort('{column}')", f"Sort {column}", id=f"{area}.sort_{column}")


def follow(area: str, description: str = "Follow", *, show: bool = True) -> Binding:
    """``f`` keeps the newest line in view as lines arrive."""
    return Binding("f", "follow", description, show=show, id=f"{area}.follow")


def export(area: str, description: str, *, action: str = "export") -> Binding:
    """``x`` writes what the screen shows to a file."""
    return Binding("x", action, description, id=f"{area}.export")


def publish(area: str) -> Binding:
    """``P`` publishes what the screen shows (after a confirmation)."""
    return Binding("P", "publish", "Publish", id=f"{area}.publish")


def new(area: str, action: str, description: str) -> Binding:
    """``n`` starts a new one of what the screen lists."""
    return Binding("n", action, description, id=f"{area}.new")


def delete(area: str, action: str, description: str) -> Binding:
    """``d`` deletes the highlighted one (after a confirmation)."""
    return Binding("d", action, description, id=f"{area}.delete")


def cancel_run(area: str, description: str = "Cancel run") -> Binding:
    """``c`` cancels the run in view (after a confirmation)."""
    return Binding("c", "cancel_run", description, id=f"{area}.cancel")


def resume(area: str) -> Binding:
    """``R`` resumes the run in view."""
    return Binding("R", "resume", "Resume", id=f"{area}.resume")


def mute(area: str) -> Binding:
    """``m`` mutes or unmutes the highlighted model."""
    return Binding("m", "toggle_mute", "Mute/unmute", id=f"{area}.mute")


def pick_model(area: str) -> Binding:
    """``m`` picks another model for the screen to be about."""
    return Binding("m", "pick_model", "Other model", id=f"{area}.model")


def refresh(area: str, description: str = "Refresh") -> Binding:
    """``r`` fetches the screen's data again now (``action_refresh``)."""
    return Binding("r", "refresh", description, id=f"{area}.refresh")


def tabs(area: str) -> list[Binding]:
    """``]`` / ``[`` move between the screen's tabs (``action_tab(step)``); only "Next tab" shows."""
    return [
        Binding("right_square_bracket", "tab(1)", "Next tab", id=f"{area}.next_tab"),
        Binding("left_square_bracket", "tab(-1)", "Prev tab", show=False, id=f"{area}.prev_tab"),
    ]


DATA_TABLE_MODULE = "textual.widgets._data_table"
"""Where Textual defines DataTable. Not imported here: every screen's keys come from this module,
the Logs screen (the app's first) has no table, and until a screen with one has imported it, no
widget can be a DataTable."""


def _cursor_lists() -> tuple[type[Any], ...]:
    """The widget types whose cursor ``j`` / ``k`` move: DataTable (once loaded) and OptionList."""
    data_table = sys.modules.get(DATA_TABLE_MODULE)
    return (OptionList,) if data_table is None else (data_table.DataTable, OptionList)


class VimCursor:
    """The actions of :func:`vim_cursor`, for a screen to inherit: ``j`` / ``k`` move the cursor of
    the focused list (a ``DataTable`` or an ``OptionList``), or of the screen's ``CURSOR_LIST`` (a
    selector) while the focus is elsewhere; with no ``CURSOR_LIST``, nothing moves then."""

    CURSOR_LIST: ClassVar[str | None] = None

    def _cursor_list(self) -> DataTable[Any] | OptionList | None:
        screen = cast("Screen[Any]", self)
        focused = screen.focused
        lists = _cursor_lists()
        if isinstance(focused, lists):
            return cast("DataTable[Any] | OptionList", focused)
        if self.CURSOR_LIST is None:
            return None
        # Textual checks the type with isinstance (a tuple works); its overloads name one type only
        return screen.query_one(self.CURSOR_LIST, lists)  # type: ignore[call-overload]

    def action_cursor_down(self) -> None:
        if (target := self._cursor_list()) is not None:
            target.action_cursor_down()

    def action_cursor_up(self) -> None:
        if (target := self._cursor_list()) is not None:
            target.action_cursor_up()


class RowAction:
    """For a screen whose Enter acts on its table's row: a ``DataTable`` keeps Enter for itself and
    says ``RowSelected`` (on Enter, or a click on the cursor row), so choosing a row runs the
    screen's ``action_<ROW_ACTION>``, the action its own Enter key names."""

    ROW_ACTION: ClassVar[str]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        getattr(self, f"action_{self.ROW_ACTION}")()
