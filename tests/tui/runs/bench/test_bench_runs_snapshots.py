"""Snapshots of Blobfish benchmark runs: Runs (3) listing them with their platform chip, the
start dialog, and the suite watch (completed with the hostile task highlighted, interrupted,
stopped by a rejected credential); at 160x48 and 80x24. The simulator's benchmark store is read
in-process on a stopped clock, so every id, time and link is the same on each run."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from simulator.blobfish.benchmarks import BenchmarkStore
from tests.support.bench import SLUG, FakeClock
from tests.support.bench_screens import ORIGIN, StoreBench, bench_app, on_runs_with_bench
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.runs.bench.start_dialog import BenchStartScreen
from tui.screens.runs.bench.watch import BenchWatchScreen

SIZES = {"160x48": (160, 48), "80x24": (80, 24)}
Ready = Callable[[BlahApp, Pilot[Any]], Awaitable[None]]


class World:
    """Four runs of the demo account, on a clock stopped after the last one: a completed
    sample suite, an interrupted one, one a rejected credential stopped, and a sandbox task."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.store = BenchmarkStore(seed=7, speed=1.0, clock=self.clock.time)
        self.bench = StoreBench(self.store)
        self.completed = self._finish(self.bench.start(SLUG).run_id)
        self.store.die_after_tasks = 3
        self.interrupted = self._finish(self.bench.start(SLUG).run_id)
        self.store.die_after_tasks = None
        self.rejected = self._finish(self.bench.start(SLUG, api_key="xai-reject-key").run_id)
        self.store.single_run(self.bench.owner, ORIGIN, SLUG, "xai", "grok-4", None, 24)
        self.clock.now += 60

    def _finish(self, run_id: str) -> str:
        self.clock.now += 600
        assert self.store.get_run(self.bench.owner, SLUG, run_id)["status"] in ("completed", "failed", "interrupted")
        return run_id


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> World:
    made = World()
    monkeypatch.setattr(BenchWatchScreen, "wall_clock", staticmethod(made.clock.time))
    return made


def _snap(snap_compare: Any, world: World, size: str, ready: Ready) -> bool:
    app = bench_app(world.bench)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs_with_bench(pilot)
        await ready(app, pilot)
        await pilot.pause(0.3)

    return bool(snap_compare(app, terminal_size=SIZES[size], run_before=run_before))


def _watch(run_id: str, downs: int = 0) -> Ready:
    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        await app.push_screen(BenchWatchScreen(SLUG, run_id))
        screen = app.screen
        assert isinstance(screen, BenchWatchScreen)
        await wait_for(pilot, lambda: screen.poll_state == "finished", what="the run")
        await pilot.press(*["down"] * downs)

    return ready


async def _nothing(app: BlahApp, pilot: Pilot[Any]) -> None:
    return None


async def _dialog(app: BlahApp, pilot: Pilot[Any]) -> None:
    await pilot.press("b")
    await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")
    await pilot.press("tab", *"xai", "tab", *"grok-4")  # it opens on the slug
    dialog = app.screen
    await wait_for(pilot, lambda: dialog.query_one("#bs-model", Input).value == "grok-4", what="the typed model")
    # Still cursors: blinking switched on then off stops the blink timers (a steady cursor).
    for field in dialog.query(Input):
        field.cursor_blink = True
        field.cursor_blink = False


@pytest.mark.parametrize("size", SIZES)
def test_runs_lists_blobfish_runs_with_their_chip(snap_compare: Any, world: World, size: str) -> None:
    world.store.die_after_tasks = None
    world.bench.start(SLUG, suite="full")  # one in flight too
    world.clock.now += 50
    assert _snap(snap_compare, world, size, _nothing)


@pytest.mark.parametrize("size", SIZES)
def test_start_dialog(snap_compare: Any, world: World, size: str) -> None:
    assert _snap(snap_compare, world, size, _dialog)


@pytest.mark.parametrize("size", SIZES)
def test_completed_suite_with_a_hostile_task(snap_compare: Any, world: World, size: str) -> None:
    assert _snap(snap_compare, world, size, _watch(world.completed, downs=2))


def test_interrupted_suite(snap_compare: Any, world: World) -> None:
    assert _snap(snap_compare, world, "160x48", _watch(world.interrupted))


def test_suite_stopped_by_a_rejected_credential(snap_compare: Any, world: World) -> None:
    assert _snap(snap_compare, world, "80x24", _watch(world.rejected))
