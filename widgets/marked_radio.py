"""A radio button whose choice reads without colour: ``◉`` chosen, ``○`` not (Textual's own
draws the same ``●`` in every button and tells them apart by colour alone)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import RadioButton

__all__ = ["MarkedRadioButton"]

CHOSEN, NOT_CHOSEN = "\u25c9", "\u25cb"


class MarkedRadioButton(RadioButton):
    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble((CHOSEN if self.value else NOT_CHOSEN, style))
