"""Visual snapshots of the Diagnosis screen against a simulator with a FIXED clock (seed 7,
no live activity): every time on screen is absolute UTC and every number comes from the same
world, so the screenshots are the same on every run. Update with ``--snapshot-update`` after
a deliberate change, and look at the SVGs in tests/__snapshots__/ before committing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

import simulator.blahdev.world
from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.settings.typed import Settings
from simulator.server import SimulatorServer
from tests.support.diagnosis_screen import SIZE, screen_of
from tests.support.logs_world import FIXED_ANCHOR_MS, wait_for
from tui.app import create_app
from tui.screens.diagnosis.screen import DiagnosisScreen

LIMIT = 1500


@pytest.fixture(scope="module")
def fixed_sim() -> Iterator[SimulatorServer]:
    """A simulator whose world is anchored at, and frozen at, ``FIXED_ANCHOR_MS``."""
    original = simulator.blahdev.world.now_ms
    simulator.blahdev.world.now_ms = lambda: FIXED_ANCHOR_MS  # read by World() for its anchor and clock
    try:
        server = SimulatorServer(seed=7, live=False)
    finally:
        simulator.blahdev.world.now_ms = original
    assert server.world.now() == FIXED_ANCHOR_MS
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def app_on(server: SimulatorServer) -> Iterator[Any]:
    client = BlahClient(server.base_url, api_key=server.council_key)
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=Settings(start_mode="diagnosis", archive=False, timezone="UTC", diagnosis_limit=LIMIT),
    )
    try:
        yield create_app(ctx)
    finally:  # the app's event loop is gone: close the client's sockets in a fresh one
        with contextlib.suppress(Exception):
            asyncio.run(client.aclose())


async def _loaded(pilot: Pilot[Any]) -> DiagnosisScreen:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, DiagnosisScreen) and app.screen.view is not None and not app.screen.busy,
        timeout=40,
        what="the diagnosis",
    )
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen_of(app)  # type: ignore[arg-type]


def test_diagnosis_rates_snapshot(snap_compare: Any, fixed_sim: SimulatorServer) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _loaded(pilot)
        await pilot.press("down", "down", "down", "down", "down", "right")  # loop, our rate
        await pilot.pause()

    with app_on(fixed_sim) as app:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_diagnosis_groups_and_clusters_snapshot(snap_compare: Any, fixed_sim: SimulatorServer) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await _loaded(pilot)
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("y")
        panel = screen.clusters_panel
        await wait_for(pilot, lambda: panel.clusters is not None and not panel.busy, timeout=20, what="the clusters")
        await pilot.app.workers.wait_for_complete()
        await pilot.press("f")
        await pilot.pause()

    with app_on(fixed_sim) as app:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
