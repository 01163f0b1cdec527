"""The palette finds a workflow by the words a person would type for it ("bake-off", "cheaper",
"errorbar", "checkpoint"), not only by the area that happens to hold it, and running the hit
opens the workflow; a workflow whose platform is not configured is not offered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import runs_app
from tests.support.errorbar import SLOW
from tests.support.palette import options, run_hit, search
from tests.support.waiting import wait_for

SIZE = (160, 48)


def _workflow_before_call_id(hits: list[str]) -> bool:
    workflow = next((i for i, text in enumerate(hits) if "(errorbar)" in text), None)
    call_id = next((i for i, text in enumerate(hits) if text.startswith("Open call")), len(hits))
    return workflow is not None and workflow < call_id


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


async def test_bake_off_cheaper_and_errorbar_find_the_bake_offs_and_open_them(queue: ErrorbarServer) -> None:
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        for query in ("bake-off", "cheaper", "errorbar", "bakeoff"):
            palette, _ = await search(pilot, query, lambda text: "(errorbar)" in text)
            # once the palette has ranked its hits, the workflow comes before any "Open call <query> ..."
            await wait_for(pilot, lambda p=palette: _workflow_before_call_id(options(p)), what=f"{query!r} ranked")
        await run_hit(pilot, "bake-offs", lambda text: text.startswith("Bake-offs (errorbar)"))
        await wait_for(pilot, lambda: type(app.screen).__name__ == "BakeoffScreen", what="Compare's bake-offs")
        assert app.current_mode == "compare"


async def test_new_bake_off_from_the_palette_opens_the_dialog(queue: ErrorbarServer) -> None:
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await run_hit(pilot, "new bake-off", lambda text: text.startswith("New bake-off (errorbar)"))
        await wait_for(
            pilot,
            lambda: "Bakeoff" in type(app.screen).__name__ and app.current_mode == "runs",
            what="the New bake-off dialog",
        )


async def test_workflows_of_an_unconfigured_platform_are_not_offered(queue: ErrorbarServer) -> None:
    app = runs_app(queue)
    app.ctx.errorbar = None
    async with app.run_test(size=SIZE) as pilot:
        palette, _ = await search(pilot, "checkpoint", lambda text: text.startswith("Checkpoints:"))
        palette, _ = await search(pilot, "cheaper", lambda text: True)
        assert not any("(errorbar)" in text for text in options(palette))
