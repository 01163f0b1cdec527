"""Snapshot of the Chatroom screen on a frozen world (fixed times, nothing live)."""

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
from tui.screens.chatroom.screen import ChatroomScreen


@pytest.fixture(scope="module")
def frozen_sim() -> Iterator[SimulatorServer]:
    server = start_frozen_sim()
    try:
        yield server
    finally:
        server.stop()


def test_chatroom_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="chatroom")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatroomScreen), what="chatroom")
        screen = app.screen
        assert isinstance(screen, ChatroomScreen)
        await wait_for(pilot, lambda: len(screen.feed) > 0 and bool(screen.models), what="room loaded")
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
