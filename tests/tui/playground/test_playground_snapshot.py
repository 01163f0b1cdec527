"""Snapshot of the Playground after one infer: the answer, its numbers and its findings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from simulator.server import SimulatorServer
from tests.support.chatroom import (
    SIZE,
    close_client,
    snapshot_app,
    start_frozen_sim,
    wait_for,
)
from tui.screens.playground.screen import PlaygroundScreen


@pytest.fixture(scope="module")
def frozen_sim() -> Iterator[SimulatorServer]:
    """Its own frozen world, not the shared one: the infer writes a call."""
    server = start_frozen_sim()
    try:
        yield server
    finally:
        server.stop()


def test_playground_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="playground")

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, PlaygroundScreen), what="playground")
        screen = app.screen
        assert isinstance(screen, PlaygroundScreen)
        screen.query_one("#infer-prompt", TextArea).text = "Write a short story about a cat."
        screen.query_one("#infer-max", Input).value = "24"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.last_log_id is not None and not screen.infer_busy, what="the answer")
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
