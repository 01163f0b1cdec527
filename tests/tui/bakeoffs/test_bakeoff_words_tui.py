"""The screens say the queue's wire values in people's words, as `blah-tui bakeoff` does (issue
41 item 7), on the simulator seeded with the demo's bake-offs plus a screening and a certified
switch, reached by keys: Runs (3) lists a screening as one, a stored baseline as your logged
answers and a finished bake-off's end as "not given"; Enter, ``v`` open Compare's Bake-offs view,
whose table, detail and criterion rows never show ``__stored__`` or ``direct (the rubric)``;
Enter, ``v`` on a screening show a small saving below the queue's bar as "cheaper, but not by
enough", never "not_cheaper" beside a positive saving."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from simulator.errorbar.demo import queue_demo_runs
from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import on_runs, runs_app, watch_by_keys
from tests.support.errorbar import SLOW, get, queue_run
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.screen import BakeoffScreen
from tui.screens.bakeoffs.screening_view import ScreeningScreen

SIZE = (160, 48)
STORED_SWITCH = {
    "name": "certified switch to tiny v3",
    "eval_kind": "criterion",
    "criterion_id": "crit_helpful",
    "baseline_model": "__stored__",
    "candidate_models": ["you/tiny-sft-v3"],
    "sample_count": 100,
}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        queue_demo_runs(server)
        yield server


def _cells(row: Any) -> list[str]:
    return [str(getattr(value, "plain", value)) for value in row]


async def test_runs_and_the_bakeoffs_view_say_the_queues_values_in_words(queue: ErrorbarServer) -> None:
    screening = queue_run(queue, {"screening": True})["id"]
    switch = queue_run(queue, STORED_SWITCH)["id"]
    running = next(i for i in queue.store.ids() if queue.store.get(i).spec["name"] == "tiny v3 against Mistral-Small")
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await on_runs(pilot)
        rows = {row.run.id: _cells(screen.table.get_row(row.key)) for row in screen.bakeoffs.rows}
        # chip, run · kind, status, progress, models, created, ended, took, error
        assert rows[screening][1].endswith(" · screening") and rows[screening][4].endswith(" vs your logged answers")
        assert rows[switch][1].endswith(" · criterion") and rows[switch][4] == "1 vs your logged answers"
        for run_id, cells in rows.items():
            assert cells[6:8] == (["not given", "not given"] if cells[2] == "DONE" else ["—", "—"]), run_id
        assert rows[running][2] in ("PENDING", "RUNNING")
        assert not any("__stored__" in cell for cells in rows.values() for cell in cells)

        await watch_by_keys(pilot, switch)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="Compare's Bake-offs view")
        view = app.screen
        assert isinstance(view, BakeoffScreen)
        await wait_for(
            pilot,
            lambda: view.run is not None and view.run.id == switch and "observed" in view.detail_text.plain,
            what="the certified switch's results",
        )
        table = view.query_one("#bakeoff-runs")
        listed = {run_id: _cells(table.get_row(run_id)) for run_id in queue.store.ids()}
        # run, name, kind, status, progress, baseline, candidates
        assert listed[screening][2] == "screening" and listed[screening][5] == "your logged answers"
        assert listed[switch][2] == "criterion" and listed[switch][5] == "your logged answers"
        text = view.detail_text.plain
        assert "\nbaseline your logged answers · judge " in text
        assert "graded pass or fail by the criterion's frozen judge (Helpful and correct)" in text
        assert "\nyour logged answers  pass " in text  # the stored baseline's own graded row
        assert "__stored__" not in text and "direct" not in text


async def test_a_screening_placement_agrees_with_its_savings(queue: ErrorbarServer) -> None:
    screening = queue_run(queue, {"screening": True})["id"]
    assert get(queue, f"/v1/evals/{screening}").json()["status"] == "DONE"  # the queue computes it when read
    results = queue.store.get(screening).results
    assert results is not None
    # The queue marks a candidate "not_cheaper" unless it saves enough to be worth a bake-off:
    # a small positive saving, as one demo showed (+0.5%), beside "not_cheaper".
    results["screening"]["per_candidate"][1].update(est_savings_pct=0.5, status="not_cheaper", quality="similar")
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await watch_by_keys(pilot, screening)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
        table = app.screen.query_one("#scr-table")
        await wait_for(pilot, lambda: table.row_count > 1, what="the screened candidates")
        rows = [_cells(table.get_row(str(i))) for i in range(table.row_count)]
    assert rows[1][6] == "+0.5%" and rows[1][-1] == "cheaper, too little · similar"
    assert all("_" not in row[-1] for row in rows)
    for row, sent in zip(rows, results["screening"]["per_candidate"], strict=True):
        if sent["est_savings_pct"] <= 0:
            assert row[-1].startswith("not cheaper · ")
