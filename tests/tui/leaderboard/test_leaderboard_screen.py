"""Leaderboard: the standings logic (pure) and the screen against the simulator."""

from __future__ import annotations

import re

import pytest

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LeaderboardEntry, Result, Run
from simulator.server import SimulatorServer
from tests.support.chatroom import screen_text
from tests.support.runs import SIZE, make_app, notifications, wait_for
from tui.screens.leaderboard.screen import LeaderboardScreen, ModelHistory, mean_score, model_history, standings
from tui.screens.runs.screen import RunsScreen
from widgets.interval_strip import IntervalStrip
from widgets.key_table import KeyTable


def entry(model: str, avg: float | None, last: int | None = 300) -> LeaderboardEntry:
    return LeaderboardEntry(model_id=model, model_name=model.upper(), avg_score=avg, eval_count=3, last_run_at=last)


def run(rid: str, status: str, started: int, completed: int | None) -> Run:
    return Run(id=rid, status=status, started_at=started, completed_at=completed)


def result(rid: str, run_id: str, score: float | None, model: str = "a") -> Result:
    return Result(id=rid, eval_run_id=run_id, model_id=model, score=score)


RUNS = [
    run("r4", "running", 400, None),
    run("r3", "completed", 250, 300),
    run("r2", "failed", 200, None),
    run("r1", "completed", 100, 150),
    run("r0", "completed", 10, 20),
]


def test_model_history_is_the_models_own_latest_run_and_the_one_before() -> None:
    # a was in r3 and r0 only (not r1): its previous run is r0; failed and running runs never count
    results = [
        result("1", "r3", 0.9),
        result("2", "r0", 0.2),
        result("3", "r0", 0.4),
        result("4", "r0", None),
        result("5", "r2", 0.0),
        result("6", "r4", 0.0),
    ]
    history = model_history(entry("a", 0.9, last=300), results, RUNS)
    assert history.current_run is RUNS[1] and history.previous_run is RUNS[4]
    assert history.previous_avg == pytest.approx(0.3)  # unscored results left out
    # the board names the older run: compare with the one before that
    older = model_history(entry("a", 0.3, last=20), results, RUNS)
    assert older.current_run is RUNS[4] and older.previous_run is None
    assert model_history(entry("a", None), [], RUNS) == ModelHistory(None, None, None)


def test_mean_score_ignores_unscored() -> None:
    assert mean_score([result("1", "r", 1.0), result("2", "r", 0.5), result("3", "r", None)]) == 0.75
    assert mean_score([result("4", "r", None)]) is None


def test_standings_say_what_they_cannot_compare() -> None:
    earlier = ModelHistory(RUNS[1], RUNS[3], 0.5)
    rows = standings(
        [entry("a", 0.8), entry("b", 0.6), entry("c", None), entry("d", 0.4), entry("e", 0.3)],
        {
            "a": earlier,
            "b": ModelHistory(RUNS[1], RUNS[3], 0.6),
            "c": earlier,
            "d": ModelHistory(RUNS[1], None, None),
            "e": None,
        },
    )
    by_id = {r.entry.model_id: r for r in rows}
    a, b, c, d, e = (by_id[k] for k in "abcde")
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert [r.entry.model_id for r in rows] == ["a", "b", "d", "e", "c"]  # best first, the unscored last
    assert a.change == pytest.approx(0.3) and a.change_text() == "+0.30"
    assert b.change_text() == "±0.00"
    assert c.change is None and c.change_text() == "—"
    assert d.change is None and d.change_text() == "first run"
    assert e.change is None and e.change_text() == "couldn't load its runs"


async def test_screen_shows_standings_highlight_change_and_chart(sim: SimulatorServer, client: BlahClient) -> None:
    board = await client.leaderboard()
    completed = sorted(
        (r for r in await client.list_runs() if r.status == "completed"), key=lambda r: r.completed_at, reverse=True
    )
    current, previous = completed[0], completed[1]  # the seeded world: both have every model
    assert {e.last_run_at for e in board} == {current.completed_at}
    before: dict[str, list[float]] = {}
    for r in await client.run_results(previous.id):
        if r.score is not None and r.model_id:
            before.setdefault(r.model_id, []).append(r.score)
    app = make_app(sim, client, start_mode="leaderboard")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="the leaderboard"
        )
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        assert [r.entry.model_id for r in screen.rows] == [e.model_id for e in board]
        for row in screen.rows:
            scores = before.get(row.entry.model_id)
            if not scores or row.entry.avg_score is None:
                assert row.change is None
            else:
                assert row.change == pytest.approx(row.entry.avg_score - sum(scores) / len(scores))
        table = screen.query_one("#lb-table")
        own_index = [e.model_id for e in board].index(sim.person_model_id)
        own_cell = table.get_row_at(own_index)[1]
        assert "◀ you" in own_cell.plain and own_cell.style
        assert table.cursor_row == own_index  # the person's row is where the cursor starts
        caption = str(screen.query_one("#lb-caption").render())
        assert previous.id in caption and current.id in caption
        strip = screen.query_one("#lb-chart", IntervalStrip)  # every model's interval, tier by tier
        assert len(strip.rows) == len(board) and all(r.interval is not None for r in strip.rows)
        assert strip.rows[0].group == "tier 1 · tied with the leader within noise"
        assert [r.highlight for r in strip.rows].count(True) == 1
        other = next(e.model_id for e in board if e.model_id != sim.person_model_id)
        app.switch_model(other)  # the app is now about another model: the highlight follows
        other_index = [e.model_id for e in board].index(other)
        await wait_for(pilot, lambda: "◀ you" in table.get_row_at(other_index)[1].plain, what="the new highlight")
        assert "◀ you" not in table.get_row_at(own_index)[1].plain
        await pilot.press("h")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HealthScreen", what="health of the row")


async def test_a_run_of_only_my_model_keeps_every_model_and_is_not_announced() -> None:
    """Issue 15.2: ``4`` shows six models; a run of the person's model alone lands (one the
    person neither started nor watched here, like the simulator's own); ``r`` still shows six,
    only that model's row moved, its change is against its own previous run, and no
    "Run completed" toast is raised for a run the person does not follow."""
    # Slow enough (a 38-item run takes ~10 s) for the runs list to see the run moving first.
    with SimulatorServer(seed=11, speed=10.0, live=False) as fresh_sim:
        await _only_my_model(fresh_sim)


async def _only_my_model(fresh_sim: SimulatorServer) -> None:
    own = fresh_sim.person_model_id
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="runs")
        async with app.run_test(size=(160, 48)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
            runs_screen = app.screen
            assert isinstance(runs_screen, RunsScreen)
            await pilot.press("4")
            await wait_for(
                pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="the leaderboard"
            )
            board = app.screen
            assert isinstance(board, LeaderboardScreen)
            before = {r.entry.model_id: r for r in board.rows}
            assert len(before) == 6 and board.query_one("#lb-table", KeyTable).row_count == 6

            started = await client.start_run([own])  # not from this app
            assert started.run is not None
            run_id = started.run.id
            await pilot.press("3", "r")  # the runs list sees it moving...
            await wait_for(
                pilot,
                lambda: any(r.id == run_id and r.status in ("queued", "running") for r in runs_screen.runs),
                what="the run listed as moving",
            )
            await wait_for(
                pilot,
                lambda: fresh_sim.world.runs[run_id]["status"] == "completed",
                timeout=30,
                what="the run to complete",
            )
            await pilot.press("r")  # ...and then completed
            await wait_for(
                pilot,
                lambda: any(r.id == run_id and r.status == "completed" for r in runs_screen.runs),
                what="the run listed as completed",
            )
            assert not any(run_id in n for n in notifications(app))

            await pilot.press("4", "r")

            def mine_on_new_run() -> bool:
                return any(
                    r.entry.model_id == own
                    and r.history is not None
                    and r.history.current_run is not None
                    and r.history.current_run.id == run_id
                    for r in board.rows
                )

            await wait_for(pilot, mine_on_new_run, what="the person's row on the new run")
            after = {r.entry.model_id: r for r in board.rows}
            assert set(after) == set(before)
            assert board.query_one("#lb-table", KeyTable).row_count == 6
            mine = after[own]
            assert mine.entry.last_run_at == fresh_sim.world.runs[run_id]["completed_at"]
            assert before[own].history is not None and mine.history is not None
            assert mine.history.previous_run == before[own].history.current_run  # its own previous run
            assert mine.previous_avg is not None and mine.entry.avg_score is not None
            assert mine.change == pytest.approx(mine.entry.avg_score - mine.previous_avg)
            for model_id, row in after.items():
                if model_id != own:  # the others' rows did not move
                    assert (row.entry.avg_score, row.entry.last_run_at) == (
                        before[model_id].entry.avg_score,
                        before[model_id].entry.last_run_at,
                    )
            assert not any(run_id in n for n in notifications(app))


async def test_at_80_columns_interval_and_tier_in_view_last_run_one_scroll_away(
    sim: SimulatorServer, client: BlahClient
) -> None:
    app = make_app(sim, client, start_mode="leaderboard")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="the leaderboard"
        )
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        text = screen_text(app)
        # The interval and the tier come before the change; the last run is one scroll right.
        assert re.search(r"# +Model +Mean \[95% CI\] +Tier +Δ vs previous +Evals", text), text
        mine = next(r for r in screen.rows if r.entry.model_id == sim.person_model_id)
        row = next(line for line in text.splitlines() if "◀ you" in line)
        assert f"{mine.change_text()} " in row
        assert re.search(r"\d\.\d\d \[\d\.\d\d–\d\.\d\d\] +(1 leader|1 tied|\d) ", row), row
        assert "tied with the leader within noise" in text and "cannot be seen reliably" in text
        table = screen.query_one("#lb-table", KeyTable)
        table.scroll_to(x=table.max_scroll_x, animate=False)
        await pilot.pause()
        text = screen_text(app)
        assert "Last run (UTC)" in text
        row = next(line for line in text.splitlines() if re.search(r"\d\d:\d\d:\d\dZ", line))
        assert row.rstrip().endswith("Z")  # the whole time
