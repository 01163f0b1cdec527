"""A checkbox whose state reads without colour: ``[x]`` ticked, ``[ ]`` not.

Textual's ``Checkbox`` draws the same ``▐X▌`` ticked or not and tells them apart by colour
only (the same trouble ``CheckList`` fixes for lists). Under ``text-wrap: wrap`` a long label
wraps onto as many lines as it needs (Textual's is one line, cut), so a narrow form says it whole."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Checkbox

from widgets.check_list import CHECKED, UNCHECKED

__all__ = ["TickBox"]


class TickBox(Checkbox):
    @property
    def _button(self) -> Content:
        return Content.assemble((CHECKED if self.value else UNCHECKED, self.get_visual_style("toggle--button")))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Widget's own measure (the label as wrapped at ``width``), not ToggleButton's one line
        return Widget.get_content_height(self, container, viewport, width)
