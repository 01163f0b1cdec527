"""Games on the simulator: the list, one game's turns with the judge's reasoning (inert), and
starting a game after a confirmation, sent once, then watched until it is played out."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from textual.widgets import DataTable, OptionList, Static

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import GameTurn
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, RecordingTransport, make_app, screen_text, wait_for
from tests.support.hostile_payloads import HOSTILE, assert_inert
from tui.screens.games.game_view import turn_text
from tui.screens.games.screen import GamesScreen, GameTypeScreen
from tui.screens.inspector.screen import InspectorScreen
from widgets.confirm import ConfirmScreen


def test_turn_text_is_inert_and_says_what_is_missing() -> None:
    console = Console(width=160, force_terminal=True, color_system="truecolor")
    for _name, payload in HOSTILE[:40]:
        turn = GameTurn(
            index=0, model_id="m", author_name=payload[:40], content=payload[:2000], judge_reasoning=payload[:2000]
        )
        with console.capture() as capture:
            console.print(turn_text(turn, {}, "me"))
        assert_inert(capture.get())
    bare = turn_text(
        GameTurn(model_id="me", content=None, score=None, judge_reasoning=None), {"me": "Tiny"}, "me"
    ).plain
    assert "#? Tiny ◆ your model · score not scored" in bare
    assert "(no answer: the call failed)" in bare and "Judge: no reasoning given" in bare


async def _games(pilot: object, app: object) -> GamesScreen:
    await pilot.press("0")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, GamesScreen) and bool(app.screen.games), what="games")  # type: ignore[arg-type, attr-defined]
    return app.screen  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_every_player_is_named_in_full(sim: SimulatorServer, client: BlahClient, size: tuple[int, int]) -> None:
    """Issue 15: the players column was cut ("TinyStories Chat 1M, Mi"). Each game lists every
    player's whole name, the winner marked ★, at 160 and at 80 columns."""
    app = make_app(sim, client)
    async with app.run_test(size=size) as pilot:
        screen = await _games(pilot, app)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        names = {m["id"]: m["name"] for m in sim.world.models.values()}
        first = sim.world.games[screen.games[0].id]
        rows = [line for line in lines if line.startswith(f" {first['id']} ")]  # its row, not the pane
        assert rows, "the newest game is listed"
        start = lines.index(rows[0])
        block = "\n".join(lines[start : start + len(first["model_ids"])])
        for model_id in first["model_ids"]:
            shown = names[model_id] + (" ★" if model_id == first["winner_model_id"] else "")
            assert re.search(re.escape(shown) + r"( |$)", block, re.M), (shown, block)
        assert "Players (★ won)" in screen_text(app)


async def test_list_turns_and_a_turns_call(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _games(pilot, app)
        table = screen.query_one("#games-table", DataTable)
        assert table.row_count == len(sim.world.games)
        created = [g.created_at or 0 for g in screen.games]
        assert created == sorted(created, reverse=True)  # newest first
        await wait_for(pilot, lambda: screen.current is not None and bool(screen.current.turns), what="turns")
        game = sim.world.games[screen.current.id]  # type: ignore[union-attr]
        turns = screen.query_one("#turns", OptionList)
        assert turns.option_count == len(game["turns"])
        shown = str(turns.get_option_at_index(0).prompt)
        assert game["turns"][0]["judge_reasoning"][:30] in shown
        summary = str(screen.query_one("#game-summary", Static).render())
        assert game["status"] in summary and "winner:" in summary
        await pilot.press("tab")
        assert app.focused is turns
        await pilot.press("j", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the turn's call")
        assert app.screen.log_id == game["turns"][1]["log_id"]  # type: ignore[attr-defined]


async def test_start_a_game_confirmed_once_and_watch_it_play(fresh_sim: SimulatorServer) -> None:
    spy = RecordingTransport()
    before = len(fresh_sim.world.games)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=spy) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await _games(pilot, app)
            await pilot.press("n", "n")
            await wait_for(pilot, lambda: isinstance(app.screen, GameTypeScreen), what="game type")
            await pilot.press("down", "enter")  # comedy_night
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            assert "comedy_night" in str(app.screen.query_one("#confirm-title").render())
            await pilot.press("y", "y")
            await wait_for(pilot, lambda: len(screen.games) == before + 1, what="the new game listed")
            new = screen.games[0]
            assert new.game_type == "comedy_night"
            await wait_for(
                pilot,
                lambda: (
                    screen.current is not None and screen.current.id == new.id and screen.current.status == "completed"
                ),
                timeout=20,
                what="the game played out",
            )
            assert screen.current is not None and len(screen.current.turns or []) == len(
                fresh_sim.world.games[new.id]["turns"]
            )
            assert "completed" in str(screen.query_one("#game-summary", Static).render())
    assert spy.count("POST", "/games") == 1
    assert len(fresh_sim.world.games) == before + 1
