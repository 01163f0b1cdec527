"""Snapshots of the Lens screen: a finished analysis (table and heat map) and a model
without a bundle."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import TextArea

from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, close_client, snapshot_app, wait_for
from tui.screens.lens.screen import LensScreen


async def _lens(pilot: Pilot[Any]) -> LensScreen:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, LensScreen) and app.screen.has_bundle is not None, what="bundle"
    )
    screen = app.screen
    assert isinstance(screen, LensScreen)
    screen.query_one("#lens-prompt", TextArea).cursor_blink = False
    return screen


def test_lens_analysis_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="lens")

    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await _lens(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.run is not None and screen.run.done, what="analysis")
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)


def test_lens_no_bundle_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="lens")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _lens(pilot)
        app.push_screen(LensScreen(frozen_sim.peer_model_ids[0]))
        await wait_for(
            pilot, lambda: isinstance(app.screen, LensScreen) and app.screen.has_bundle is False, what="no bundle"
        )
        app.screen.query_one("#lens-prompt", TextArea).cursor_blink = False
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
