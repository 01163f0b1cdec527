"""The key bindings many screens share, written once.

Each screen names its area (the prefix of its binding ids: ``checkpoints``, ``runs.bench``, ...)
and places these where its footer wants them; the keys, actions and ids stay what tests and
keymaps know (``<area>.back``, ``<area>.refresh``, ``<area>.next_tab`` / ``.prev_tab``,
``<area>.down`` / ``.up``).
"""

from __future__ import annotations

from textual.binding import Binding


def back(area: str) -> Binding:
    """Escape leaves a pushed screen for the one below."""
    return Binding("escape", "app.pop_screen", "Back", id=f"{area}.back")


def refresh(area: str, description: str = "Refresh") -> Binding:
    """``r`` fetches the screen's data again now (``action_refresh``)."""
    return Binding("r", "refresh", description, id=f"{area}.refresh")


def tabs(area: str) -> list[Binding]:
    """``]`` / ``[`` move between the screen's tabs (``action_tab(step)``); only "Next tab" shows."""
    return [
        Binding("right_square_bracket", "tab(1)", "Next tab", id=f"{area}.next_tab"),
        Binding("left_square_bracket", "tab(-1)", "Prev tab", show=False, id=f"{area}.prev_tab"),
    ]


def vim_cursor(area: str) -> list[Binding]:
    """``j`` / ``k`` move the cursor of the screen's list (hidden from the footer)."""
    return [
        Binding("j", "cursor_down", "Down", show=False, id=f"{area}.down"),
        Binding("k", "cursor_up", "Up", show=False, id=f"{area}.up"),
    ]
