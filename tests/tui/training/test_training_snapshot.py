"""Snapshots of the Training sets list (with one set's detail) and of the builder."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, close_client, snapshot_app, wait_for
from tui.screens.training.build import TrainingBuildScreen
from tui.screens.training.screen import TrainingSetsScreen


async def _list(pilot: Pilot[Any]) -> TrainingSetsScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, TrainingSetsScreen) and bool(app.screen.sets), what="sets")
    screen = app.screen
    assert isinstance(screen, TrainingSetsScreen)
    await wait_for(pilot, lambda: screen.detail is not None, what="detail")
    return screen


def test_training_sets_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="training")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _list(pilot)
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)


def test_training_builder_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="training")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _list(pilot)
        await pilot.press("b")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, TrainingBuildScreen) and bool(app.screen.examples),
            timeout=30,
            what="suggestions",
        )
        builder = app.screen
        assert isinstance(builder, TrainingBuildScreen)
        await wait_for(pilot, lambda: builder.current == 0, what="first prompt in the editor")
        reply = builder.query_one("#tb-reply", TextArea)
        reply.load_text("A short, complete answer.")
        reply.cursor_blink = False
        builder.query_one("#tb-name", Input).cursor_blink = False
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
