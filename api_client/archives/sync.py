"""Keep a model's local archive in step with the platform.

Two directions, each losing nothing:

- ``run`` tails new calls into the archive. It starts from the archive's cursor (the
  newest ``created_at`` the tail has stored), re-asking that millisecond (entries that
  arrived in it later are then caught; the ones already held are dropped by id), so a
  restart after hours fills the whole gap before going live. Without a cursor it starts
  from the newest stored entry, or, with an empty archive, at the platform's newest entry
  (older history is ``backfill``'s job).
- ``backfill`` pages older history in below the oldest stored entry until the platform has
  nothing older, then marks the archive ``history_complete``.

Why this covers everything: the archive always holds one unbroken stretch of history,
from its oldest entry up to its newest or its cursor. The tail extends it upwards from
there and backfill downwards from its oldest entry, and neither ever starts a new
stretch somewhere else.

Archive writes run in a worker thread (``asyncio.to_thread``) so the event loop of the
app stays responsive while a big gap is stored.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from api_client.archives.archive import Archive
from api_client.archives.ingest import BadgesFn
from api_client.blahdev.tail import LogTail, TailState
from common.records import Call, time_of

OnBatch = Callable[[list[Call]], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class BackfillProgress:
    """Where a backfill is. ``pages``: batches of up to ``page_size`` entries stored;
    ``fetched``: entries received; ``added``: of those, new to the archive; ``oldest_ms``:
    the oldest ``created_at`` stored so far (None while the archive is empty)."""

    pages: int
    fetched: int
    added: int
    oldest_ms: int | None
    complete: bool
    may_have_missed: bool = False
    missed_reason: str | None = None


OnProgress = Callable[[BackfillProgress], Awaitable[None] | None]


class LogsClient(Protocol):
    """What ArchiveSync needs of ``BlahClient``."""

    def tail_logs(self, model_id: str, *, since: int | None = ..., interval: float = ..., **kw: Any) -> LogTail: ...

    def iter_logs(self, model_id: str, *, before: int | None = ..., page_size: int = ...) -> Any: ...


async def _maybe_await(value: Awaitable[None] | None) -> None:
    if inspect.isawaitable(value):
        await value


class ArchiveSync:
    """Tails (``run``) and backfills (``backfill``) one model's calls into ``archive``."""

    def __init__(
        self,
        client: LogsClient,
        archive: Archive,
        model_id: str,
        *,
        badges_fn: BadgesFn | None = None,
        interval: float = 2.0,
        page_size: int = 500,
    ) -> None:
        self.client = client
        self.archive = archive
        self.model_id = model_id
        self.badges_fn = badges_fn
        self.interval = interval
        self.page_size = page_size
        self.on_state: Callable[[TailState], None] | None = None
        """Called with every new TailState of the live tail (set before ``run``)."""
        self._tail: LogTail | None = None
        self._stopping = False

    @property
    def state(self) -> TailState | None:
        """The live tail's state (phase, retry_in, reason, cursor, may_have_missed), or
        None before ``run`` started it."""
        return None if self._tail is None else self._tail.state

    @property
    def tail(self) -> LogTail | None:
        return self._tail

    def stop(self) -> None:
        """End ``run`` and ``backfill`` (each returns after its current step)."""
        self._stopping = True
        if self._tail is not None:
            self._tail.stop()

    def resume_since(self) -> int | None:
        """The ``since`` the tail starts from: one millisecond before the cursor (or the
        newest stored entry) so that millisecond is asked again; None for an empty
        archive."""
        cursor = self.archive.get_cursor()
        newest = self.archive.newest_ms()
        start = cursor if cursor is not None else newest
        return None if start is None else start - 1

    async def run(self, on_batch: OnBatch | None = None) -> None:
        """Tail into the archive until ``stop()`` (or a fatal error: see ``state``).

        ``on_batch(new_entries)`` (sync or async) is called after each batch is committed,
        with only the entries that were new to the archive, oldest first.
        """
        self._stopping = False
        since = await asyncio.to_thread(self.resume_since)
        extra: dict[str, Any] = {} if self.on_state is None else {"on_state": self.on_state}
        tail = self._tail = self.client.tail_logs(self.model_id, since=since, interval=self.interval, **extra)
        try:
            async for batch in tail:
                new = await self._store(batch)
                newest = max(map(time_of, batch))
                await asyncio.to_thread(self._advance_cursor, newest)
                if new and on_batch is not None:
                    await _maybe_await(on_batch(new))
                if self._stopping:
                    break
        finally:
            tail.stop()  # also when storing or on_batch failed: no request left running

    async def backfill(self, limit_pages: int | None = None, on_progress: OnProgress | None = None) -> BackfillProgress:
        """Fetch history older than the oldest stored entry, ``page_size`` entries per
        commit, until the platform has no more (then ``history_complete`` is set) or
        ``limit_pages`` batches were stored. Returns the final progress."""
        self._stopping = False
        oldest = await asyncio.to_thread(self.archive.oldest_ms)
        if oldest is not None and await asyncio.to_thread(lambda: self.archive.history_complete):
            return BackfillProgress(0, 0, 0, oldest, complete=True)
        # before = oldest + 1 re-asks the oldest millisecond: entries of it not held yet
        # (a burst split across pages) are caught; those held are dropped by id.
        history = self.client.iter_logs(
            self.model_id, before=None if oldest is None else oldest + 1, page_size=self.page_size
        )
        pages = fetched = added = 0
        complete = False
        batch: list[Call] = []

        async def flush() -> None:
            nonlocal pages, fetched, added, oldest, batch
            if not batch:
                return
            new = await self._store(batch)
            pages += 1
            fetched += len(batch)
            added += len(new)
            low = min(map(time_of, batch))
            oldest = low if oldest is None else min(oldest, low)
            batch = []
            if on_progress is not None:
                await _maybe_await(on_progress(self._progress(history, pages, fetched, added, oldest, False)))

        try:
            async for entry in history:
                batch.append(entry)
                if len(batch) >= self.page_size:
                    await flush()
                    if self._stopping or (limit_pages is not None and pages >= limit_pages):
                        break
            else:
                await flush()
                complete = True
        finally:
            aclose = getattr(history, "aclose", None)
            if aclose is not None:
                await aclose()
        if complete:
            await asyncio.to_thread(setattr, self.archive, "history_complete", True)
        final = self._progress(history, pages, fetched, added, oldest, complete)
        if complete and on_progress is not None:
            await _maybe_await(on_progress(final))
        return final

    # ------------------------------------------------------------------ internals

    async def _store(self, batch: list[Call]) -> list[Call]:
        return await asyncio.to_thread(self.archive.add_new, batch, self.badges_fn)

    def _advance_cursor(self, newest: int) -> None:
        cursor = self.archive.get_cursor()
        if cursor is None or newest > cursor:
            self.archive.set_cursor(newest)

    @staticmethod
    def _progress(
        history: Any, pages: int, fetched: int, added: int, oldest: int | None, complete: bool
    ) -> BackfillProgress:
        return BackfillProgress(
            pages=pages,
            fetched=fetched,
            added=added,
            oldest_ms=oldest,
            complete=complete,
            may_have_missed=bool(getattr(history, "may_have_missed", False)),
            missed_reason=getattr(history, "missed_reason", None),
        )
