"""The chatroom's panes around the room: the models in the room (with their colours and loop
counts), the status line under the room, and the compose bar (who replies, the draft)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from api_client.blahdev.shapes import Model
from application.chatroom.feed import ChatFeed, LoopVerdict
from common.format import plural
from tui.screens.chatroom.people import EVERYONE, people_options, reply_from_options
from tui.screens.chatroom.render import RoomStyles
from widgets.safe_text import one_line

__all__ = ["ComposeBar", "PeoplePane", "RoomStatusLine"]


class PeoplePane(Vertical):
    """Every model in the room, the person's first (``#people``)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Models in the room"), id="people-title")
        yield OptionList(id="people")

    def show(
        self,
        models: Mapping[str, Model],
        feed: ChatFeed,
        verdicts: Mapping[str, LoopVerdict | None],
        styles: RoomStyles,
        *,
        person_model_id: str,
        is_muted: Callable[[str | None], bool],
        error: str | None,
    ) -> bool:
        """Redraw the list, keeping the highlight; False when only the loading error shows."""
        people = self.query_one("#people", OptionList)
        keep = people.highlighted
        if error is not None and not models:
            people.set_options([Option(Text(f"couldn't load models: {error}", style="italic"), disabled=True)])
            return False
        people.set_options(
            people_options(models.values(), feed, verdicts, styles, person_model_id=person_model_id, is_muted=is_muted)
        )
        if keep is not None and people.option_count:
            people.highlighted = min(keep, people.option_count - 1)
        return True


class RoomStatusLine(Static):
    """Under the room: the connection, the count, who is still to reply, what arrived below."""

    def show(
        self,
        state: Text,
        feed: ChatFeed,
        *,
        waiting: Sequence[str],
        overdue: Sequence[str],
        new_below: int,
        models: Mapping[str, Model],
    ) -> None:
        def names(model_ids: Sequence[str]) -> str:
            return ", ".join(one_line((models[m].name if m in models else None) or m, max_len=30) for m in model_ids)

        line = Text(end="")
        line.append_text(state)
        line.append(f" · {plural(len(feed), 'message')}")
        if feed.page_was_full:
            line.append(" · a burst filled a page: some messages may be missing", style="bold")
        if waiting:
            line.append(f" · waiting for replies from: {names(waiting)}")
        if overdue:
            line.append(f" · no reply from {names(overdue)} (a failed call leaves no message: see its logs)")
        if new_below:
            line.append(f" · {new_below} new below (f: follow)", style="bold")
        self.update(line)


class ComposeBar(Horizontal):
    """Who replies (``#reply-from``: everyone unmuted, or one model) and the draft (``#compose-input``)."""

    def compose(self) -> ComposeResult:
        yield Select[str](
            [(Text("Everyone (every unmuted model)"), EVERYONE)],
            value=EVERYONE,
            allow_blank=False,
            id="reply-from",
        )
        # select_on_focus off: `i` goes back to a draft to go on writing it, not to replace it
        yield Input(
            placeholder="Say something to the room… (Enter posts)",
            id="compose-input",
            max_length=4000,
            select_on_focus=False,
        )

    @property
    def reply_from_select(self) -> Select[str]:
        return self.query_one("#reply-from", Select)

    @property
    def reply_from(self) -> str | None:
        """The model asked to reply, or None for everyone."""
        value = self.reply_from_select.value
        return None if value == EVERYONE or not isinstance(value, str) else value

    def offer(
        self,
        models: Mapping[str, Model],
        *,
        person_model_id: str,
        is_muted: Callable[[str | None], bool],
        prefer_everyone: bool,
    ) -> None:
        """The models that may reply; the choice kept when it still may, else the person's model
        (or everyone, when the settings prefer it)."""
        select = self.reply_from_select
        current = select.value
        options = reply_from_options(models.values(), person_model_id=person_model_id, is_muted=is_muted)
        select.set_options(options)
        values = {value for _, value in options}
        if current in values and current != EVERYONE:
            select.value = current
        elif person_model_id in values and not prefer_everyone:
            select.value = person_model_id
        else:
            select.value = EVERYONE

    def focus_draft(self) -> Input:
        """The cursor at the end of the draft, nothing selected."""
        box = self.query_one("#compose-input", Input)
        box.cursor_position = len(box.value)
        return box
