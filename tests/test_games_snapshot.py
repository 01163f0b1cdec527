"""Snapshot of the Games screen on a frozen world: the list and one game's turns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.server import SimulatorServer
from tests.test_chatroom_support import (
    SIZE,
    close_client,
    snapshot_app,
    start_frozen_sim,
    wait_for,
)
from tui.screens.games.screen import GamesScreen


@pytest.fixture(scope="module")
def frozen_sim() -> Iterator[SimulatorServer]:
    server = start_frozen_sim()
    try:
        yield server
    finally:
        server.stop()


def test_games_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="games")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, GamesScreen), what="games")
        screen = app.screen
        assert isinstance(screen, GamesScreen)
        await wait_for(pilot, lambda: screen.current is not None and bool(screen.current.turns), what="a game's turns")
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
