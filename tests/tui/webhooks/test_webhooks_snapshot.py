"""Snapshots of the Webhooks screen (two registrations on a frozen world) and its form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.chatroom import FROZEN_MS, SIZE, close_client, snapshot_app, start_frozen_sim, wait_for
from tui.screens.webhooks.form import WebhookFormScreen
from tui.screens.webhooks.screen import WebhooksScreen


@pytest.fixture(scope="module")
def frozen_sim() -> Iterator[SimulatorServer]:
    """Its own frozen world, not the shared one: it registers two webhooks."""
    server = start_frozen_sim()
    server.world.clock = lambda: FROZEN_MS + 90_000  # registrations get a fixed time too
    headers = {"Authorization": f"Bearer {server.council_key}"}
    for url, events in (
        ("https://hooks.example.net/blah", ["run.completed"]),
        ("http://127.0.0.1:9/[bold]not-markup[/]", ["run.failed", "run.stalled", "chatroom.message"]),
    ):
        response = sim_http.post(
            f"{server.base_url}/api/v1/webhooks",
            json={"url": url, "event_types": events},
            headers=headers,
            trust_env=False,
        )
        response.raise_for_status()
    try:
        yield server
    finally:
        server.stop()


async def _loaded(pilot: Pilot[Any]) -> WebhooksScreen:
    app = pilot.app
    await wait_for(
        pilot, lambda: isinstance(app.screen, WebhooksScreen) and len(app.screen.webhooks) == 2, what="webhooks listed"
    )
    screen = app.screen
    assert isinstance(screen, WebhooksScreen)
    return screen


def test_webhooks_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="webhooks")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _loaded(pilot)
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)


def test_webhook_form_snapshot(snap_compare: Any, frozen_sim: SimulatorServer) -> None:
    app, client = snapshot_app(frozen_sim, start_mode="webhooks")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _loaded(pilot)
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, WebhookFormScreen) and bool(app.screen.query("#wf-url")),
            what="the form built",
        )  # pushed is not yet composed on a busy machine
        form = app.screen
        url = form.query_one("#wf-url", Input)
        url.value = "ftp://example.net"
        await pilot.press("ctrl+s")
        url.cursor_blink = False
        form.query_one("#wf-secret", Input).cursor_blink = False
        await pilot.pause(0.2)

    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        close_client(client)
