"""Leaderboard: the standings logic (pure) and the screen against the shared simulator."""

from __future__ import annotations

import pytest

from api_client.client import BlahClient
from api_client.models import LeaderboardEntry, Result, Run
from simulator.server import SimulatorServer
from tests.test_runs_support import SIZE, make_app, wait_for
from tui.screens.leaderboard import LeaderboardScreen, average_by_model, pick_runs, standings
from widgets.plots import BarChart


def entry(model: str, avg: float | None, last: int | None = 300) -> LeaderboardEntry:
    return LeaderboardEntry(model_id=model, model_name=model.upper(), avg_score=avg, eval_count=3, last_run_at=last)


def run(rid: str, status: str, started: int, completed: int | None) -> Run:
    return Run(id=rid, status=status, started_at=started, completed_at=completed)


def test_pick_runs_matches_the_leaderboard_and_finds_the_one_before() -> None:
    runs = [run("r4", "running", 400, None), run("r3", "completed", 250, 300), run("r2", "failed", 200, None),
            run("r1", "completed", 100, 150), run("r0", "completed", 10, 20)]
    assert pick_runs([entry("a", 0.5, last=300)], runs) == (runs[1], runs[3])
    # the leaderboard names the older run: compare with the one before that
    assert pick_runs([entry("a", 0.5, last=150)], runs) == (runs[3], runs[4])
    assert pick_runs([entry("a", 0.5, last=None)], runs[3:4]) == (runs[3], None)
    assert pick_runs([], [run("x", "failed", 1, None)]) == (None, None)


def test_average_by_model_ignores_unscored() -> None:
    results = [Result(id="1", model_id="a", score=1.0), Result(id="2", model_id="a", score=0.5),
               Result(id="3", model_id="a", score=None), Result(id="4", model_id="b", score=None)]
    assert average_by_model(results) == {"a": 0.75}


def test_standings_say_what_they_cannot_compare() -> None:
    rows = standings([entry("a", 0.8), entry("b", 0.6), entry("c", None)], {"a": 0.5, "b": 0.7, "c": 0.2})
    a, b, c = rows
    assert a.change == pytest.approx(0.3) and a.change_text() == "+0.30  (was #2)"
    assert b.change == pytest.approx(-0.1) and b.change_text() == "-0.10  (was #1)"
    assert c.change is None and c.change_text() == "—"
    new = standings([entry("d", 0.4)], {"a": 0.5})[0]
    assert new.change is None and new.change_text() == "new (not in previous run)"
    alone = standings([entry("a", 0.8)], None)[0]
    assert alone.change_text() == "no previous run"


async def test_screen_shows_standings_highlight_change_and_chart(sim: SimulatorServer, client: BlahClient) -> None:
    board = await client.leaderboard()
    runs = await client.list_runs()
    current, previous = pick_runs(board, runs)
    assert current is not None and previous is not None
    before = average_by_model(await client.run_results(previous.id))
    app = make_app(sim, client, start_mode="leaderboard")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded,
                       what="the leaderboard")  # fmt: skip
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        assert [r.entry.model_id for r in screen.rows] == [e.model_id for e in board]
        for row in screen.rows:
            want = before.get(row.entry.model_id)
            if want is None or row.entry.avg_score is None:
                assert row.change is None
            else:
                assert row.change == pytest.approx(row.entry.avg_score - want)
        table = screen.query_one("#lb-table")
        own_index = [e.model_id for e in board].index(sim.person_model_id)
        own_cell = table.get_row_at(own_index)[1]
        assert "◀ you" in own_cell.plain and own_cell.style
        assert table.cursor_row == own_index  # the person's row is where the cursor starts
        caption = str(screen.query_one("#lb-caption").render())
        assert previous.id in caption and current.id in caption
        chart = screen.query_one("#lb-chart", BarChart)
        assert chart.has_data and chart.missing_labels == []
        other = next(e.model_id for e in board if e.model_id != sim.person_model_id)
        app.switch_model(other)  # the app is now about another model: the highlight follows
        other_index = [e.model_id for e in board].index(other)
        await wait_for(pilot, lambda: "◀ you" in table.get_row_at(other_index)[1].plain, what="the new highlight")
        assert "◀ you" not in table.get_row_at(own_index)[1].plain
        await pilot.press("h")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HealthScreen", what="health of the row")
