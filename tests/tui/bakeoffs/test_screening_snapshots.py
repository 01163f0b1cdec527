"""Snapshots of a finished screening (Runs, Enter on it, ``v``), reached by keys on the errorbar
simulator with its wall clock stopped: a "switch" recommendation with the incumbent, its token
shape and every candidate's similarity and money, and a "keep" drawn as the good outcome; at
160x48 and 80x24."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import go_to_row, runs_app, stop_wall_clock
from tests.support.errorbar import SLOW, queue_run
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.screening_view import ScreeningScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen

SIZES = {"160x48": (160, 48), "80x24": (80, 24)}
SWITCH, KEEP = "ev_7_0001", "ev_7_0002"


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        stop_wall_clock(server)
        queue_run(server, {"screening": True})
        queue_run(
            server,
            {
                "screening": True,
                "name": "the big ones only",
                "sample_count": 10,
                "candidate_models": ["anthropic/claude-sonnet-4", "openai/gpt-4.1"],
            },
        )
        yield server


def _snap(snap_compare: Any, server: ErrorbarServer, size: str, run_id: str) -> bool:
    app = runs_app(server, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await go_to_row(pilot, run_id)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, BakeoffWatchScreen)
                and app.screen.run is not None
                and app.screen.run.status == "DONE"
            ),
            what="the watch",
        )
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
        await pilot.pause(0.3)

    try:
        return bool(snap_compare(app, terminal_size=SIZES[size], run_before=run_before))
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


@pytest.mark.parametrize("size", list(SIZES))
def test_screening_that_recommends_a_switch(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    assert _snap(snap_compare, queue, size, SWITCH)


def test_screening_that_says_keep(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, "160x48", KEEP)
