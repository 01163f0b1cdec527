"""The three watch screens end the same way (``tui/run_watch.py``): a blah.dev run, a Blobfish
benchmark run and an errorbar bake-off, each watched to its end against its simulator, ring the
bell once and say one notification titled ``<noun> <status>`` whose text names the run; a look
after the end says nothing more."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from api_client.blobfish.benchmarks import BenchmarkClient
from simulator.blahdev import runs as sim_runs
from simulator.blobfish.server import BlobfishServer
from simulator.errorbar.server import ErrorbarServer
from simulator.server import SimulatorServer
from tests.support.bakeoff_runs import on_runs, runs_app
from tests.support.bench import SLUG
from tests.support.bench_screens import PacedClock, bench_app, on_runs_with_bench, pace_watch
from tests.support.errorbar import COMPARISON, SLOW, queue_run
from tests.support.notify_log import NotificationLog
from tests.support.runs import make_app
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.run_watch import WatchScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from tui.screens.runs.bench.watch import BenchWatchScreen
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen

SIZE = (140, 45)


def _bells(app: BlahApp) -> list[int]:
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    return rung


def _titled(app: BlahApp) -> list[tuple[str, str]]:
    log = NotificationLog.current
    assert log is not None
    return log.titled(app)


async def _said_once(pilot: Pilot[Any], app: BlahApp, rung: list[int], title: str) -> str:
    """The one notification titled ``title`` (the bell rung with it, once); its text."""
    await wait_for(pilot, lambda: any(t == title for t, _ in _titled(app)), timeout=30, what=f"'{title}' said")
    assert rung == [1]
    said = [message for t, message in _titled(app) if t == title]
    assert len(said) == 1
    return said[0]


async def _quiet_after(pilot: Pilot[Any], app: BlahApp, screen: WatchScreen, rung: list[int]) -> None:
    """Another look at the ended run (``r``) says nothing and rings nothing."""
    before = len(_titled(app))
    await pilot.press("r")
    await pilot.pause(0.3)
    assert rung == [1] and len(_titled(app)) == before and app.screen is screen


def _same_words(title: str, message: str, noun: str, run_id: str) -> None:
    """Every watch says its end the same way: ``<noun> <status>``, then ``<noun> <run id> ...``."""
    assert re.fullmatch(rf"{re.escape(noun)} \S+", title), title
    assert message.startswith(f"{noun} {run_id} "), message


# ----------------------------------------------------------------------------------- blah.dev


async def test_a_blah_run_watched_to_its_end_rings_once_and_says_so(fresh_sim: SimulatorServer) -> None:
    world = fresh_sim.world
    run_id = sim_runs.create_run(world, [fresh_sim.person_model_id])["id"]  # queued; no worker runs it
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client)
        rung = _bells(app)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="Runs")
            watch = RunWatchScreen(run_id)
            await app.push_screen(watch)
            await wait_for(pilot, lambda: watch.polls > 0, what="the watch's first look")
            for eval_id, model_id in sim_runs.pending_pairs(world, run_id):
                sim_runs.run_eval(world, run_id, eval_id, model_id)
            total = len(world.run_state[run_id]["done"])
            sim_runs.finish_run(world, run_id)
            await pilot.press("r")  # poll now, rather than after the idle back-off

            message = await _said_once(pilot, app, rung, "Run completed")
            assert message == f"Run {run_id} completed: {total} of {total} items."
            _same_words("Run completed", message, "Run", run_id)
            await _quiet_after(pilot, app, watch, rung)


# ----------------------------------------------------------------------------------- Blobfish


@pytest.fixture(scope="module")
def blobfish() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=7, live=False) as running:
        yield running


@pytest.fixture
def clock(blobfish: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> PacedClock:
    paced = PacedClock()
    blobfish.benchmarks.reset()
    blobfish.benchmarks.clock = paced.time
    pace_watch(monkeypatch, paced)
    return paced


@pytest.fixture
async def bench(blobfish: BlobfishServer) -> AsyncIterator[BenchmarkClient]:
    async with BenchmarkClient(blobfish.base_url, blobfish.account_key) as client:
        yield client


async def test_a_benchmark_run_watched_to_its_end_rings_once_and_says_so(
    clock: PacedClock, bench: BenchmarkClient
) -> None:
    started = await bench.start_suite(SLUG, provider="xai", model="grok-4", suite="sample", max_tasks=2)
    run_id = started.record.run_id
    app = bench_app(bench)
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        watch = BenchWatchScreen(SLUG, run_id)
        await app.push_screen(watch)
        await wait_for(pilot, lambda: watch.poll_state == "finished", timeout=30, what="the suite's end")

        message = await _said_once(pilot, app, rung, "Benchmark run completed")
        assert message.startswith(f"Benchmark run {run_id} completed: mean score ")
        assert "2 graded" in message
        _same_words("Benchmark run completed", message, "Benchmark run", run_id)
        await wait_for(pilot, lambda: watch.poll_state == "finished", what="the look after the end")
        await _quiet_after(pilot, app, watch, rung)


# ----------------------------------------------------------------------------------- errorbar


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


async def test_a_bakeoff_watched_to_its_end_rings_once_and_says_so(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON, finish=False)["id"]
    app = runs_app(queue)
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        watch = BakeoffWatchScreen(run_id)
        await app.push_screen(watch)
        await wait_for(pilot, lambda: watch.run is not None and watch.run.status == "PENDING", what="PENDING")
        queue.finish(run_id)

        message = await _said_once(pilot, app, rung, "Bake-off DONE")
        assert message == f"Bake-off {run_id} ({COMPARISON['name']}) finished; v opens its results"
        _same_words("Bake-off DONE", message, "Bake-off", run_id)
        await _quiet_after(pilot, app, watch, rung)
        await pilot.press("escape")  # the Runs list reads the same end: it stays quiet too
        runs = await on_runs(pilot)
        await wait_for(
            pilot,
            lambda: any(r.run.id == run_id and r.run.status == "DONE" for r in runs.bakeoffs.rows),
            what="DONE in the list",
        )
        assert rung == [1] and len([t for t, _ in _titled(app) if t == "Bake-off DONE"]) == 1
