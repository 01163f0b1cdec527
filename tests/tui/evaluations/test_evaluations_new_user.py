"""What a new user hit in Evaluations (issue 31): the page's line that published jobs are
private, executed and graded by the person's SDK client, where the page puts it (on the
published jobs)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from application.session.context import AppContext
from tests.support.blobfish_world import StoreSource
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.evaluations.screen import EvaluationsScreen

SIZE = (160, 48)


@pytest.fixture(scope="module")
def world() -> StoreSource:
    return StoreSource(newest=40)


def make_app(source: Any) -> BlahApp:
    ctx = AppContext(
        model_id="m", blobfish=source, settings={"start_mode": "evaluations", "timezone": "UTC", "persist_theme": False}
    )
    return create_app(ctx)


def text_of(app: App[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


async def test_published_jobs_are_said_private_and_graded_by_the_sdk_client(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, EvaluationsScreen) and app.screen.loaded, what="the evaluations"
        )
        shown = " ".join(text_of(app).split())
        assert "private, executed and graded by your SDK client" in shown
        assert "not a certified benchmark" in shown


async def test_one_step_numbering_from_1_and_the_inspector_names_blobfish_and_the_model(world: StoreSource) -> None:
    """Replay's "step N of M", the loop finding's "steps A–B", the step list and the Inspector's
    id all count the same steps from 1; the Inspector's header is Blobfish's and the model's."""
    import re

    from tui.screens.evaluations.replay import ReplayScreen
    from tui.screens.evaluations.rollouts import RolloutsScreen
    from tui.screens.inspector.screen import InspectorScreen
    from widgets.status_header import StatusHeader

    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, EvaluationsScreen)
                and app.screen.loaded
                and app.screen.diagnosed == len(app.screen.rows) > 0
            ),
            what="the evaluations, diagnosed",
        )
        await pilot.press("f", "s", "s", "enter")  # failed only, most tool-call loops first; its rollouts
        await wait_for(pilot, lambda: isinstance(app.screen, RolloutsScreen), what="the rollouts")
        top = app.screen_stack[-2].shown[0].diagnosis
        looping = next(i for i, d in enumerate(top.rollouts) if d.tool_loops and d.rollout.passed is False)
        await pilot.press(*["down"] * looping, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        replay = app.screen
        rollout = replay.diagnosis.rollout
        loop = replay.diagnosis.tool_loops[0]
        first_position = next(n for n, s in enumerate(rollout.steps, 1) if s.index == loop.detail["first_step"])
        said = re.search(r"steps? (\d+)", loop.evidence)
        assert said is not None and int(said.group(1)) == first_position, loop.evidence
        await pilot.press("n")  # step 2
        assert f"step 2 of {len(rollout.steps)}" in text_of(app)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.analysis is not None,
            what="the step in the inspector",
        )
        assert app.screen.log_id == f"{rollout.rollout_id}#2"
        header = app.screen.query_one(StatusHeader)
        assert header.platform == "Blobfish" and "blah.dev" not in header.platform
        assert header.model_id == (rollout.steps[1].model or rollout.model)


async def test_at_80_columns_the_findings_stay_in_view(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, EvaluationsScreen)
                and app.screen.loaded
                and app.screen.diagnosed == len(app.screen.rows) > 0
            ),
            what="the evaluations, diagnosed",
        )
        await pilot.pause(0.2)
        lines = text_of(app).splitlines()
        header = next(line for line in lines if "reward" in line and "model" in line and "sort" not in line)
        assert "findings" in header, header
        shown = app.screen.shown
        first = next(row for row in shown[:5] if row.diagnosis is not None and row.diagnosis.kind_counts())
        row_line = next(line for line in lines if (first.taskset or "")[:12] in line and "findings" not in line)
        from widgets.badges import badge_text

        badge = badge_text(next(iter(first.diagnosis.kind_counts()))).plain.strip()
        assert badge in row_line, (badge, row_line)
