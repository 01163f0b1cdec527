"""The app on Compare with an errorbar queue attached (no blah.dev client: Compare says it is
offline, the bake-offs need only the queue), and opening the bake-offs by keys. No tests here."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from api_client.errorbar.client import ErrorbarClient
from application.session.context import AppContext
from simulator.errorbar.server import ErrorbarServer
from tests.support.settings import Settings
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.bakeoffs.screen import BakeoffScreen


def bakeoff_app(server: ErrorbarServer | None) -> BlahApp:
    ctx = AppContext(
        model_id="you/tiny-sft-v3",
        client=None,
        settings=Settings(timezone="UTC", persist_theme=False, start_mode="compare"),
    )
    if server is not None:
        ctx.errorbar = ErrorbarClient(server.base_url, api_key=server.member_key)
    return create_app(ctx)


def screen_of(app: BlahApp) -> BakeoffScreen:
    screen = app.screen
    assert isinstance(screen, BakeoffScreen), type(screen).__name__
    return screen


async def open_bakeoffs(app: BlahApp, pilot: Pilot[Any]) -> BakeoffScreen:
    """Compare (7) then ``o``; wait for the runs list."""
    await pilot.press("7", "o")
    await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="the bake-off view")
    screen = screen_of(app)
    if app.ctx.errorbar is not None:
        await wait_for(pilot, lambda: bool(screen.runs), what="the runs listed")
    return screen


async def read_run(app: BlahApp, pilot: Pilot[Any], run_id: str) -> BakeoffScreen:
    """Move the runs list's cursor down to ``run_id`` and press Enter; wait for its results."""
    screen = screen_of(app)
    ids = [run.id for run in screen.runs]
    await pilot.press("home", *["down"] * ids.index(run_id), "enter")
    await wait_for(
        pilot,
        lambda: (
            screen.run is not None
            and screen.run.id == run_id
            and screen.gate is not None
            and (screen.run.status != "DONE" or bool(screen.rows))
        ),
        what=f"{run_id} read",
    )
    await wait_for(
        pilot, lambda: run_id in screen.detail_text.plain and "Gate" in screen.detail_text.plain, what=f"{run_id} drawn"
    )
    return screen
