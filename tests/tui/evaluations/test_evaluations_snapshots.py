"""Snapshots of the Evaluations screens pushed over the list (the list itself is in the
matrix, tests/tui/app/test_snapshots_matrix.py): a job's rollouts, the replay of a failing rollout
(a tool-call loop, steps without token counts), and one of its steps in the Inspector; at
80x24 and 160x48, on the seeded Blobfish world at a fixed instant."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from application.session.context import AppContext
from tests.support.blobfish_world import StoreSource
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.evaluations.replay import ReplayScreen
from tui.screens.evaluations.rollouts import RolloutsScreen
from tui.screens.evaluations.screen import EvaluationsScreen
from tui.screens.inspector.screen import InspectorScreen

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


def make_app(world: StoreSource) -> BlahApp:
    ctx = AppContext(
        model_id="tinystories-chat-1m",
        blobfish=world,
        settings={"start_mode": "evaluations", "timezone": "UTC", "persist_theme": False, "theme": "blah-dark"},
    )
    return create_app(ctx)


async def open_tool_loop(pilot: Pilot[Any], depth: str) -> None:
    """From the list: the evaluation with the most tool-call loops, its first looping failed
    rollout, then (``depth``) its replay and the loop's second step in the Inspector."""
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
    await pilot.press("s", "s")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, RolloutsScreen), what="rollouts")
    screen = app.screen
    assert isinstance(screen, RolloutsScreen)
    looping = next(i for i, d in enumerate(screen.diagnosis.rollouts) if d.tool_loops and d.rollout.passed is False)
    await pilot.press(*["down"] * looping)
    if depth != "rollouts":
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="replay")
        await pilot.press("n")
    if depth == "inspector":
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, InspectorScreen) and app.screen.analysis is not None, what="inspector"
        )
    app.clear_notifications()  # the sort's toast lives for seconds: whether it is still up is timing
    await pilot.pause(0.2)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("depth", ["rollouts", "replay", "inspector"])
def test_evaluations_screen(snap_compare: Any, world: StoreSource, depth: str, size: str) -> None:
    app = make_app(world)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_tool_loop(pilot, depth)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
