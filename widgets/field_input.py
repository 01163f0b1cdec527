"""``FieldInput``: an ``Input`` whose typing repaints the field alone, not the whole screen.

Textual's ``Input`` sets its virtual size (the text's width) on every change of its value, and
``virtual_size`` is a reactive that asks for a layout of the whole screen. A one-line field of a
fixed size (``height: 1`` compact or 3, any width but ``auto``) is arranged the same whatever its
text: the layout's only effect on it is to clamp its horizontal scroll to the new, shorter text
(``Widget._scroll_update``). Here the virtual size repaints, and the clamp is done at once. Measured
in the New bake-off dialog at 160x48: one layout of the dialog per key less (see the commit).
The scroll is the same as the layout's: the cursor is then scrolled into view from a start no
further right than the layout would clamp it to, which ends where the layout's clamp does.
A field whose width or height is ``auto`` still lays out (``Input`` does it itself).
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input

__all__ = ["FieldInput"]


class FieldInput(Input):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def _watch_value(self, value: str) -> None:
        super()._watch_value(value)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)  # what the skipped layout would clamp
