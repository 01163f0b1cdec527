"""Snapshots of Checkpoints (``c`` in Compare) on the frozen world, reached by keys: your model
against GPT-2 at 160x48 and 80x24, and against its own older calls at 160x48."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.checkpoint_app import choose_in_picker, compare_app
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.compare.checkpoints import CheckpointScreen
from tui.screens.compare.screen import CompareScreen


def _snap(snap_compare: Any, server: SimulatorServer, size: tuple[int, int], *keys: str) -> bool:
    """Compare, ``c``, then another model chosen in the picker (no ``keys``) or ``keys``."""
    client = BlahClient(server.base_url, api_key=server.council_key)
    app = compare_app(server, client)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded, what="compare")
        await pilot.press("c")
        if keys:
            await wait_for(pilot, lambda: len(app.screen_stack) > 2, what="the model picker")
            await pilot.press(*keys)
        else:
            await choose_in_picker(app, pilot, "gpt2-base")
        await wait_for(pilot, lambda: _shown(app), what="the checkpoint comparison")
        await app.workers.wait_for_complete()
        await pilot.pause()

    try:
        return bool(snap_compare(app, terminal_size=size, run_before=run_before))
    finally:
        try:
            asyncio.run(client.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


def _shown(app: BlahApp) -> bool:
    return isinstance(app.screen, CheckpointScreen) and app.screen.comparison is not None


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
def test_checkpoints_against_another_model(
    snap_compare: Any, frozen_sim: SimulatorServer, size: tuple[int, int]
) -> None:
    assert _snap(snap_compare, frozen_sim, size)


def test_checkpoints_against_older_calls(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    assert _snap(snap_compare, frozen_sim, (160, 48), "escape", "w")
