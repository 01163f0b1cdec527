"""The chatroom's live link: the room polled in a worker of the screen (``RoomPoller``: backoff
after an error, slower while the room is quiet), what the link is doing said in the status line,
and polling started again after a fatal error when the person asks (``r``) or posts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.worker import Worker

from api_client.blahdev.shapes import ChatroomMessage
from api_client.errors import BlahError
from application.chatroom.feed import ChatFeed
from application.chatroom.poll import RoomPoller
from tui.base_screen import describe_error

if TYPE_CHECKING:
    from application.session.context import AppContext
    from tui.screens.chatroom.post import ConnectionNotes

__all__ = ["RoomHost", "RoomPolling"]


class RoomHost(Protocol):
    """What polling needs from the room's screen (``ChatroomScreen`` is one)."""

    feed: ChatFeed

    @property
    def blah_app(self) -> ConnectionNotes: ...
    @property
    def ctx(self) -> AppContext: ...
    def run_worker(self, work: Any, *, group: str, exclusive: bool, exit_on_error: bool) -> Worker[Any]: ...
    def ingest(self, messages: list[ChatroomMessage]) -> list[ChatroomMessage]: ...
    def show_room_note(self, text: Text) -> None: ...
    def set_room_status(self, text: Text) -> None: ...


class RoomPolling:
    """``start`` polls until the screen goes or a fatal error; ``poke`` polls now (or starts
    again after a fatal error). ``waiting``: replies are expected (poll at the brisk pace)."""

    def __init__(self, host: RoomHost, *, waiting: Callable[[], bool]) -> None:
        self.host = host
        self.waiting = waiting
        self.poller: RoomPoller | None = None
        self.stopped = False
        """The last poller ended on a fatal error."""
        self.interval = 2.0

    def start(self) -> Worker[None]:
        return self.host.run_worker(self._run(), group="chatroom-poll", exclusive=True, exit_on_error=False)

    async def _run(self) -> None:
        client = self.host.ctx.client
        if client is None:
            return
        self.poller = RoomPoller(
            client,
            self.host.feed,
            on_messages=self._polled,
            on_error=self._failed,
            on_quiet=self._quiet,
            waiting=self.waiting,
            interval=self.interval,
            max_interval=self.host.ctx.settings.chatroom_max_interval,
        )
        self.stopped = False
        await self.poller.run()  # returns only after a fatal error (cancelled when the screen goes)
        self.stopped = True

    def poke(self) -> None:
        if self.poller is None:
            return
        if self.stopped:  # by a fatal error: start polling again
            self.start()
        else:
            self.poller.poke()

    def _polled(self, messages: list[ChatroomMessage]) -> list[ChatroomMessage]:
        self.host.blah_app.note_connection(None)
        new = self.host.ingest(messages)
        if not len(self.host.feed):
            self.host.show_room_note(Text("the platform returned no chatroom messages yet", style="italic"))
        return new

    def _failed(self, error: BlahError, retry_in: float | None) -> None:
        self.host.blah_app.note_connection(error)
        reason = describe_error(error)
        self.host.show_room_note(Text(f"couldn't load: {reason}", style="italic"))
        if retry_in is None:  # fatal: polling again cannot help until something changes
            self.host.set_room_status(Text(f"couldn't load: {reason} · stopped polling (r tries again)", end=""))
        else:
            self.host.set_room_status(Text(f"couldn't load: {reason} · retrying in {retry_in:.0f} s", end=""))

    def _quiet(self, quiet: bool) -> None:
        self.host.set_room_status(Text("● live · quiet, checking less often" if quiet else "● live", end=""))
