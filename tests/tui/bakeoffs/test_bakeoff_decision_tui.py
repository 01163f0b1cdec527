"""The bake-off view's verdict is the CLI's (issue 41, item 3): a person opens a finished run by
keys and reads the same answer, with the same figures and their questions, as `bakeoff verdict`
prints for it, against the queue simulator over real HTTP."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator

import pytest

from cli.bakeoff.command import bakeoff_main
from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import COMPARISON, queue_run, queue_server
from tests.support.waiting import wait_for


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _verdict_cli(queue: ErrorbarServer, run_id: str) -> list[str]:
    out = io.StringIO()
    bakeoff_main(
        ["verdict", run_id, "--base-url", queue.base_url],
        out=out,
        err=io.StringIO(),
        env={"ERRORBAR_API_KEY": queue.read_key},
    )
    return out.getvalue().splitlines()


async def test_the_view_and_the_cli_give_one_verdict_with_the_same_figures(queue: ErrorbarServer) -> None:
    # one candidate, 96 samples: the paired difference is wholly below 0 while the queue's
    # interval touches 0.5 (the view said "not enough evidence" beside a clearly worse reading)
    run_id = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v3"], "sample_count": 96})["id"]
    said = await asyncio.to_thread(_verdict_cli, queue, run_id)  # the CLI runs its own event loop
    assert said[0].startswith("don't switch: you/tiny-sft-v3 is worse: paired difference on the 96 samples")
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run_id)
        await wait_for(pilot, lambda: "Switch?" in screen.verdict_text.plain, what="the verdict")
        shown = " ".join(screen.verdict_text.plain.split())
        assert shown.startswith(f"Switch? {said[0]}")
        for line in said[1:]:  # the judge's reading and each figure, with the question it answers
            assert " ".join(line.removeprefix("the app's reading of the judge: ").split()) in shown
        assert "each figure answers: is the candidate worse than the baseline?" in shown
        assert "as the judge read them -6.2 points [-11.9, -0.6]: yes: below 0" in shown
        assert "no detectable difference" not in screen.detail_text.plain
