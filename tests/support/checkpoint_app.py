"""The app opened on Compare (7) for the Checkpoints tests, and choosing a model in the model
picker the way a person does (arrow keys, space, ``y``). No tests here."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support.settings import Settings, settings_with
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.runs.pick import ModelPickerScreen

SIZE = (160, 48)
LIMIT = 300
"""Calls read per side: enough for clear verdicts on the demo models, quick to read."""


def compare_app(server: SimulatorServer, client: BlahClient | None, **settings: Any) -> BlahApp:
    """The app on Compare, times in UTC, reading ``LIMIT`` calls per side."""
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=settings_with(
            Settings(
                timezone="UTC",
                persist_theme=False,
                start_mode="compare",
                diagnosis_limit=LIMIT,
                logs_interval=5.0,
                logs_max_interval=30.0,
            ),
            **settings,
        ),
    )
    return create_app(ctx)


async def choose_in_picker(app: BlahApp, pilot: Pilot[Any], model_id: str) -> None:
    """With the model picker open: move to ``model_id`` with the arrow keys, tick it, press y."""
    await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
    picker = app.screen
    assert isinstance(picker, ModelPickerScreen)
    ids = [m.id for m in picker._models]
    await pilot.press(*["down"] * ids.index(model_id), "space")
    await wait_for(pilot, lambda: picker.chosen() == [model_id], what=f"{model_id} ticked")
    await pilot.press("y")
