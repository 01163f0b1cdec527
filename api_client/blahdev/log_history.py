"""History of a model's calls, newest first, each entry once (``iter_logs``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from api_client.blahdev.paging import older_page_bound
from api_client.blahdev.records import CallPage
from api_client.blahdev.tail import MAX_PAGE, LogsApi, check_page_size
from api_client.errors import InvalidResponseError
from api_client.transport.url_paths import api_path, segment
from common.records import Call, time_of

_READ_AHEAD_TURN = 16
"""With a read ahead pending, the event loop gets a turn every this many entries."""

_SEND_TURNS = 8
"""Event-loop turns a page reader gives a new read ahead before it takes the page: httpx
needs a few to take a connection and write the request."""


class LogHistory:
    """Async iterator over a model's history, newest first, each entry once.

    Pages back with ``before = oldest + 1`` and drops the boundary millisecond's ids it
    already yielded. ``may_have_missed``/``missed_reason`` are set when a full page holds
    a single millisecond (the rest of it cannot be reached). A server that ignores
    ``before`` raises InvalidResponseError instead of looping.
    """

    def __init__(
        self,
        api: LogsApi,
        model_id: str,
        *,
        before: int | None = None,
        source: str | None = None,
        errors_only: bool = False,
        page_size: int = MAX_PAGE,
        read_ahead: bool = False,
    ) -> None:
        check_page_size(page_size)
        self._read_ahead = read_ahead
        self._api = api
        self._model_id = model_id
        self._before = before
        self._source = source
        self._errors_only = errors_only
        self._page_size = page_size
        self.may_have_missed = False
        self.missed_reason: str | None = None
        self._gen: AsyncGenerator[Call, None] | None = None
        self._pages_gen: AsyncGenerator[list[Call], None] | None = None
        self._coming: asyncio.Future[CallPage] | None = None

    def __aiter__(self) -> LogHistory:
        return self

    async def __anext__(self) -> Call:
        if self._gen is None:
            self._gen = self._run()
        return await self._gen.__anext__()

    async def aclose(self) -> None:
        if self._gen is not None:
            await self._gen.aclose()
        if self._pages_gen is not None:
            await self._pages_gen.aclose()

    def pages(self) -> AsyncGenerator[list[Call], None]:
        """The same history a page at a time (each list newest first, possibly empty),
        for callers that handle a page in one go (``export``): no per-entry await. With
        ``read_ahead`` the next request is already sent when a page is handed over."""
        if self._pages_gen is None:
            self._pages_gen = self._pages(turns=_SEND_TURNS if self._read_ahead else 0)
        return self._pages_gen

    def _fetch(self, before: int | None) -> asyncio.Future[CallPage]:
        return asyncio.ensure_future(
            self._api.get_logs(
                self._model_id,
                source=self._source,
                before=before,
                errors_only=self._errors_only,
                limit=self._page_size,
            )
        )

    async def _run(self) -> AsyncGenerator[Call, None]:
        pages = self._pages(turns=0)
        try:
            async for fresh in pages:
                coming = self._coming
                for i, entry in enumerate(fresh):
                    if coming is not None and i % _READ_AHEAD_TURN == 0 and not coming.done():
                        # A caller busy with the entries never gives the event loop a turn;
                        # the read ahead needs several turns to send its request and read it.
                        await asyncio.sleep(0)
                    yield entry
        finally:
            await pages.aclose()

    async def _pages(self, turns: int) -> AsyncGenerator[list[Call], None]:
        """Each page's entries not yielded before, newest first. ``turns``: event-loop
        turns given to a pending read ahead before a page is handed over (enough for its
        request to be on the wire while the caller works on the page)."""
        before = self._before
        boundary: set[str] = set()
        boundary_ms: int | None = None
        self._coming = self._fetch(before)
        try:
            while self._coming is not None:
                page = await self._coming
                self._coming = None
                raw = page.logs
                fresh = [
                    entry for entry in raw if (before is None or time_of(entry) < before) and entry.id not in boundary
                ]
                fresh.sort(key=time_of, reverse=True)
                full = len(raw) >= self._page_size
                if full:
                    before, boundary, boundary_ms = self._next_page(raw, before, boundary, boundary_ms)
                    if self._read_ahead:
                        self._coming = self._fetch(before)
                        for _ in range(turns):
                            await asyncio.sleep(0)
                yield fresh
                if full and self._coming is None:
                    self._coming = self._fetch(before)
        finally:
            coming, self._coming = self._coming, None
            if coming is not None:  # the caller stopped early: the read ahead is not wanted
                coming.cancel()
                await asyncio.gather(coming, return_exceptions=True)

    def _next_page(
        self, raw: list[Call], before: int | None, boundary: set[str], boundary_ms: int | None
    ) -> tuple[int, set[str], int]:
        """``before`` for the page after ``raw`` (a full page), and the ids at its oldest
        millisecond, which the next page returns again and must not be yielded twice."""
        oldest, next_before, missed = older_page_bound(raw, self._page_size)
        if missed is not None:
            self.may_have_missed, self.missed_reason = True, missed
        if before is not None and next_before >= before:
            raise InvalidResponseError(
                "the server ignores `before`: a full page came back without older "
                "entries, so the history cannot be paged",
                excerpt=None,
                status=200,
                method="GET",
                path=api_path("models", segment(self._model_id), "logs"),
            )
        at_oldest = {entry.id for entry in raw if entry.created_at == oldest}
        boundary = (boundary | at_oldest) if boundary_ms == oldest else at_oldest
        return next_before, boundary, oldest
