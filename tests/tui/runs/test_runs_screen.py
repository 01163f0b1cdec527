"""Pilot tests of the Runs screens against the real simulator, driven by keys.

Tests that start, resume or cancel runs use ``fresh_sim`` (a private world at speed 50);
the 403 test uses the shared ``sim`` (a refused write changes nothing).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import RunStarted
from api_client.errors import OutcomeUnknownError
from simulator.blahdev import runs as sim_runs
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer
from tests.support.chatroom import screen_text
from tests.support.runs import SIZE, make_app, notifications, wait_for
from tui.app import BlahApp
from tui.run_watch import notifier_for
from tui.screens.leaderboard.screen import LeaderboardScreen, Standing
from tui.screens.runs.pick import ModelPickerScreen
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen
from widgets.confirm import ConfirmScreen


@pytest.fixture
async def fresh_client(fresh_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as c:
        yield c


def _bells(app: BlahApp) -> list[int]:
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    return rung


async def _runs_screen(pilot, app: BlahApp) -> RunsScreen:  # type: ignore[no-untyped-def]
    await pilot.press("3")
    await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="the runs")
    assert isinstance(app.screen, RunsScreen)
    return app.screen


async def _confirm(pilot, app: BlahApp, *keys: str) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
    await pilot.press(*keys)


async def test_start_a_run_watch_it_land_and_see_the_leaderboard_change(
    fresh_sim: SimulatorServer, fresh_client: BlahClient
) -> None:
    own = fresh_sim.person_model_id
    app = make_app(fresh_sim, fresh_client, start_mode="leaderboard")
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="the leaderboard"
        )
        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        models_before = [r.entry.model_id for r in board.rows]
        history = next(r.history for r in board.rows if r.entry.model_id == own)
        assert history is not None and history.current_run is not None
        shown_before = history.current_run.id

        await _runs_screen(pilot, app)
        runs_before = set(fresh_sim.world.runs)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
        picker = app.screen
        assert isinstance(picker, ModelPickerScreen)
        assert picker.chosen() == [own]  # the person's own model is preselected, alone
        await pilot.press("y")
        await _confirm(pilot, app, "y", "y")  # a double key press

        await wait_for(pilot, lambda: isinstance(app.screen, RunWatchScreen), what="the watch screen")
        watch = app.screen
        assert isinstance(watch, RunWatchScreen)
        await wait_for(pilot, lambda: watch.poll_state == "finished", timeout=30, what="the run to finish")
        new_runs = set(fresh_sim.world.runs) - runs_before
        assert len(new_runs) == 1, "one confirmation must send exactly one POST /runs"
        run_id = new_runs.pop()
        assert watch.run_id == run_id and watch.run is not None and watch.run.status == "completed"
        assert len(watch.results) == watch.run.total_items == 38  # every result landed and is listed
        assert watch.query_one("#watch-results").row_count == 38
        assert (run_id, "completed") in [(r, s) for r, s, _ in notifier_for(app).announced]
        assert any(f"Run {run_id} completed" in n for n in notifications(app))
        assert rung == [1]

        await pilot.press("escape", "4", "r")

        def mine_now() -> Standing | None:
            return next((r for r in board.rows if r.entry.model_id == own), None)

        await wait_for(
            pilot,
            lambda: (
                (m := mine_now()) is not None
                and m.history is not None
                and m.history.current_run is not None
                and m.history.current_run.id == run_id
            ),
            what="the person's row on the new run",
        )
        assert sorted(r.entry.model_id for r in board.rows) == sorted(models_before)  # nobody dropped off
        mine = mine_now()
        assert mine is not None and mine.history is not None
        assert mine.history.previous_run is not None and mine.history.previous_run.id == shown_before
        assert mine.previous_avg is not None and mine.change is not None
        assert mine.change == pytest.approx(mine.entry.avg_score - mine.previous_avg)
        assert mine.change_text() not in ("first run", "—")


async def test_member_key_gets_a_plain_403(sim: SimulatorServer) -> None:
    async with BlahClient(sim.base_url, api_key=sim.member_key) as member:
        app = make_app(sim, member)
        async with app.run_test(size=SIZE) as pilot:
            await _runs_screen(pilot, app)
            runs_before = set(sim.world.runs)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
            await pilot.press("y")
            await _confirm(pilot, app, "y")
            await wait_for(pilot, lambda: any("403" in n for n in notifications(app)), what="the refusal")
            said = next(n for n in notifications(app) if "403" in n)
            assert "needs council tier" in said
            assert set(sim.world.runs) == runs_before
            assert isinstance(app.screen, RunsScreen)


async def test_resume_the_stalled_run_from_the_list_then_409(
    fresh_sim: SimulatorServer, fresh_client: BlahClient
) -> None:
    stalled = next(r for r in fresh_sim.world.runs.values() if r["status"] == "stalled")
    app = make_app(fresh_sim, fresh_client)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _runs_screen(pilot, app)
        screen.table.move_to_key(stalled["id"])
        assert screen.current_run() is not None and screen.current_run().status == "stalled"
        await pilot.press("R")
        await _confirm(pilot, app, "y")
        await wait_for(pilot, lambda: any("resumed" in n for n in notifications(app)), what="the resume")
        await wait_for(
            pilot,
            lambda: fresh_sim.world.runs[stalled["id"]]["status"] == "completed",
            timeout=20,
            what="the resumed run to complete",
        )
        screen.action_refresh()
        await wait_for(
            pilot,
            lambda: screen.current_run() is not None and screen.current_run().status == "completed",
            what="the list to show it completed",
        )
        await pilot.press("R")
        await _confirm(pilot, app, "y")
        await wait_for(
            pilot, lambda: any("not stalled or failed" in n for n in notifications(app)), what="the 409 explained"
        )
        assert screen.writer.sent == 2


async def test_watch_a_run_stall_then_resume_and_cancel_it() -> None:
    # A slower world than fresh_sim: the run must still be going when it is cancelled.
    with SimulatorServer(seed=11, speed=5.0, live=False) as slow_sim:
        async with BlahClient(slow_sim.base_url, api_key=slow_sim.council_key) as slow_client:
            await _stall_resume_cancel(slow_sim, slow_client)


async def _stall_resume_cancel(server: SimulatorServer, client: BlahClient) -> None:
    everyone = [server.person_model_id, *server.peer_model_ids]
    started = await client.start_run(everyone)  # 228 items: over a minute at speed 5
    assert isinstance(started, RunStarted) and started.run is not None
    run_id = started.run.id
    app = make_app(server, client)
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(RunWatchScreen(run_id))
        watch = app.screen
        assert isinstance(watch, RunWatchScreen)
        await wait_for(pilot, lambda: watch.run is not None and watch.run.status == "running", what="running")
        sim_runs.stall_run(server.world, run_id)
        await wait_for(
            pilot,
            lambda: (run_id, "stalled") in [(r, s) for r, s, _ in notifier_for(app).announced],
            what="the stall announced",
        )
        assert rung == [1]
        assert "stalled part-way" in notifications(app)[-1]

        await pilot.press("R")
        await _confirm(pilot, app, "y")
        await wait_for(pilot, lambda: watch.run is not None and watch.run.status == "running", what="resumed")
        await pilot.press("c")
        await _confirm(pilot, app, "y")
        await wait_for(pilot, lambda: watch.poll_state == "finished", what="the cancel to land")
        assert server.world.runs[run_id]["status"] == "cancelled"
        assert watch.run is not None and watch.run.status == "cancelled"
        done = server.world.runs[run_id]["completed_count"]
        assert 0 < done < 228
        # Said once, plainly: the answer to the person's cancel, not again by the poll that saw it.
        await pilot.press("r")
        await pilot.pause()
        said = [n for n in notifications(app) if "cancelled" in n]
        assert len(said) == 1 and said[0] in (
            f"Run {run_id} cancelled.",
            f"Run {run_id} cancelled ({done} of 228 items).",
        )
        assert f"Run {run_id} resumed." in notifications(app)

        await pilot.press("c")
        await _confirm(pilot, app, "y")
        await wait_for(
            pilot, lambda: any("nothing to cancel" in n for n in notifications(app)), what="the 409 explained"
        )
        assert watch.writer.sent == 3


@pytest.mark.parametrize("reached_server", [True, False])
async def test_a_timed_out_start_is_checked_never_resent(
    fresh_sim: SimulatorServer, fresh_client: BlahClient, reached_server: bool
) -> None:
    real_start = fresh_client.start_run
    calls: list[list[str]] = []

    async def timing_out(model_ids: list[str]) -> RunStarted:
        calls.append(model_ids)
        if reached_server:
            await real_start(model_ids)
        raise OutcomeUnknownError("the request timed out", method="POST", path="/api/v1/runs")

    fresh_client.start_run = timing_out  # type: ignore[method-assign]
    app = make_app(fresh_sim, fresh_client, run_confirm_delay_s=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await _runs_screen(pilot, app)
        runs_before = set(fresh_sim.world.runs)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
        await pilot.press("y")
        await _confirm(pilot, app, "y")
        if reached_server:
            await wait_for(pilot, lambda: any("it did start" in n for n in notifications(app)), what="confirmation")
            await wait_for(pilot, lambda: isinstance(app.screen, RunWatchScreen), what="the watch screen")
            assert len(set(fresh_sim.world.runs) - runs_before) == 1
        else:
            await wait_for(
                pilot,
                lambda: any("Outcome unknown" in n for n in notifications(app)),
                timeout=20,
                what="outcome unknown",
            )
            assert set(fresh_sim.world.runs) == runs_before
            assert isinstance(app.screen, RunsScreen)
        assert len(calls) == 1


async def test_watch_survives_errors_and_recovers(fresh_sim: SimulatorServer, fresh_client: BlahClient) -> None:
    started = await fresh_client.start_run([fresh_sim.person_model_id])
    assert started.run is not None
    app = make_app(fresh_sim, fresh_client)
    async with app.run_test(size=SIZE) as pilot:
        fresh_sim.set_chaos(ChaosConfig(rate_html=1.0))  # every answer is an HTML error page
        try:
            await app.push_screen(RunWatchScreen(started.run.id))
            watch = app.screen
            assert isinstance(watch, RunWatchScreen)
            await wait_for(pilot, lambda: watch.poll_state == "retrying", what="a failed poll")
            said = str(watch.query_one("#watch-message").render())
            assert "couldn't load" in said and "retrying in" in said
        finally:
            fresh_sim.set_chaos(None)
        await wait_for(pilot, lambda: watch.poll_state == "finished", timeout=30, what="the run after recovery")
        assert watch.run is not None and watch.run.status == "completed"
        assert not watch.query_one("#watch-message").display  # the error line is gone


async def test_runs_say_one_state_at_a_time_when_the_first_load_fails(fresh_sim: SimulatorServer) -> None:
    """Issue 15: "loading runs…" and "couldn't load runs" were shown at once."""
    fresh_sim.set_chaos(ChaosConfig(rate_html=1.0))  # every answer is an HTML error page
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=(160, 48)) as pilot:
            try:
                await wait_for(pilot, lambda: "couldn't load runs" in screen_text(app), what="the error")
                text = " ".join(screen_text(app).split())  # the error may wrap
                assert "loading runs" not in text and "trying again in" in text, text
            finally:
                fresh_sim.set_chaos(None)
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
            await pilot.pause()
            text = screen_text(app)
            assert "couldn't load runs" not in text and "loading runs" not in text
            assert f"{len(fresh_sim.world.runs)} runs:" in text
