"""Snapshots of what ``P`` and ``space`` add to the Evaluations list: the publish confirmation
(what will be published, where) and the list with three evaluations marked for one export, at
80x24 and 160x48, on the seeded Blobfish world at a fixed instant. Nothing is sent: the client
is a real one aimed at https://blobfish.ai, and the dialog is only opened."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blobfish import BlobfishClient
from application.session.context import AppContext
from tests.support.blobfish_world import StoreSource
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.evaluations.screen import EvaluationsScreen
from widgets.confirm import ConfirmScreen

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


class PublishingWorld(StoreSource):
    """The seeded world, with the client the screen publishes through (never reached here)."""

    def __init__(self) -> None:
        super().__init__(newest=40)
        self.client = BlobfishClient("https://blobfish.ai", "bf_" + "5" * 32)


@pytest.fixture(scope="module")
def publishing_world() -> PublishingWorld:
    return PublishingWorld()


def make_app(world: StoreSource) -> BlahApp:
    ctx = AppContext(
        model_id="tinystories-chat-1m",
        blobfish=world,
        settings={"start_mode": "evaluations", "timezone": "UTC", "persist_theme": False, "theme": "blah-dark"},
    )
    return create_app(ctx)


async def read(pilot: Pilot[Any]) -> None:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, EvaluationsScreen)
            and app.screen.loaded
            and app.screen.diagnosed == len(app.screen.rows) > 0
        ),
        what="the evaluations",
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_publish_confirmation(snap_compare: Any, publishing_world: PublishingWorld, size: str) -> None:
    app = make_app(publishing_world)

    async def run_before(pilot: Pilot[Any]) -> None:
        await read(pilot)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), what="the confirmation")
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_three_marked_for_export(snap_compare: Any, publishing_world: PublishingWorld, size: str) -> None:
    app = make_app(publishing_world)

    async def run_before(pilot: Pilot[Any]) -> None:
        await read(pilot)
        await pilot.press("space", "down", "space", "space")
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
