"""ArchiveSync against the real simulator: backfill, live tail, restart that fills the gap."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from api_client.archives.archive import Archive, LogFilter
from api_client.archives.sync import ArchiveSync, BackfillProgress
from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry, LogPage
from api_client.blahdev.tail import LogTail
from simulator.server import SimulatorServer

WAIT = 30.0  # a guard against hanging, not a performance expectation


@pytest.fixture
async def fresh_client(fresh_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as c:
        yield c


async def platform_ids(client: BlahClient, model_id: str) -> list[str]:
    return [e.id async for e in client.iter_logs(model_id)]


def archived_ids(archive: Archive) -> list[str]:
    return [r.id for r in archive.window(LogFilter(), 0, archive.count())]


class Runner:
    """Runs ``sync.run`` in a task and collects what ``on_batch`` receives."""

    def __init__(self, sync: ArchiveSync) -> None:
        self.sync = sync
        self.batches: list[list[LogEntry]] = []
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(sync.run(self.on_batch))

    async def on_batch(self, entries: list[LogEntry]) -> None:
        self.batches.append(entries)
        self.changed.set()

    @property
    def received(self) -> list[str]:
        return [e.id for batch in self.batches for e in batch]

    async def until(self, predicate: object) -> None:
        async def wait() -> None:
            while not predicate():  # type: ignore[operator]
                self.changed.clear()
                if self.task.done():
                    self.task.result()
                    raise AssertionError("the sync stopped early")
                try:
                    await asyncio.wait_for(self.changed.wait(), 0.2)
                except TimeoutError:
                    pass

        await asyncio.wait_for(wait(), WAIT)

    async def until_live(self) -> None:
        await self.until(lambda: self.sync.state is not None and self.sync.state.phase in ("live", "idle_backoff"))

    async def stop(self) -> None:
        self.sync.stop()
        await asyncio.wait_for(self.task, WAIT)


async def test_backfill_stores_the_whole_history_once(client: BlahClient, sim: SimulatorServer, tmp_path: Path) -> None:
    model = sim.person_model_id
    progress: list[BackfillProgress] = []
    with Archive(tmp_path / "a.sqlite3") as archive:
        sync = ArchiveSync(client, archive, model)
        final = await sync.backfill(on_progress=progress.append)
        want = await platform_ids(client, model)
        assert final.complete and archive.history_complete
        assert archive.count() == len(want) == final.added
        assert set(archived_ids(archive)) == set(want)
        assert progress[-1] == final and [p.pages for p in progress] == sorted(p.pages for p in progress)
        again = await sync.backfill()  # complete already: nothing refetched
        assert (again.complete, again.fetched) == (True, 0)


async def test_backfill_stops_after_limit_pages_and_resumes_below(
    client: BlahClient, sim: SimulatorServer, tmp_path: Path
) -> None:
    model = sim.person_model_id
    with Archive(tmp_path / "a.sqlite3") as archive:
        sync = ArchiveSync(client, archive, model, page_size=200)
        first = await sync.backfill(limit_pages=2)
        assert (first.pages, first.added, first.complete) == (2, 400, False)
        assert not archive.history_complete
        rest = await sync.backfill()
        assert rest.complete
        want = await platform_ids(client, model)
        assert archive.count() == len(want) and set(archived_ids(archive)) == set(want)


async def test_tail_stores_new_calls_and_reports_only_new_ones(
    fresh_client: BlahClient, fresh_sim: SimulatorServer, tmp_path: Path
) -> None:
    world, model = fresh_sim.world, fresh_sim.person_model_id
    with Archive(tmp_path / "a.sqlite3") as archive:
        sync = ArchiveSync(fresh_client, archive, model, interval=0.05)
        states = []
        sync.on_state = states.append
        runner = Runner(sync)
        await runner.until_live()
        added = await asyncio.to_thread(world.add_log_burst, 40, False)
        await runner.until(lambda: len(runner.received) >= 40)
        assert runner.received == added  # oldest first, each once
        assert set(added) <= set(archived_ids(archive))
        assert archive.get_cursor() == archive.newest_ms()
        await runner.stop()
        assert states and states[-1].phase == "stopped"


async def test_restart_fills_the_gap_including_a_big_burst_in_one_millisecond(
    fresh_client: BlahClient, fresh_sim: SimulatorServer, tmp_path: Path
) -> None:
    """While the app is closed: a burst of 700 calls (300 per millisecond at most, so full
    pages of 500 span few milliseconds) and one call in the cursor's own millisecond.
    The restarted sync must store every one of them, and nothing twice."""
    world, model = fresh_sim.world, fresh_sim.person_model_id
    path = tmp_path / "a.sqlite3"
    with Archive(path) as archive:
        sync = ArchiveSync(fresh_client, archive, model, interval=0.05)
        await sync.backfill()
        runner = Runner(sync)
        await runner.until_live()
        first = await asyncio.to_thread(world.add_log_burst, 5, False)
        await runner.until(lambda: len(runner.received) >= 5)
        await runner.stop()
        cursor = archive.get_cursor()
        assert cursor is not None and cursor == max(archive.get(i).created_at for i in first)

    late = await asyncio.to_thread(lambda: world.infer(model, "late in the same ms", 16, at=cursor)["id"])
    burst = await asyncio.to_thread(world.add_log_burst, 700, True)

    with Archive(path) as archive:
        sync = ArchiveSync(fresh_client, archive, model, interval=0.05)
        assert sync.resume_since() == cursor - 1
        runner = Runner(sync)
        await runner.until(lambda: len(runner.received) >= 701)
        await runner.stop()
        assert sorted(runner.received) == sorted([late, *burst])  # only what was new
        want = await platform_ids(fresh_client, model)
        got = archived_ids(archive)
        assert len(got) == len(set(got)) == len(want)
        assert set(got) == set(want)
        assert sync.state is not None and not sync.state.may_have_missed


async def test_run_on_an_empty_archive_starts_at_the_newest_call(
    fresh_client: BlahClient, fresh_sim: SimulatorServer, tmp_path: Path
) -> None:
    """The tail does not re-download history (backfill does); it starts live."""
    world, model = fresh_sim.world, fresh_sim.person_model_id
    with Archive(tmp_path / "a.sqlite3") as archive:
        sync = ArchiveSync(fresh_client, archive, model, interval=0.05)
        assert sync.resume_since() is None
        runner = Runner(sync)
        await runner.until_live()
        new = await asyncio.to_thread(world.add_log_burst, 3, False)
        await runner.until(lambda: len(runner.received) >= 3)
        await runner.stop()
        assert archive.count() == 3 and runner.received == new
        await sync.backfill()
        assert archive.count() == len(await platform_ids(fresh_client, model))


async def test_sync_stops_with_a_reason_for_an_unknown_model(client: BlahClient, tmp_path: Path) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        sync = ArchiveSync(client, archive, "no-such-model", interval=0.05)
        await asyncio.wait_for(sync.run(), WAIT)
        assert sync.state is not None and sync.state.phase == "stopped"
        assert sync.state.reason and archive.count() == 0


class _Pages:
    """A minimal platform for the logs endpoint (CONTRACT semantics), for failure paths."""

    platform = "fake"

    def __init__(self, entries: list[LogEntry]) -> None:
        self.entries = entries

    async def get_logs(
        self,
        model_id: str,
        *,
        since: int | None = None,
        before: int | None = None,
        limit: int | None = None,
        **_: object,
    ) -> LogPage:
        kept = [
            e
            for e in self.entries
            if (since is None or e.created_at > since) and (before is None or e.created_at < before)
        ]
        page = sorted(kept, key=lambda e: e.created_at, reverse=True)[: limit or 50]
        return LogPage(logs=page)

    def tail_logs(self, model_id: str, **kw: Any) -> LogTail:
        return LogTail(self, model_id, **kw)


async def test_a_failing_on_batch_stops_the_tail_and_keeps_what_was_stored(tmp_path: Path) -> None:
    platform = _Pages([LogEntry(id=f"e{i}", created_at=100 + i) for i in range(3)])
    with Archive(tmp_path / "a.sqlite3") as archive:
        archive.add(platform.entries[:1])
        sync = ArchiveSync(platform, archive, "m", interval=0.01)

        def explode(entries: list[LogEntry]) -> None:
            raise RuntimeError("the screen went away")

        with pytest.raises(RuntimeError):
            await asyncio.wait_for(sync.run(explode), WAIT)
        assert sync.state is not None and sync.state.phase == "stopped"
        assert archive.count() == 3  # stored (and the cursor moved) before on_batch ran
        assert archive.get_cursor() == 102
