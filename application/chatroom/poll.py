"""Polling the chatroom: ``since`` one millisecond before the newest message held (see
``chatroom_feed``), quicker after activity, slower while the room is quiet, by the app's one
set of polling rules (:mod:`application.poller`): transient errors are retried, a fatal one
(the key refused, no chatroom on this platform) stops the polling with the reason. No
Textual: the screen passes callbacks, tests pass a fake client and a fake ``sleep``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from api_client.blahdev.shapes import ChatroomMessage, ChatroomPage
from api_client.errors import BlahError
from application.chatroom.feed import ChatFeed
from application.poller import PollEnd, Poller, PollStep, Sleep

__all__ = ["INITIAL_PAGE", "POLL_PAGE", "ChatroomReader", "RoomPoller"]

INITIAL_PAGE = 100
POLL_PAGE = 100


class ChatroomReader(Protocol):
    async def chatroom(self, *, limit: int | None = None, since: int | None = None) -> ChatroomPage: ...


class RoomPoller:
    """Runs until cancelled or a fatal error. ``on_messages(messages)`` gets every page (the
    feed drops the ids it holds) and returns the new ones; ``on_error(error, retry_in)`` (None:
    fatal, polling stopped) and ``on_quiet(quiet)`` report the state; ``waiting()`` says replies
    are expected (keep polling quickly). New messages are progress."""

    def __init__(
        self,
        client: ChatroomReader,
        feed: ChatFeed,
        *,
        on_messages: Callable[[list[ChatroomMessage]], list[ChatroomMessage]],
        on_error: Callable[[BlahError, float | None], None],
        on_quiet: Callable[[bool], None],
        waiting: Callable[[], bool] = lambda: False,
        interval: float = 2.0,
        max_interval: float = 15.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.client = client
        self.feed = feed
        self.on_messages = on_messages
        self.on_quiet = on_quiet
        self.waiting = waiting
        interval = max(interval, 0.05)
        self.poller: Poller[tuple[ChatroomPage, int | None, int]] = Poller(
            self._fetch,
            judge=self._judge,
            interval=interval,
            max_interval=max(max_interval, interval),
            on_error=on_error,
            sleep=sleep,
        )

    @property
    def polls(self) -> int:
        return self.poller.polls

    @property
    def interval(self) -> float:
        """The normal pace, in seconds (after new messages)."""
        return self.poller.backoff.interval

    def poke(self) -> None:
        """Poll now (after a post, or when the person asks)."""
        self.poller.poke()

    async def run(self) -> PollEnd:
        return await self.poller.run()

    async def poll_once(self) -> float | None:
        """One request: the seconds until the next, or None after a fatal error."""
        return await self.poller.poll_once()

    async def _fetch(self) -> tuple[ChatroomPage, int | None, int]:
        since = self.feed.since_param()
        limit = INITIAL_PAGE if since is None else POLL_PAGE
        return await self.client.chatroom(limit=limit, since=since), since, limit

    def _judge(self, polled: tuple[ChatroomPage, int | None, int]) -> PollStep:
        page, since, limit = polled
        if since is not None and len(page.messages) >= limit:
            # More arrived than one page holds and the room has no `before` to page back.
            self.feed.page_was_full = True
        new = self.on_messages(list(page.messages))
        if new or self.waiting():
            self.on_quiet(False)
            return "progress"
        self.on_quiet(True)
        return "idle"
