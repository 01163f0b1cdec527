"""The keys widgets share with the screens, written once (the screens get them through
``tui/bindings.py``, beside the verbs only screens have): Esc cancels a dialog, ``j`` / ``k``
move a list's cursor. Each caller names the prefix of the binding ids."""

from __future__ import annotations

from textual.binding import Binding

__all__ = ["cancel_key", "vim_cursor"]


def cancel_key(prefix: str) -> Binding:
    """Esc cancels a dialog (``action_cancel``: it answers nothing)."""
    return Binding("escape", "cancel", "Cancel", id=f"{prefix}.cancel")


def vim_cursor(prefix: str, down: str = "cursor_down", up: str = "cursor_up") -> list[Binding]:
    """``j`` / ``k`` move the cursor of a list (hidden from the footer)."""
    return [
        Binding("j", down, "Down", show=False, id=f"{prefix}.down"),
        Binding("k", up, "Up", show=False, id=f"{prefix}.up"),
    ]
