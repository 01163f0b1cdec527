"""Snapshots of the bake-off view (``o`` in Compare) reached by keys on the errorbar
simulator: a finished comparison at 160x48 and 80x24, and a criterion run at 160x48."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import COMPARISON, CRITERION, SLOW, queue_run


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        queue_run(server, COMPARISON)
        queue_run(server, CRITERION)
        yield server


def _snap(snap_compare: Any, server: ErrorbarServer, size: tuple[int, int], run_id: str) -> bool:
    app = bakeoff_app(server)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_bakeoffs(app, pilot)
        await read_run(app, pilot, run_id)
        await app.workers.wait_for_complete()
        await pilot.pause()

    try:
        return bool(snap_compare(app, terminal_size=size, run_before=run_before))
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
def test_a_finished_comparison(snap_compare: Any, queue: ErrorbarServer, size: tuple[int, int]) -> None:
    assert _snap(snap_compare, queue, size, "ev_7_0001")


def test_a_criterion_run(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, (160, 48), "ev_7_0002")
