"""Helpers shared by the runs/results/leaderboard/compare/health screen tests (no tests here)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support.notify_log import said
from tests.support.settings import settings_with
from tests.support.waiting import wait_for  # noqa: F401  (re-exported for older imports)
from tui.app import BlahApp, create_app

SIZE = (140, 45)
FROZEN_NOW_MS = 1_764_410_400_000  # 2025-11-29 10:00:00Z: the snapshot world's "now"
QUIET = {"logs_interval": 5.0, "logs_max_interval": 30.0}
"""The Logs screen (the app's home) tails in the background; keep it slow in these tests."""


def make_app(
    server: SimulatorServer, client: BlahClient | None, *, start_mode: str = "runs", **settings: object
) -> BlahApp:
    """The app on ``start_mode`` (not the Logs home, whose live tail these tests do not need)."""
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=settings_with(QUIET, start_mode=start_mode, **settings),
    )
    return create_app(ctx)


def notifications(app: BlahApp) -> list[str]:
    """What ``app`` notified in this test, timed-out toasts included."""
    return said(app)


def close_client(client: BlahClient) -> None:
    """Close a client made outside an event loop (snapshot tests)."""
    try:
        asyncio.run(client.aclose())
    except RuntimeError:
        pass  # its loop went away with the app's; nothing left to close


@contextmanager
def frozen_simulator(seed: int = 7) -> Iterator[SimulatorServer]:
    """A simulator whose world's clock is fixed, so every time on screen is the same each run."""
    with mock.patch("simulator.blahdev.world.now_ms", lambda: FROZEN_NOW_MS):
        server = SimulatorServer(seed=seed, speed=1.0, live=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()
