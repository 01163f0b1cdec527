"""A screen closed the moment it opens (an area key pressed at once) never crashes the app:
its mount finds its widgets gone and does nothing."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.runs import SIZE, make_app, wait_for
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen
from widgets.confirm import ConfirmScreen


async def test_a_run_watch_closed_as_it_opens(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        run_id = app.screen.runs[0].id
        for _ in range(5):
            app.push_screen(RunWatchScreen(run_id))
            app.pop_screen()
            await pilot.pause()
        await pilot.press("1")
        await wait_for(pilot, lambda: app.current_mode == "logs", what="logs")
        assert app.is_running


async def test_a_confirmation_closed_as_it_opens(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        for _ in range(5):
            app.push_screen(ConfirmScreen("Start a run?", "body"))
            app.pop_screen()
            await pilot.pause()
        await pilot.press("1")
        await wait_for(pilot, lambda: app.current_mode == "logs", what="logs")
        assert app.is_running
