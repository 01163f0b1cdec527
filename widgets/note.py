"""``show_text``: a ``Static`` told its (plain) text again repaints only what changed.

``Static.update`` asks for a layout of the whole screen on every call, even when the text is
the same or keeps its height. A form's live notes (a plan line, a warning, a refusal) are told
their text on every key press; measured in the New bake-off dialog at 160x48, that layout
was most of a key's CPU. Here, the same text does nothing, and a text of the same height at
the same width, or any text while the widget is not displayed, repaints the widget alone (the
screen's arrangement cannot change; displaying it again is a style change, which lays it out);
otherwise it is ``Static.update`` as before. What is shown is the same either way.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

__all__ = ["show_text"]

_SHOWN = "_show_text_shown"


def show_text(static: Static, text: str) -> None:
    """Show ``text`` (never markup) in ``static``, laying the screen out again only when its height changes."""
    shown = getattr(static, _SHOWN, None)
    if shown is not None and shown[0] == text and static.content is shown[1]:
        return  # told the same, and nothing else updated it since
    content = Text(text)
    setattr(static, _SHOWN, (text, content))
    styles = static.styles
    width = static.content_size.width
    fixed = styles.max_height is None and styles.min_height is None
    if not static.display:
        static.update(content, layout=False)  # not arranged; showing it (a class, a style) lays it out
    elif width and fixed and styles.height is not None and styles.height.is_auto:
        height = static.content_size.height
        static.update(content, layout=False)  # the measures cached for the old text are cleared
        if static.get_content_height(static.container_size, static.app.size, width) != height:
            static.refresh(layout=True)
    else:
        static.update(content)
