"""Which model the chatroom's ``m`` acts on, and the line that names it before the key is
pressed (issue 31: after a mute, the highlight moved off screen and ``m`` offered another model).

The target is the highlighted model of the side list when the list has the keys; otherwise the
model of the highlighted message, but only while that message is on screen."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import OptionList

from widgets.safe_text import one_line_text

ChatroomScreen = Any
"""The chatroom screen (not imported: it imports this module)."""

__all__ = ["highlight_on_screen", "mute_target", "mute_target_line"]


def highlight_on_screen(room: OptionList) -> bool:
    """Whether the highlighted option has a line inside the list's visible part."""
    index = room.highlighted
    if index is None:
        return False
    try:
        top = room._index_to_line[index]
        height = room._heights[index]
    except (KeyError, AttributeError):
        return False
    first, last = room.scroll_offset.y, room.scroll_offset.y + room.scrollable_content_region.height
    return top < last and top + height > first


def mute_target(screen: ChatroomScreen) -> str | None:
    people = screen.query_one("#people", OptionList)
    if screen.focused is people:
        option = people.highlighted_option
        return option.id if option is not None and not option.disabled else None
    if not highlight_on_screen(screen.room):
        return None
    message = screen.highlighted_message()
    return message.model_id if message is not None else None


def mute_target_line(screen: ChatroomScreen, model_id: str | None) -> Text:
    if not model_id:
        return Text("m mutes or unmutes the model of a message you highlight (or of a model in the list)")
    model = screen.models.get(model_id)
    name = (model.name if model is not None else None) or model_id
    line = Text("m ", end="")
    line.append("unmutes " if screen.is_muted(model_id) else "mutes ")
    line.append_text(one_line_text(name, max_len=60, style="bold"))
    line.append(
        " (in the list)"
        if screen.focused is screen.query_one("#people", OptionList)
        else " (the highlighted message's model)"
    )
    return line
