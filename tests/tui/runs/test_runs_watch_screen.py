"""Run watch layout at 160 columns: the per-eval table keeps every column in view."""

from __future__ import annotations

import re

from api_client.blahdev.client import BlahClient
from simulator.blahdev import runs as sim_runs
from simulator.server import SimulatorServer
from tests.support.chatroom import screen_text
from tests.support.runs import make_app, wait_for
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen
from widgets.confirm import ConfirmScreen
from widgets.key_table import KeyTable


def _fits(table: KeyTable) -> bool:
    """Every column is in view: nothing scrolls off the pane's right edge."""
    return table.virtual_size.width <= table.scrollable_content_region.width


async def test_a_run_with_no_results_yet_then_landing_keeps_the_mean_column_in_view(
    fresh_sim: SimulatorServer,
) -> None:
    """Issue 15.6: opening a run before its first result, then watching results land, the
    per-eval header read "Errors  Me" (the "no results yet" row had widened the Eval column)."""
    with fresh_sim.world.lock:  # a run that has produced nothing yet (its worker stopped at once)
        run_id = sim_runs.create_run(fresh_sim.world, [fresh_sim.person_model_id])["id"]
        sim_runs.stall_run(fresh_sim.world, run_id)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=(160, 48)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
            runs_screen = app.screen
            assert isinstance(runs_screen, RunsScreen)
            runs_screen.table.focus()
            await pilot.press("g", "enter")  # the newest run is the first row
            await wait_for(
                pilot, lambda: isinstance(app.screen, RunWatchScreen) and app.screen.polls > 0, what="the watch screen"
            )
            watch = app.screen
            assert isinstance(watch, RunWatchScreen) and watch.run_id == run_id
            # the poll's answer is drawn on the next frame: wait for it there, not on the counter
            await wait_for(
                pilot,
                lambda: "the platform returned no results for this run yet" in screen_text(app),
                what="the no-results line drawn",
            )
            evals = watch.query_one("#watch-evals", KeyTable)
            assert _fits(evals)

            await pilot.press("R")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
            await pilot.press("y")
            await wait_for(pilot, lambda: watch.poll_state == "finished", timeout=30, what="the run to land")
            await wait_for(
                pilot,
                lambda: "no results for this run yet" not in screen_text(app) and evals.row_count > 0,
                what="the results drawn",
            )
            text = screen_text(app)
            assert _fits(evals)
            # The header reads in full, the results pane's header after it; each eval shows its mean.
            assert re.search(r"Eval +Results +Models +Errors +Mean +Status +UTC +Eval", text), text
            first_eval = text.splitlines()[next(i for i, line in enumerate(text.splitlines()) if "Mean" in line) + 1]
            assert re.match(r" \S.*? +\d+ +1/1 +\d+ +\d\.\d\d +done ", first_eval), first_eval
