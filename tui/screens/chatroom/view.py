"""The room's message list: an ``OptionList`` of rendered messages (one option per message,
keyed by its id) that follows the bottom while the highlight is on the newest message, and
counts what arrived below while the person reads further up.

It renders from the screen's ``ChatFeed``; the screen decides what is muted and which model
is the person's (``RoomContext``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textual.widgets import OptionList
from textual.widgets.option_list import Option

from api_client.blahdev.shapes import ChatroomMessage
from application.chatroom.feed import ChatFeed, LoopVerdict, loop_verdict
from tui.screens.chatroom.render import RoomStyles, message_text

__all__ = ["RoomContext", "RoomView"]


@dataclass
class RoomContext:
    """What rendering needs from the screen (read at render time, so it is always current)."""

    styles: Callable[[], RoomStyles]
    person_model_id: Callable[[], str]
    is_muted: Callable[[str | None], bool]


class RoomView(OptionList):
    """Messages oldest at the top. ``new_below`` counts arrivals while not following."""

    def __init__(self, feed: ChatFeed, room: RoomContext, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.feed = feed
        self.room = room
        self.verdicts: dict[str, LoopVerdict | None] = {}
        self.new_below = 0

    @property
    def following(self) -> bool:
        return self.highlighted is None or self.highlighted >= self.option_count - 1

    def _option(self, message: ChatroomMessage) -> Option:
        prompt = message_text(
            message,
            self.room.styles(),
            person_model_id=self.room.person_model_id(),
            muted=self.room.is_muted(message.model_id),
            loop=self.verdicts.get(message.id),
        )
        return Option(prompt, id=message.id)

    def add_messages(self, messages: Sequence[ChatroomMessage]) -> list[ChatroomMessage]:
        """Put messages into the feed and on screen; returns the new ones (oldest first)."""
        following = self.following
        new, appended_only = self.feed.add(messages)
        if not new:
            return new
        for message in new:
            self.verdicts[message.id] = loop_verdict(message)
        if appended_only:
            self.add_options([self._option(m) for m in new])
        else:
            self.redraw(follow=following)
        if following:
            self.follow()
        else:
            self.new_below += len(new)
        return new

    def redraw(self, *, follow: bool | None = None) -> None:
        """Render every message again (theme, model switch, or an out-of-order arrival)."""
        keep = self.highlighted_option.id if self.highlighted_option else None
        follow = self.following if follow is None else follow
        self.set_options([self._option(m) for m in self.feed.messages])
        if follow:
            self.follow()
        elif keep is not None and keep in self.feed:
            self.highlighted = self.get_option_index(keep)

    def redraw_model(self, model_id: str) -> None:
        """Render one model's messages again (muted/unmuted)."""
        for message in self.feed.by_model(model_id):
            self.replace_option_prompt(message.id, self._option(message).prompt)

    def follow(self) -> None:
        if self.option_count:
            self.highlighted = self.option_count - 1
            self.scroll_end(animate=False, immediate=True)
        self.new_below = 0

    def highlighted_message(self) -> ChatroomMessage | None:
        option = self.highlighted_option
        return self.feed.get(option.id) if option is not None and option.id else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index >= self.option_count - 1:
            self.new_below = 0
