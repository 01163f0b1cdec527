"""Snapshots of bake-offs in Runs (3) and of the bake-off watch, reached by keys on the errorbar
simulator (its wall clock stopped, so every ``created_at`` is the same on each run): Runs
listing a finished comparison, a finished criterion run, a failed one and a pending one; the
watch of a DONE run and of a failed one; at 160x48 and 80x24."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import on_runs, runs_app, stop_wall_clock, watch_by_keys
from tests.support.errorbar import COMPARISON, CRITERION, SLOW, queue_run
from tests.support.waiting import wait_for
from tui.app import BlahApp

SIZES = {"160x48": (160, 48), "80x24": (80, 24)}
DONE, CRITERION_DONE, FAILED, PENDING = "ev_7_0001", "ev_7_0002", "ev_7_0003", "ev_7_0004"
Ready = Callable[[BlahApp, Pilot[Any]], Awaitable[None]]


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        stop_wall_clock(server)
        queue_run(server, COMPARISON)
        queue_run(server, CRITERION)
        failed = queue_run(server, {**COMPARISON, "name": "tiny v3 against a broken provider"}, finish=False)
        server.fail_run(failed["id"], "Generation failed: the provider returned errors.")
        queue_run(server, {**COMPARISON, "name": "tiny v3 waiting in the queue"}, finish=False)
        yield server


def _snap(snap_compare: Any, server: ErrorbarServer, size: str, ready: Ready) -> bool:
    app = runs_app(server)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        await ready(app, pilot)
        await pilot.pause(0.3)

    try:
        return bool(snap_compare(app, terminal_size=SIZES[size], run_before=run_before))
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


async def _runs(app: BlahApp, pilot: Pilot[Any]) -> None:
    return None


def _watch(run_id: str, final: str) -> Ready:
    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        watch = await watch_by_keys(pilot, run_id)
        await wait_for(pilot, lambda: final in watch.state_text.plain, what=final)

    return ready


@pytest.mark.parametrize("size", list(SIZES))
def test_runs_with_bakeoffs(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    assert _snap(snap_compare, queue, size, _runs)


@pytest.mark.parametrize("size", list(SIZES))
def test_watch_of_a_done_bakeoff(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    assert _snap(snap_compare, queue, size, _watch(DONE, "DONE: the bake-off finished"))


@pytest.mark.parametrize("size", list(SIZES))
def test_watch_of_a_failed_bakeoff(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    assert _snap(snap_compare, queue, size, _watch(FAILED, "FAILED"))


def test_watch_of_a_pending_bakeoff(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, "160x48", _watch(PENDING, "PENDING"))
