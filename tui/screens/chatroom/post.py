"""Posting to the chatroom: confirm, send once, then wait for the replies to land.

A post is a public write, so it is confirmed first (``ctx.settings.confirm_chat_post =
False`` turns that off for people who find it tiresome). One post at a time: while one is
being confirmed or sent, Enter does nothing. A post that times out is checked by reading the
room back, never re-sent blindly.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from rich.text import Text
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import Input

from api_client.blahdev.shapes import ChatroomMessage, Model
from api_client.errors import AuthError, MissingKeyError
from application.chatroom.actions import ChatWrite, post_message
from application.chatroom.feed import ChatFeed
from tui.base_screen import describe_error
from tui.send_once import SendOnce
from widgets.safe_text import one_line, one_line_text

if TYPE_CHECKING:
    from textual.app import App

    from application.session.context import AppContext

__all__ = ["REPLY_TIMEOUT_S", "PostFlow", "PostHost", "explain_post_error"]

REPLY_TIMEOUT_S = 90.0
WidgetT = TypeVar("WidgetT", bound=Widget)


class ConnectionNotes(Protocol):
    def note_connection(self, error: BaseException | None) -> None: ...


class PostHost(Protocol):
    """What posting needs from the room's screen (``ChatroomScreen`` is one). A protocol, so
    this module does not import the screen that imports it."""

    feed: ChatFeed
    models: dict[str, Model]

    @property
    def app(self) -> App[Any]: ...
    @property
    def blah_app(self) -> ConnectionNotes: ...
    @property
    def ctx(self) -> AppContext: ...
    def query_one(self, selector: str, expect_type: type[WidgetT]) -> WidgetT: ...
    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information", markup: bool = True
    ) -> None: ...
    def ingest(self, messages: list[ChatroomMessage]) -> list[ChatroomMessage]: ...
    def action_follow(self) -> None: ...
    def poke(self) -> None: ...


def explain_post_error(error: BaseException) -> str:
    if isinstance(error, MissingKeyError):
        return "posting needs an API key; none is configured"
    if isinstance(error, AuthError) and error.status == 403:
        return "the platform refused: this API key may not post here"
    if isinstance(error, AuthError):
        return "the platform refused the API key"
    return describe_error(error)


class PostFlow:
    """Sends the room's posts and tracks which models are still expected to reply."""

    def __init__(self, screen: PostHost) -> None:
        self.screen = screen
        self.write = SendOnce(cast(Widget, screen), group="chatroom-post")  # one post at a time, sent once
        self._waiting: dict[str, None] = {}
        self._posted: ChatroomMessage | None = None
        self.last_expected: list[str] = []  # who the platform said would reply to the last post
        self._posted_at = 0.0

    @property
    def waiting_for(self) -> list[str]:
        """Models still expected to reply; empty once the reply timeout has passed."""
        if self._waiting and self.overdue:
            return []
        return list(self._waiting)

    @property
    def overdue(self) -> list[str]:
        """Models that have not replied within the timeout. A reply whose call failed leaves a
        log but no message, so the room cannot wait for it forever."""
        timeout = self.screen.ctx.settings.chatroom_reply_timeout or REPLY_TIMEOUT_S
        if not self._waiting or time.monotonic() - self._posted_at < timeout:
            return []
        return list(self._waiting)

    def expect(self, posted: ChatroomMessage, model_ids: Sequence[str]) -> None:
        """Start waiting for ``model_ids`` to answer ``posted`` (from now)."""
        self._posted = posted
        self._waiting = dict.fromkeys(model_ids)
        self._posted_at = time.monotonic()
        self.last_expected = list(model_ids)

    def note_arrivals(self, messages: Sequence[ChatroomMessage]) -> None:
        """A reply is a message from an expected model, after (or in reply to) the post."""
        posted = self._posted
        if posted is None or not self._waiting:
            return
        for message in messages:
            if message.model_id in self._waiting and (
                message.reply_to == posted.id or message.created_at >= posted.created_at
            ):
                self._waiting.pop(message.model_id, None)

    def _reply_names(self, model_ids: Sequence[str]) -> str:
        models = self.screen.models
        return ", ".join(one_line((models[m].name if m in models else None) or m, max_len=30) for m in model_ids)

    async def _confirm(self, content: str, reply_from: str | None) -> bool:
        if not self.screen.ctx.settings.confirm_chat_post:
            return True
        body = Text(end="")
        body.append("Post to the public chatroom:\n\n")
        body.append("  “")
        body.append_text(one_line_text(content, max_len=300, style="italic"))
        body.append("”\n\n")
        if reply_from is None:
            body.append("Every unmuted model takes a turn answering.")
        else:
            body.append("Reply from: ")
            body.append_text(one_line_text(self._reply_names([reply_from]), max_len=60, style="bold"))
        return await self.write.confirm("Post to the chatroom?", body, label="Post")

    @property
    def busy(self) -> bool:
        return self.write.busy

    async def run(self, content: str, reply_from: str | None) -> None:
        await self.write.guarded(lambda: self._run(content, reply_from))

    async def _run(self, content: str, reply_from: str | None) -> None:
        screen = self.screen
        client = screen.ctx.client
        if client is None:
            return
        if not await self._confirm(content, reply_from):
            return
        box = screen.query_one("#compose-input", Input)
        if box.value.strip() == content:
            box.value = ""
        since = screen.feed.since_param()
        # the one write, as `blah-tui chatroom post` sends it: once, a lost answer read back
        write = await self.write.send(lambda: post_message(client, content, reply_from=reply_from, since=since))
        if write.kind in ("refused", "failed"):
            screen.blah_app.note_connection(write.error)
            error = write.error
            screen.notify(
                explain_post_error(error) if error is not None else write.message,
                title="Not posted",
                severity="error",
                markup=False,
            )
            if not box.value:
                box.value = content
            return
        if write.kind != "done":
            self._settled(write, content)
            return
        posted = write.posted
        assert posted is not None
        screen.blah_app.note_connection(None)
        self.expect(posted, write.replies_expected_from)
        screen.ingest([posted])
        screen.action_follow()
        if write.replies_expected_from:
            screen.notify(
                f"Posted. Replies expected from: {self._reply_names(write.replies_expected_from)}", markup=False
            )
        else:
            screen.notify(
                "Posted, but no model will reply (the ones asked are muted)", severity="warning", markup=False
            )
        screen.poke()

    def _settled(self, write: ChatWrite, content: str) -> None:
        """A post whose answer was lost: what reading the room back said (it is never resent)."""
        screen = self.screen
        if write.kind == "confirmed_after_timeout" and write.posted is not None:
            screen.ingest([write.posted])
            screen.notify("It was posted (found in the room)", markup=False)
        elif write.kind == "not_done":
            box = screen.query_one("#compose-input", Input)
            if not box.value:
                box.value = content
            screen.notify(
                "It was not posted (not in the room); send it again if you like", severity="warning", markup=False
            )
        else:
            screen.notify(write.message, severity="error", markup=False)
        screen.poke()
