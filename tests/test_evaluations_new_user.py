"""What a new user hit in Evaluations (issue 31): the page's line that published jobs are
private, executed and graded by the person's SDK client, where the page puts it (on the
published jobs)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from application.context import AppContext
from tests.support.blobfish_world import StoreSource
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.evaluations.screen import EvaluationsScreen

SIZE = (160, 48)


@pytest.fixture(scope="module")
def world() -> StoreSource:
    return StoreSource(newest=40)


def make_app(source: Any) -> BlahApp:
    ctx = AppContext(model_id="m", blobfish=source,
                     settings={"start_mode": "evaluations", "timezone": "UTC", "persist_theme": False})  # fmt: skip
    return create_app(ctx)


def text_of(app: App[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


async def test_published_jobs_are_said_private_and_graded_by_the_sdk_client(world: StoreSource) -> None:
    app = make_app(world)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EvaluationsScreen) and app.screen.loaded,
                       what="the evaluations")
        shown = " ".join(text_of(app).split())
        assert "private, executed and graded by your SDK client" in shown
        assert "not a certified benchmark" in shown
