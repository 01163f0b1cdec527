"""The app on Runs (3) with an errorbar queue attached and no blah.dev client, a queue whose
clock and wall clock the test sets, and reaching a bake-off's watch by keys. No tests here."""

from __future__ import annotations

import datetime as dt
from typing import Any

from textual.pilot import Pilot

from api_client.errorbar.client import ErrorbarClient
from application.session.context import AppContext
from simulator.errorbar.server import ErrorbarServer
from tests.support.settings import Settings
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from tui.screens.runs.screen import RunsScreen

QUEUED_AT = dt.datetime(2026, 11, 30, 9, 15, tzinfo=dt.UTC)
"""The stopped wall clock of the queue: every run's ``created_at`` (snapshots never move)."""


def stop_wall_clock(server: ErrorbarServer) -> None:
    server.store.wall_clock = lambda: QUEUED_AT


def runs_app(server: ErrorbarServer, *, admin: bool = False) -> BlahApp:
    """Runs with ``server`` as the errorbar queue (``admin``: an OWNER/ADMIN key, which may cancel)."""
    ctx = AppContext(
        model_id="you/tiny-sft-v3",
        client=None,
        settings=Settings(timezone="UTC", persist_theme=False, start_mode="runs", theme="blah-dark"),
    )
    ctx.errorbar = ErrorbarClient(server.base_url, api_key=server.admin_key if admin else server.member_key)
    return create_app(ctx)


async def on_runs(pilot: Pilot[Any]) -> RunsScreen:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, RunsScreen) and app.screen.bakeoffs.loaded and bool(app.screen.bakeoffs.rows),
        what="Runs with its bake-offs",
    )
    assert isinstance(app.screen, RunsScreen)
    return app.screen


async def go_to_row(pilot: Pilot[Any], run_id: str) -> RunsScreen:
    """Down the Runs table (it lists the bake-offs newest first) to ``run_id``'s row."""
    screen = await on_runs(pilot)
    keys = [row.key for row in screen.bakeoffs.rows]
    await pilot.press("home", *["down"] * keys.index(f"errorbar:{run_id}"))
    await wait_for(pilot, lambda: screen.table.current_key == f"errorbar:{run_id}", what=f"{run_id} highlighted")
    return screen


async def watch_by_keys(pilot: Pilot[Any], run_id: str) -> BakeoffWatchScreen:
    """Runs, down to ``run_id``, Enter; the watch once it has read the run."""
    await go_to_row(pilot, run_id)
    await pilot.press("enter")
    app = pilot.app
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None and app.screen.run.id == run_id
        ),
        what=f"the watch of {run_id}",
    )
    assert isinstance(app.screen, BakeoffWatchScreen)
    return app.screen
