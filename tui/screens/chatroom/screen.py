"""The chatroom, live: read it, talk to it, pull the prompt behind a strange message, and mute
a model that has collapsed into repetition.

The room is polled with ``since`` (see ``chatroom_feed``); each message appears once, oldest
at the top, newest at the bottom, and the view follows the bottom until the person moves up.
Every piece of platform text is rendered through ``widgets.safe_text`` (never as markup).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from api_client.blahdev.shapes import ChatroomMessage, Model
from api_client.errors import BlahError
from application.chatroom.feed import ChatFeed
from application.chatroom.poll import RoomPoller
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.platform_work import platform_work
from tui.screens.chatroom.mute import MuteFlow
from tui.screens.chatroom.mute_target import mute_target, mute_target_line
from tui.screens.chatroom.people import EVERYONE
from tui.screens.chatroom.polling import RoomPolling
from tui.screens.chatroom.post import PostFlow
from tui.screens.chatroom.render import RoomStyles, room_styles
from tui.screens.chatroom.side_panes import ComposeBar, PeoplePane, RoomStatusLine
from tui.screens.chatroom.view import RoomContext, RoomView
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["EVERYONE", "ChatroomScreen"]


class ChatroomScreen(bindings.VimCursor, BlahScreen):
    """Top-level screen (key 5)."""

    SCREEN_TITLE = "Chatroom"

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]
    """Under 80 columns the sidebar and the reply-from picker take 40 % (not 38 and 36 cells):
    the messages keep most of a narrow screen."""

    DEFAULT_CSS = """
    ChatroomScreen #chat-body { height: 1fr; }
    ChatroomScreen #room { width: 1fr; height: 1fr; max-height: 100%; }
    ChatroomScreen #room-empty { width: 1fr; height: 1fr; display: none; }
    ChatroomScreen.-empty #room { display: none; }
    ChatroomScreen.-empty #room-empty { display: block; }
    ChatroomScreen #people-pane { width: 38; height: 1fr; }
    ChatroomScreen.-narrow #people-pane { width: 40%; }
    ChatroomScreen #people-title { height: 1; padding: 0 1; text-style: bold; }
    ChatroomScreen #people { height: 1fr; max-height: 100%; }
    ChatroomScreen #room-status { height: 1; padding: 0 1; color: $foreground-muted; }
    ChatroomScreen #mute-target { height: 1; padding: 0 1; color: $foreground-muted; }
    ChatroomScreen #compose { height: auto; }
    ChatroomScreen #reply-from { width: 36; }
    ChatroomScreen.-narrow #reply-from { width: 40%; }
    ChatroomScreen #compose-input { width: 1fr; }
    """

    CURSOR_LIST = "#room"  # j / k move the room while the focus is outside the lists
    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings.vim_cursor("chatroom"),
        Binding("p", "open_prompt", "Prompt", id="chatroom.prompt"),
        bindings.mute("chatroom"),
        Binding("i", "compose", "Write", id="chatroom.compose"),
        Binding("t", "reply_from", "Reply from", id="chatroom.reply_from"),
        bindings.follow("chatroom"),
        bindings.refresh("chatroom"),
        bindings.leave_input("chatroom", "Back to room"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.feed = ChatFeed()
        self.models: dict[str, Model] = {}
        self._styles: RoomStyles | None = None
        self.polling = RoomPolling(self, waiting=lambda: bool(self.post_flow.waiting_for))
        self._status = Text("connecting…", end="")
        self._models_error: str | None = None
        self.mute_flow = MuteFlow()
        self.post_flow = PostFlow(self)

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with Horizontal(id="chat-body"):
            yield RoomView(
                self.feed, RoomContext(lambda: self.styles_room, lambda: self.ctx.model_id, self.is_muted), id="room"
            )
            yield Static(Text("loading the room…", style="italic"), id="room-empty", classes="empty-state")
            yield PeoplePane(id="people-pane")
        yield RoomStatusLine(self._status, id="room-status")
        yield Static("", id="mute-target")
        yield ComposeBar(id="compose")
        yield KeyFooter()

    @property
    def compose_bar(self) -> ComposeBar:
        return self.query_one("#compose", ComposeBar)

    def on_mount(self) -> None:
        self.add_class("-empty")
        self.polling.interval = self.ctx.settings.chatroom_poll_interval or self.ctx.settings.poll_interval
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._restyle())
        self.set_focus(self.query_one("#room", OptionList))
        # The line naming m's model follows the room's scrolling (a highlight scrolled away is no target).
        self.watch(self.room, "scroll_y", self._mute_target_after_refresh, init=False)
        if self.ctx.client is None:
            self.show_room_note(
                Text("offline: the chatroom needs the platform (this session browses a file)", style="italic")
            )
            self.set_room_status(Text("offline", end=""))
            return
        self.load_models()
        self.polling.start()

    # ----------------------------------------------------------------- styles and rendering

    @property
    def styles_room(self) -> RoomStyles:
        if self._styles is None:
            self._styles = room_styles(self.app.get_css_variables(), dark=self.app.current_theme.dark)
        return self._styles

    def _restyle(self) -> None:
        self._styles = None
        self.room.redraw()
        self._redraw_people()

    def is_muted(self, model_id: str | None) -> bool:
        return model_id is not None and self.blah_app.chatroom_enabled.get(model_id) is False

    @property
    def room(self) -> RoomView:
        return self.query_one("#room", RoomView)

    def _redraw_people(self) -> None:
        shown = self.query_one("#people-pane", PeoplePane).show(
            self.models,
            self.feed,
            self.room.verdicts,
            self.styles_room,
            person_model_id=self.ctx.model_id,
            is_muted=self.is_muted,
            error=self._models_error,
        )
        if shown:
            self.call_after_refresh(self.show_mute_target)

    def _redraw_reply_from(self) -> None:
        self.compose_bar.offer(
            self.models,
            person_model_id=self.ctx.model_id,
            is_muted=self.is_muted,
            prefer_everyone=self.ctx.settings.chatroom_default_everyone,
        )

    @property
    def poller(self) -> RoomPoller | None:
        """The room's poller once polling has started."""
        return self.polling.poller

    def show_room_note(self, text: Text) -> None:
        """What stands in place of the room while it has no message."""
        self.query_one("#room-empty", Static).update(text)
        self.set_class(len(self.feed) == 0, "-empty")

    def set_room_status(self, text: Text) -> None:
        self._status = text
        self.query_one("#room-status", RoomStatusLine).show(
            text,
            self.feed,
            waiting=self.post_flow.waiting_for,
            overdue=self.post_flow.overdue,
            new_below=self.room.new_below,
            models=self.models,
        )

    # ----------------------------------------------------------------- data

    def ingest(self, messages: list[ChatroomMessage]) -> list[ChatroomMessage]:
        """Add polled or posted messages to the room; returns the new ones (oldest first)."""
        new = self.room.add_messages(messages)
        if new:
            self.post_flow.note_arrivals(new)
            self.set_class(False, "-empty")
            self._redraw_people()
            self.set_room_status(self._status)
        return new

    @platform_work(exclusive=True, group="chatroom-models")
    async def load_models(self, client: BlahClient) -> None:
        try:
            models = await client.list_models()
        except BlahError as error:
            self._models_error = describe_error(error)
            self._redraw_people()
            raise
        self._models_error = None
        self.models = {m.id: m for m in models}
        for model in models:
            self.blah_app.note_chatroom_enabled(model.id, model.chatroom_enabled)
        self._redraw_people()
        self._redraw_reply_from()  # the room itself follows the mute states through model_signal

    def poke(self) -> None:
        """Poll now (after a post, or when the person asks)."""
        self.polling.poke()

    # ----------------------------------------------------------------- app events

    def on_model_switched(self, model_id: str) -> None:
        self.room.redraw()
        self._redraw_people()
        self._redraw_reply_from()

    def on_model_state_changed(self, model_id: str) -> None:
        self.room.redraw_model(model_id)
        self._redraw_people()
        self._redraw_reply_from()

    # ----------------------------------------------------------------- actions

    def action_follow(self) -> None:
        self.room.follow()
        self.set_room_status(self._status)

    @on(OptionList.OptionHighlighted, "#room")
    def _room_moved(self) -> None:
        self.set_room_status(self._status)

    def highlighted_message(self) -> ChatroomMessage | None:
        return self.room.highlighted_message()

    def action_refresh(self) -> None:
        if self.ctx.client is None:
            return
        self.load_models()
        self.poke()

    def action_compose(self) -> None:
        """Write: the cursor at the end of the draft, nothing selected; focused at once (not
        after a refresh), so the keys typed right after `i` land in the box."""
        self.set_focus(self.compose_bar.focus_draft())

    def action_reply_from(self) -> None:
        self.compose_bar.reply_from_select.focus()

    def action_leave_input(self) -> None:
        self.leave_text_input()

    def input_exit_target(self) -> Widget | None:
        return self.query_one("#room", OptionList)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc comes back to the room from the composer, the reply-from menu or the people
        list (and is offered in the footer there); in the room it goes on to the app."""
        if action == "leave_input":
            room = self.query("#room").first() if self.is_mounted else None
            return room is not None and self.focused is not room
        return super().check_action(action, parameters)

    @on(OptionList.OptionSelected, "#room")
    def _room_selected(self, _event: OptionList.OptionSelected) -> None:
        self.action_open_prompt()

    @on(OptionList.OptionSelected, "#people")
    def _person_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_id and event.option_id in self.models:
            self.compose_bar.reply_from_select.value = event.option_id
            self.notify(
                f"Replies will come from {one_line(self.models[event.option_id].name or event.option_id, max_len=60)}",
                markup=False,
            )

    def action_open_prompt(self) -> None:
        message = self.highlighted_message()
        if message is None:
            self.notify("No message highlighted", severity="warning", markup=False)
            return
        if message.author_kind == "human" or message.model_id is None:
            self.notify("A person wrote this: there is no prompt behind it", markup=False)
            return
        self.open_prompt(message.id)

    @platform_work(exclusive=True, group="chatroom-prompt")
    async def open_prompt(self, client: BlahClient, message_id: str) -> None:
        """Fetch the message with its prompt attached, then open that call in the inspector."""
        detail = await client.chatroom_message(message_id)
        log_id = detail.log.id if detail.log is not None else detail.log_id
        if not log_id:
            self.notify("The platform has no logged call for this message", severity="warning", markup=False)
            return
        if self.is_current:  # the person may have gone to another area while it loaded
            self.blah_app.open_log(log_id)

    def _mute_target(self) -> str | None:
        """The model ``m`` acts on: the highlighted model in the list (when the list has the
        keys), else the model of the highlighted message, only while that message is on
        screen (a highlight scrolled away, or moved by a redraw, is not what the person sees)."""
        return mute_target(self)

    def _mute_target_after_refresh(self) -> None:
        self.call_after_refresh(self.show_mute_target)

    def show_mute_target(self) -> None:
        """Name the model ``m`` acts on, before the key is pressed."""
        line = self.query("#mute-target")
        if line:
            line.first(Static).update(mute_target_line(self, mute_target(self)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.call_after_refresh(self.show_mute_target)

    def on_descendant_focus(self) -> None:
        self.call_after_refresh(self.show_mute_target)

    def action_toggle_mute(self) -> None:
        model_id = self._mute_target()
        if not model_id:
            self.notify(
                "Highlight a message you can see (or a model in the list) to mute its model",
                severity="warning",
                markup=False,
            )
            return
        if self.mute_flow.busy(model_id):
            return
        self.mute_model(model_id, enable=self.is_muted(model_id))

    @work(group="chatroom-mute", exit_on_error=False)
    async def mute_model(self, model_id: str, enable: bool) -> None:
        model = self.models.get(model_id)
        name = (model.name if model is not None else None) or self._author_name(model_id)
        await self.mute_flow.run(self, model_id, name, enable, messages=self.feed.messages)

    def _author_name(self, model_id: str) -> str:
        for message in reversed(self.feed.by_model(model_id)):
            if message.author_name:
                return message.author_name
        return model_id

    # ----------------------------------------------------------------- posting

    @on(Input.Submitted, "#compose-input")
    def _submitted(self, event: Input.Submitted) -> None:
        content = event.value.strip()
        if not content:
            return
        if self.ctx.client is None:
            self.notify("offline: cannot post", severity="warning", markup=False)
            return
        if self.post_flow.busy:
            self.notify("Still posting the previous message", severity="warning", markup=False)
            return
        self.send_post(content, self.compose_bar.reply_from)

    @work(group="chatroom-post", exit_on_error=False)
    async def send_post(self, content: str, reply_from: str | None) -> None:
        await self.post_flow.run(content, reply_from)
