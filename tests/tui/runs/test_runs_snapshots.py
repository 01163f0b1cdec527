"""Snapshots of the Run watch, Results, Result and Leaderboard screens (the Runs, Compare and
Health screens as they open are in the matrix, tests/tui/app/test_snapshots_matrix.py; the leaderboard
is kept here for its stacked layout at 140 columns, where the chart has room below the table).

A frozen world (fixed seed, fixed clock, nothing live): every time, score and row is the same on
each run. Times are shown in UTC.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.runs import SIZE, close_client, frozen_simulator, make_app, wait_for
from tui.app import BlahApp
from tui.screens.leaderboard.screen import LeaderboardScreen
from tui.screens.runs.results import ResultsScreen
from tui.screens.runs.results_detail import ResultDetailScreen
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen


@pytest.fixture(scope="module")
def frozen_sim() -> Iterator[SimulatorServer]:
    """Its own frozen world (another instant, its clock stopped), not the shared one."""
    with frozen_simulator() as server:
        yield server


def _snap(
    snap_compare: Any, server: SimulatorServer, start_mode: str, ready: Callable[[BlahApp, Pilot[Any]], Any]
) -> bool:
    client = BlahClient(server.base_url, api_key=server.council_key)
    app = make_app(server, client, start_mode=start_mode)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause(0.6)  # plots draw on the next refresh

    try:
        return bool(snap_compare(app, terminal_size=SIZE, run_before=run_before))
    finally:
        close_client(client)


def test_run_watch_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    completed = next(r for r in frozen_sim.world.runs.values() if r["status"] == "completed")

    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await app.push_screen(RunWatchScreen(completed["id"]))
        screen = app.screen
        assert isinstance(screen, RunWatchScreen)
        await wait_for(pilot, lambda: screen.poll_state == "finished" and bool(screen.eval_names), what="the run")

    assert _snap(snap_compare, frozen_sim, "runs", ready)


def test_results_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.loaded, what="results")

    assert _snap(snap_compare, frozen_sim, "runs", ready)


def test_result_detail_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.loaded, what="results")
        await pilot.press("d", "enter")  # the first verdict worth doubting
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDetailScreen), what="the result")
        detail = app.screen
        assert isinstance(detail, ResultDetailScreen)
        await wait_for(pilot, lambda: detail.loaded, what="the full result")

    assert _snap(snap_compare, frozen_sim, "runs", ready)


def test_leaderboard_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    async def ready(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="leaderboard"
        )

    assert _snap(snap_compare, frozen_sim, "leaderboard", ready)
