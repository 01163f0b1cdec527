"""History of a model's calls, newest first, each entry once (``iter_logs``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from api_client.blahdev.paging import older_page_bound
from api_client.blahdev.shapes import LogEntry, LogPage
from api_client.blahdev.tail import MAX_PAGE, LogsApi, check_page_size
from api_client.errors import InvalidResponseError
from api_client.transport.url_paths import api_path, segment

_READ_AHEAD_TURN = 16
"""With a read ahead pending, the event loop gets a turn every this many entries."""


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
        self._gen = self._run()

    def __aiter__(self) -> LogHistory:
        return self

    async def __anext__(self) -> LogEntry:
        return await self._gen.__anext__()

    async def aclose(self) -> None:
        await self._gen.aclose()

    def _fetch(self, before: int | None) -> asyncio.Future[LogPage]:
        return asyncio.ensure_future(self._api.get_logs(
            self._model_id,
            source=self._source,
            before=before,
            errors_only=self._errors_only,
            limit=self._page_size,
        ))

    async def _run(self) -> AsyncGenerator[LogEntry, None]:
        before = self._before
        boundary: set[str] = set()
        boundary_ms: int | None = None
        coming: asyncio.Future[LogPage] | None = self._fetch(before)
        try:
            while coming is not None:
                page = await coming
                coming = None
                raw = page.logs
                fresh = [
                    entry
                    for entry in raw
                    if (before is None or entry.created_at < before) and entry.id not in boundary
                ]
                fresh.sort(key=lambda entry: entry.created_at, reverse=True)
                full = len(raw) >= self._page_size
                if full:
                    before, boundary, boundary_ms = self._next_page(raw, before, boundary, boundary_ms)
                    if self._read_ahead:
                        coming = self._fetch(before)
                for i, entry in enumerate(fresh):
                    if coming is not None and i % _READ_AHEAD_TURN == 0 and not coming.done():
                        # A caller busy with the entries never gives the event loop a turn;
                        # the read ahead needs several turns to send its request and read it.
                        await asyncio.sleep(0)
                    yield entry
                if full and coming is None:
                    coming = self._fetch(before)
        finally:
            if coming is not None:  # the caller stopped early: the read ahead is not wanted
                coming.cancel()
                await asyncio.gather(coming, return_exceptions=True)

    def _next_page(
        self, raw: list[LogEntry], before: int | None, boundary: set[str], boundary_ms: int | None
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
