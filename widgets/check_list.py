"""A multi-select list whose state reads without colour: ``[x]`` chosen, ``[ ]`` not.

Textual's ``SelectionList`` draws the same ``▐X▌`` for chosen and unchosen items and tells
them apart by colour only; in a light theme, a monochrome terminal or for a person who
does not see the difference, every item looks chosen.
"""

from __future__ import annotations

from typing import TypeVar

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import SelectionList

__all__ = ["CheckList", "selected_count_text"]

T = TypeVar("T")

CHECKED = "[x]"
UNCHECKED = "[ ]"


def selected_count_text(selected: int, total: int) -> str:
    return f"{selected} of {total} selected"


class CheckList(SelectionList[T]):
    """``SelectionList`` with ``[x]``/``[ ]`` in place of its colour-only toggle button."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        index = self.scroll_offset.y + y
        if index >= self.option_count or len(segments) < 4:
            return strip
        value = self.get_option_at_index(index).value
        mark = CHECKED if value in self.selected else UNCHECKED
        button_style = segments[1].style  # keeps the highlight and the option's click meta
        # The three cells of the original button (left cap, X, right cap) become the mark.
        return Strip([Segment(mark, button_style), *segments[3:]], strip.cell_length)
