"""A checkbox whose state reads without colour: ``[x]`` ticked, ``[ ]`` not.

Textual's ``Checkbox`` draws the same ``▐X▌`` ticked or not and tells them apart by colour
only (the same trouble ``CheckList`` fixes for lists)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox

from widgets.check_list import CHECKED, UNCHECKED

__all__ = ["TickBox"]


class TickBox(Checkbox):
    @property
    def _button(self) -> Content:
        return Content.assemble((CHECKED if self.value else UNCHECKED, self.get_visual_style("toggle--button")))
