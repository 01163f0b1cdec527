"""Polling the chatroom: ``since`` one millisecond before the newest message held (see
``chatroom_feed``), quicker after activity, slower while the room is quiet, never giving up on
an error. No Textual: the screen passes callbacks, tests pass a fake client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from api_client.errors import BlahError, RateLimitedError
from api_client.models import ChatroomMessage, ChatroomPage
from application.chatroom.feed import ChatFeed

__all__ = ["INITIAL_PAGE", "POLL_PAGE", "ChatroomReader", "RoomPoller"]

INITIAL_PAGE = 100
POLL_PAGE = 100
MAX_RETRY_AFTER_S = 60.0


class ChatroomReader(Protocol):
    async def chatroom(self, *, limit: int | None = None, since: int | None = None) -> ChatroomPage: ...


class RoomPoller:
    """Runs until cancelled. ``on_messages(messages)`` gets every page (the feed drops the ids it
    holds) and returns the new ones; ``on_error(error, retry_in)`` and ``on_quiet(quiet)`` report
    the state; ``waiting()`` says replies are expected (keep polling quickly)."""

    def __init__(
        self,
        client: ChatroomReader,
        feed: ChatFeed,
        *,
        on_messages: Callable[[list[ChatroomMessage]], list[ChatroomMessage]],
        on_error: Callable[[BlahError, float], None],
        on_quiet: Callable[[bool], None],
        waiting: Callable[[], bool] = lambda: False,
        interval: float = 2.0,
        max_interval: float = 15.0,
    ) -> None:
        self.client = client
        self.feed = feed
        self.on_messages = on_messages
        self.on_error = on_error
        self.on_quiet = on_quiet
        self.waiting = waiting
        self.interval = max(interval, 0.05)
        self.max_interval = max(max_interval, self.interval)
        self._poke = asyncio.Event()
        self.polls = 0

    def poke(self) -> None:
        """Poll now (after a post, or when the person asks)."""
        self._poke.set()

    async def run(self) -> None:
        wait = self.interval
        while True:
            wait = await self.poll_once(wait)
            self._poke.clear()
            try:
                await asyncio.wait_for(self._poke.wait(), timeout=wait)
                wait = self.interval
            except TimeoutError:
                pass

    async def poll_once(self, wait: float) -> float:
        """One request; ``wait`` was the last wait. Returns how long to wait before the next."""
        since = self.feed.since_param()
        limit = INITIAL_PAGE if since is None else POLL_PAGE
        self.polls += 1
        try:
            page = await self.client.chatroom(limit=limit, since=since)
        except BlahError as error:
            wait = min(max(wait * 2, self.interval), self.max_interval)
            if isinstance(error, RateLimitedError) and error.retry_after:
                wait = max(wait, min(error.retry_after, MAX_RETRY_AFTER_S))
            self.on_error(error, wait)
            return wait
        if since is not None and len(page.messages) >= limit:
            # More arrived than one page holds and the room has no `before` to page back.
            self.feed.page_was_full = True
        new = self.on_messages(list(page.messages))
        if new or self.waiting():
            self.on_quiet(False)
            return self.interval
        self.on_quiet(True)
        return min(wait * 2, self.max_interval)
