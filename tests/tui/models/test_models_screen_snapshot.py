"""Snapshot of the registration form with its messages (the Models & evals screen itself is in
the matrix, tests/tui/app/test_snapshots_matrix.py)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from simulator.server import SimulatorServer
from tests.support.chatroom import (
    SIZE,
    close_client,
    snapshot_app,
    wait_for,
)
from tui.screens.models.register import RegisterModelScreen
from tui.screens.models.screen import ModelsScreen


async def _loaded(pilot: Pilot[Any]) -> ModelsScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and bool(app.screen.models), what="models")
    screen = app.screen
    assert isinstance(screen, ModelsScreen)
    await wait_for(
        pilot, lambda: "Description" in str(screen.query_one("#models-detail-body", Static).render()), what="detail"
    )
    return screen


def test_register_form_problems_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="models")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _loaded(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, RegisterModelScreen), what="form")
        form = app.screen
        form.query_one("#reg-uri", Input).value = "claude"
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        form.query_one("#reg-name", Input).cursor_blink = False

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
