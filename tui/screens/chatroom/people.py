"""The chatroom's side panel and reply chooser: every model with its colour, the person's
model marked, muted ones flagged, and the loop count over its recent messages in the room.

Pure: builds ``Option``s and ``(label, value)`` pairs from data; the screen places them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from rich.text import Text
from textual.widgets.option_list import Option

from api_client.blahdev.shapes import Model
from application.chatroom.feed import ChatFeed, LoopVerdict
from tui.screens.chatroom.render import RoomStyles, author_colour
from widgets.badges import badge_text
from widgets.safe_text import one_line_text

__all__ = ["EVERYONE", "RECENT_WINDOW", "ordered_models", "people_options", "reply_from_options"]

EVERYONE = "__everyone__"
#: The loop count in the side panel is over this many of the model's latest messages.
RECENT_WINDOW = 20


def ordered_models(models: Iterable[Model], person_model_id: str) -> list[Model]:
    """The person's model first, then by name."""
    return sorted(models, key=lambda m: (m.id != person_model_id, (m.name or m.id).lower()))


def people_options(
    models: Iterable[Model],
    feed: ChatFeed,
    verdicts: Mapping[str, LoopVerdict | None],
    styles: RoomStyles,
    *,
    person_model_id: str,
    is_muted: Callable[[str], bool],
) -> list[Option]:
    rows: list[Option] = []
    for model in ordered_models(models, person_model_id):
        mine = model.id == person_model_id
        row = Text(end="")
        row.append("● ", style=author_colour(model.id, styles))
        row.append_text(one_line_text(model.name or model.id, max_len=24, style="bold" if mine else ""))
        if mine:
            row.append(" ◆", style="italic")
        if is_muted(model.id):
            row.append(" ")
            row.append_text(badge_text("muted"))
        spoken = feed.by_model(model.id)[-RECENT_WINDOW:]
        if spoken:
            looping = sum(1 for m in spoken if verdicts.get(m.id) is not None)
            row.append(f"\n  loops in {looping} of {len(spoken)} recent", style="dim")
        else:
            row.append("\n  no messages in the room", style="dim")
        rows.append(Option(row, id=model.id))
    return rows


def reply_from_options(
    models: Iterable[Model], *, person_model_id: str, is_muted: Callable[[str], bool]
) -> list[tuple[Text, str]]:
    options: list[tuple[Text, str]] = [(Text("Everyone (every unmuted model)"), EVERYONE)]
    for model in ordered_models(models, person_model_id):
        label = one_line_text(model.name or model.id, max_len=26)
        if is_muted(model.id):
            label.append(" (muted)", style="dim")
        options.append((label, model.id))
    return options
