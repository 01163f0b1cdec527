"""Runs (key 3) lists the running runs and the newest ended ones; older runs fold into one line
(``a`` lists them all), so an hour of demo does not grow the list without end."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Run
from application.runs.blah.listing import RECENT_RUNS, fold_runs
from simulator.blahdev import runs as sim_runs
from simulator.server import SimulatorServer
from tests.support.chatroom import screen_text
from tests.support.runs import SIZE, make_app, wait_for
from tui.screens.runs.screen import RunsScreen

EXTRA_RUNS = 25


def test_fold_keeps_active_runs_and_the_newest_ended_ones() -> None:
    runs = [Run(id=f"r{i}", status="running" if i in (3, 30) else "completed") for i in range(40)]  # newest first
    folded = fold_runs(runs, recent=10)
    assert [r.id for r in folded.shown] == ["r0", "r1", "r2", "r3", *[f"r{i}" for i in range(4, 11)], "r30"]
    assert len(folded.older) == 40 - len(folded.shown) and all(r.status == "completed" for r in folded.older)
    assert folded.older_summary() == f"{len(folded.older)} older runs folded ({len(folded.older)} completed)"
    assert fold_runs(runs, recent=10, keep="r39").shown[-1].id == "r39"  # the row the cursor is on stays
    assert len(fold_runs(runs, recent=10, keep="r0").shown) == len(folded.shown)
    assert fold_runs(runs, show_all=True).older == []


async def test_older_runs_fold_and_a_lists_them_all(fresh_sim: SimulatorServer) -> None:
    world = fresh_sim.world
    with world.lock:  # an afternoon of finished runs, oldest first
        for i in range(EXTRA_RUNS):
            run = sim_runs.create_run(world, [world.person_model_id], at=world.anchor_ms + 1000 * (i + 1))
            run.update(status="completed", completed_at=run["started_at"] + 500)
    total = len(world.runs)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
            screen = app.screen
            assert isinstance(screen, RunsScreen)
            active = sum(1 for r in screen.runs if r.status in ("queued", "running"))
            assert screen.table.row_count == RECENT_RUNS + active < total
            text = " ".join(screen_text(app).split())
            assert f"{total} runs:" in text and f"{total - RECENT_RUNS - active} older runs folded" in text
            assert "a lists them all" in text
            await pilot.press("a")
            await wait_for(pilot, lambda: screen.table.row_count == total, what="every run listed")
            await pilot.press("a")
            await wait_for(pilot, lambda: screen.table.row_count == RECENT_RUNS + active, what="folded again")
