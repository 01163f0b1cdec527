"""Snapshots of the bake-off view's gate panel on a certified switch (a criterion run against
``__stored__``), reached by keys: the pass-rate and noninferiority checks with required vs
actual and the queue's notes, and the assertion results; and a test that every number on the
gate lines is the queue's own gate answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import SLOW, get, queue_run

CERTIFIED = {
    "name": "switch to tiny v3?",
    "eval_kind": "criterion",
    "criterion_id": "crit_helpful",
    "baseline_model": "__stored__",
    "candidate_models": ["you/tiny-sft-v3"],
    "sample_count": 100,
    "assertions": [{"type": "completed"}, {"type": "max_length", "value": "300"}],
}


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        queue_run(server, CERTIFIED)
        yield server


def test_the_gate_panel_of_a_certified_switch(snap_compare: Any, queue: ErrorbarServer) -> None:
    app = bakeoff_app(queue)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_bakeoffs(app, pilot)
        await read_run(app, pilot, "ev_7_0001")
        await app.workers.wait_for_complete()
        await pilot.press("p")  # the gate panel at the pane's top (the verdict comes first)
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=(160, 48), run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass


async def test_every_gate_line_is_the_queues_own_check(queue: ErrorbarServer) -> None:
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, "ev_7_0001")
        shown = screen.detail_text.plain
    await app.ctx.errorbar.aclose()
    verdict = get(
        queue,
        "/v1/evals/ev_7_0001/gate",
        min_pass_rate="0.5",
        min_assertion_pass_rate="0.9",
        noninferiority_margin="0.05",
    ).json()
    assert {c["check"] for c in verdict["checks"]} == {"pass_rate", "assertion_pass_rate", "noninferiority"}
    words = {
        "pass_rate": ("pass rate", "lower bound"),
        "assertion_pass_rate": ("assertion pass rate", "exact rate"),
        "noninferiority": ("noninferiority", "candidate's floor"),
    }
    for check in verdict["checks"]:
        kind, actual = words[check["check"]]
        required = "what you shipped − margin" if check["check"] == "noninferiority" else "required"
        line = (
            f"{'pass' if check['pass'] else 'FAIL'}  {kind} {check['model']}: {required} "
            f"{check['required']:.3f} · {actual} {check['actual']:.3f}"
        )
        assert line in shown
    assert "scaled by the judge's TPR+TNR-1 0.740" in shown
