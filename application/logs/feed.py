"""The Logs screen's data, without the screen: where rows are stored and how they are filled.

- Storage: the model's archive (opened here when the session has none and there is a platform
  to archive), else rows kept in memory. Offline sessions browse the archive they were given.
- Filling: the newest page with the platform's ``stats=true`` totals, then a live tail of new
  calls (``ArchiveSync`` when the archive is used; ``client.tail_logs`` straight into memory
  otherwise), and older history one page at a time when the person scrolls past the oldest row.
- Badges: computed once per entry as it is stored (``logs_badges``).

Nothing here imports Textual; the screen drives it from its workers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from api_client.archives.archive import Archive, ArchiveCorruptError, ArchiveError, LogFilter
from api_client.blahdev.paging import older_page_bound
from application.logs.badges import BadgesFn, diagnosis_available, make_badges_fn
from application.logs.history import ALL_CALLS, PlatformQuery, Reach, query_of
from application.logs.rows import ArchiveRows, LogRows, MemoryRows
from common.migration_progress import progress_hook
from common.records import time_of

if TYPE_CHECKING:
    from api_client.blahdev.shapes import LogStats
    from application.session.context import AppContext
    from application.session.settings.typed import Settings
    from common.records import Call

__all__ = ["FeedSettings", "LogsFeed"]

_BADGES_META = "badges_by"


@dataclass(frozen=True)
class FeedSettings:
    """How much to fetch and how often (from ``ctx.settings``; these defaults serve a feed built without one)."""

    initial_limit: int = 200
    older_page: int = 500
    interval: float = 2.0
    max_interval: float = 30.0
    use_archive: bool = True

    @classmethod
    def from_settings(cls, settings: Settings) -> FeedSettings:
        # the person's poll_interval, unless a screen-specific value is set (tests, benches)
        interval = settings.logs_interval or settings.poll_interval
        return cls(
            initial_limit=settings.logs_initial_limit,
            older_page=settings.logs_older_page,
            interval=interval,
            # back-off never polls MORE often than the person asked (poll_interval goes to 300 s)
            max_interval=max(interval, settings.logs_max_interval),
            use_archive=settings.archive,
        )


@dataclass
class LogsFeed:
    """One model's calls for the Logs screen. Call ``open()`` first (it may do file IO)."""

    ctx: AppContext
    settings: FeedSettings = field(default_factory=FeedSettings)
    rows: LogRows = field(default_factory=MemoryRows)
    archive: Archive | None = None
    badges_fn: BadgesFn | None = None
    trained_template: str | None = None
    notes: list[str] = field(default_factory=list)
    owns_archive: bool = False
    on_migration: Callable[[int, int], None] | None = None
    """Told ``(rows done, rows in all)`` while an archive of an older layout is rewritten on
    opening (from the opening's thread)."""
    _tail: Any = None
    _sync: Any = None
    _memory_cursor: int | None = None
    _model_known: bool = False  # the platform answered GET /models/{id}

    # ------------------------------------------------------------------ opening

    @property
    def offline(self) -> bool:
        return self.ctx.client is None

    def __post_init__(self) -> None:
        self.model_id: str = self.ctx.model_id  # fixed: a model switch makes a new feed
        self.reach = Reach(None)
        self._complete: dict[PlatformQuery, bool] = {}

    async def open(self) -> None:
        """Choose the storage, learn the trained template, prepare the badge function."""
        self.trained_template = await self._trained_template()
        self.badges_fn = make_badges_fn(self.trained_template)
        self.archive = self.ctx.archive
        if (
            self.archive is None
            and not self.offline
            and self.settings.use_archive
            and self.ctx.base_url
            and await self._may_archive()
        ):
            self.archive = await asyncio.to_thread(self._open_archive)
            if self.archive is not None:
                self.ctx.archive = self.archive
                self.owns_archive = True
        self.reach = Reach(self.archive)
        if self.archive is not None:
            self.rows = await asyncio.to_thread(ArchiveRows, self.archive, self.rows.filter, floor=self.view_floor)
        else:
            self.rows = MemoryRows(self.rows.filter)

    async def _may_archive(self) -> bool:
        """An archive file is made only for a model the platform knows: a mistyped model id
        or an unreachable host leaves nothing on disk (the calls, if any, stay in memory).
        An archive that exists already is always used (it still holds the history)."""
        from application.session.paths import data_dir

        assert self.ctx.base_url is not None and self.ctx.client is not None
        if (
            self._model_known
            or Archive.path_for(data_dir(), self.ctx.base_url, self.model_id, self.ctx.profile).exists()
        ):
            return True
        try:
            await self.ctx.client.get_model(self.model_id)
        except Exception:
            return False
        return True

    def _open_archive(self) -> Archive | None:
        from application.session.paths import data_dir

        assert self.ctx.base_url is not None
        try:
            reporting = progress_hook(self.on_migration) if self.on_migration is not None else nullcontext()
            with reporting:
                return Archive.for_model(
                    data_dir(), self.ctx.platform, self.ctx.base_url, self.model_id, self.ctx.profile
                )
        except ArchiveCorruptError as error:
            try:
                archive, moved = Archive.quarantine(error.path)
            except (OSError, ArchiveError) as again:
                self.notes.append(f"the local archive can't be used ({again}); keeping calls in memory")
                return None
            self.notes.append(f"the local archive was damaged: moved aside to {moved}; starting a fresh one")
            return archive
        except (OSError, ArchiveError, ValueError) as error:
            self.notes.append(f"the local archive can't be used ({error}); keeping calls in memory")
            return None

    async def _trained_template(self) -> str | None:
        if self.ctx.trained_template:
            return self.ctx.trained_template
        if self.ctx.client is None:
            return None
        try:
            model = await self.ctx.client.get_model(self.model_id)
        except Exception:
            return None
        self._model_known = True
        from application.chat_template import resolve_template

        return resolve_template(None, model)[0]

    def _badges_source(self) -> str:
        origin = "diagnosis" if diagnosis_available() else "fallback"
        return f"{origin}:{self.trained_template or '-'}"

    @property
    def badges_stale(self) -> bool:
        """True when the stored badges were made by other rules than today's (diagnosis vs
        fallback, another trained template), or by none (e.g. a dump loaded for offline use)."""
        return self.archive is not None and self.archive.get_meta(_BADGES_META) != self._badges_source()

    async def refresh_badges(self) -> int:
        """Recompute the stored badges when stale (in a thread, batch by batch, so the list
        keeps drawing and the tail keeps storing). Returns how many rows changed."""
        archive, badges_fn = self.archive, self.badges_fn
        if archive is None or badges_fn is None or not self.badges_stale:
            return 0
        wanted = self._badges_source()
        changed = await asyncio.to_thread(archive.recompute_badges, badges_fn)
        await asyncio.to_thread(archive.set_meta, _BADGES_META, wanted)
        return changed

    # ------------------------------------------------------------------ storing

    async def store(self, entries: list[Call]) -> list[Call]:
        """Keep the entries not held yet (badges computed once, here); returns the new ones."""
        if not entries:
            return []
        if self.archive is not None:
            return await asyncio.to_thread(self.archive.add_new, entries, self.badges_fn)
        assert isinstance(self.rows, MemoryRows)
        return self.rows.add(entries, self.badges_fn)

    async def reload_rows(self) -> None:
        """Re-read counts after a change (for the archive: off the UI thread)."""
        if isinstance(self.rows, ArchiveRows):
            await asyncio.to_thread(self.rows.refresh)
        else:
            self.rows.refresh()

    async def filtered(self, flt: LogFilter) -> LogRows:
        """A new row store for another filter (the current one keeps drawing meanwhile)."""
        if self.archive is not None:
            return await asyncio.to_thread(ArchiveRows, self.archive, flt, floor=self.view_floor)
        assert isinstance(self.rows, MemoryRows)
        self.rows.set_filter(flt)
        return self.rows

    # ------------------------------------------------------------------ the platform

    async def load_latest(self) -> LogStats | None:
        """The newest page, stored; returns the platform's totals (None if it sent none)."""
        client = self.ctx.client
        assert client is not None
        page = await client.get_logs(self.model_id, limit=self.settings.initial_limit, stats=True)
        await self.store(page.logs)
        if self.archive is not None and self.archive.get_cursor() is None and page.logs:
            newest = max(map(time_of, page.logs))
            await asyncio.to_thread(self.archive.set_cursor, newest)
        elif self.archive is None and page.logs:
            self._memory_cursor = max(map(time_of, page.logs))
        return page.stats

    async def fetch_stats(self) -> LogStats | None:
        client = self.ctx.client
        assert client is not None
        page = await client.get_logs(self.model_id, limit=1, stats=True)
        return page.stats

    async def tail(self, on_state: Callable[[Any], None]) -> AsyncIterator[list[Call]]:
        """New calls as they arrive, stored; yields each batch of new entries."""
        client = self.ctx.client
        assert client is not None
        if self.archive is not None:
            from api_client.archives.sync import ArchiveSync  # with an archive only

            async for batch in self._tail_with_sync(ArchiveSync, on_state):
                yield batch
            return
        since = self.archive.get_cursor() if self.archive is not None else self._memory_cursor
        tail = client.tail_logs(
            self.model_id,
            since=since,
            interval=self.settings.interval,
            max_interval=self.settings.max_interval,
            on_state=on_state,
        )
        self._tail = tail
        on_state(tail.state)
        try:
            async for batch in tail:
                new = await self.store(batch)
                if self.archive is not None and tail.state.cursor is not None:
                    await asyncio.to_thread(self.archive.set_cursor, tail.state.cursor)
                if new:
                    yield new
        finally:
            await tail.aclose()

    async def _tail_with_sync(self, sync_cls: Any, on_state: Callable[[Any], None]) -> AsyncIterator[list[Call]]:
        queue: asyncio.Queue[list[Call] | None] = asyncio.Queue()
        client = _TailTuning(self.ctx.client, max_interval=self.settings.max_interval)
        sync = sync_cls(client, self.archive, self.model_id, badges_fn=self.badges_fn, interval=self.settings.interval)
        self._sync = sync
        if hasattr(sync, "on_state"):
            sync.on_state = on_state

        async def on_batch(entries: list[Call]) -> None:
            await queue.put(list(entries))

        async def run() -> None:
            try:
                await sync.run(on_batch)
            finally:
                await queue.put(None)

        task = asyncio.create_task(run())
        try:
            while (batch := await queue.get()) is not None:
                if batch:
                    yield batch
            await task  # re-raise what stopped it
        finally:
            stop = getattr(sync, "stop", None)
            if callable(stop):
                stop()
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    def tail_state(self) -> Any:
        """The tail's current state (``TailState``), or None before it started."""
        if self._sync is not None:
            return getattr(self._sync, "state", None)
        return None if self._tail is None else self._tail.state

    def stop(self) -> None:
        for runner in (self._tail, self._sync):
            stop = getattr(runner, "stop", None)
            if callable(stop):
                stop()

    async def older(self, flt: LogFilter | None = None) -> tuple[int, bool]:
        """One page of history older than what is held for ``flt`` (the rows' filter when
        None): (new entries, the filter's history is all held). The platform is asked for
        the filter's source and errors itself (``logs_history``)."""
        client = self.ctx.client
        if client is None:
            return 0, True
        self._complete.clear()
        query = query_of(self.rows.filter if flt is None else flt)
        archive = self.archive
        if archive is None or query == ALL_CALLS:
            return await self._older_calls()
        oldest = await asyncio.to_thread(archive.oldest_ms)
        if oldest is None:  # nothing held yet: no stretch to page below
            return await self._older_calls()
        complete = await asyncio.to_thread(lambda: archive.history_complete)
        before, done = await asyncio.to_thread(self.reach.start, query, oldest + 1, complete)
        if done:
            return 0, True
        page_size = self.settings.older_page
        page = await client.get_logs(
            self.model_id, source=query.source, errors_only=query.errors_only, before=before, limit=page_size
        )
        new = await asyncio.to_thread(archive.add_sparse, page.logs, self.badges_fn)
        if new is None:
            return await self._older_calls()
        done = len(page.logs) < page_size
        next_before = None if done else older_page_bound(page.logs, page_size)[1]
        await asyncio.to_thread(self.reach.record, query, next_before)
        self._complete.clear()
        return len(new), done

    async def _older_calls(self) -> tuple[int, bool]:
        """One page of all calls older than the unbroken stretch held."""
        client = self.ctx.client
        assert client is not None
        oldest = self.rows.oldest_ms()
        page_size = self.settings.older_page
        page = await client.get_logs(self.model_id, before=None if oldest is None else oldest + 1, limit=page_size)
        new = await self.store(page.logs)
        done = len(page.logs) < page_size
        if self.archive is not None and page.logs:
            lowest = min(map(time_of, page.logs))
            await asyncio.to_thread(self.archive.extend_stretch, lowest)
        if done and self.archive is not None:
            await asyncio.to_thread(setattr, self.archive, "history_complete", True)
        self._complete.clear()
        return len(new), done

    @property
    def history_complete(self) -> bool:
        if self.offline:
            return True
        return self.archive is not None and self.archive.history_complete

    def view_floor(self, flt: LogFilter) -> int | None:
        """The list of ``flt`` shows calls newer than this (None: all held). Set only when
        calls were stored below the unbroken stretch (``add_sparse``) and the history of
        ``flt`` is not all held: its list then stops where that history has no gap."""
        archive = self.archive
        if archive is None or not archive.has_sparse() or self.history_complete_for(flt):
            return None
        oldest = archive.oldest_ms()
        before, _done = self.reach.start(query_of(flt), None if oldest is None else oldest + 1, False)
        return None if before is None else before - 2

    def history_complete_for(self, flt: LogFilter) -> bool:
        """Every call of the platform that ``flt`` keeps is held. Remembered per platform
        query until the next older page (the filter bar asks on every cursor move, and the
        archive's lock may be held by a write meanwhile)."""
        query = query_of(flt)
        known = self._complete.get(query)
        if known is None:
            known = self.history_complete or (
                self.archive is not None and query != ALL_CALLS and self.reach.start(query, None, False)[1]
            )
            self._complete[query] = known
        return known

    def close(self) -> None:
        self.stop()
        if self.owns_archive and self.archive is not None:
            if self.ctx.archive is self.archive:
                self.ctx.archive = None
            self.archive.close()
            self.archive = None


class _TailTuning:
    """The client as ArchiveSync sees it, with the screen's ``max_interval`` applied to the
    tail it starts (ArchiveSync only passes ``interval``)."""

    def __init__(self, client: Any, **tail_kw: Any) -> None:
        self._client = client
        self._tail_kw = tail_kw

    def tail_logs(self, model_id: str, **kw: Any) -> Any:
        return self._client.tail_logs(model_id, **{**self._tail_kw, **kw})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)
