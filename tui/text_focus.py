"""Esc's one rule for text boxes: while a person types in one, printable keys are text; Esc
leaves the box and gives every key back to the screen (its areas, its own keys, `q`).

Shared by the app (its Esc binding) and the screens (where the keys go after Esc)."""

from __future__ import annotations

import sys
from typing import Any

from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

__all__ = ["TEXT_AREA_MODULE", "is_text_box", "leave_text_box", "typing_in"]

TEXT_AREA_MODULE = "textual.widgets._text_area"
"""Where Textual defines TextArea. Not imported here: the app checks for a text box at start-up,
and TextArea (with its document and syntax modules) is ~20 ms that only the screens that have
one need; until one of them has imported it, no widget can be a TextArea."""


def is_text_box(node: DOMNode | None) -> bool:
    """An editable text box: an Input, or a TextArea that is not read-only."""
    text_area = sys.modules.get(TEXT_AREA_MODULE)
    if text_area is not None and isinstance(node, text_area.TextArea):
        return not node.read_only
    return isinstance(node, Input)


def typing_in(screen: Screen[Any]) -> bool:
    """Whether the focused widget of ``screen`` is a text box (printable keys type text)."""
    return is_text_box(screen.focused)


def leave_text_box(screen: Screen[Any], target: Widget | None = None) -> None:
    """Move the focus out of the text box: to ``target``, else to the first focusable widget
    that is not a text box, else to nothing (the screen's and the app's keys then apply)."""
    if target is None or not target.focusable:
        target = next((widget for widget in screen.focus_chain if not is_text_box(widget)), None)
    screen.set_focus(target)
