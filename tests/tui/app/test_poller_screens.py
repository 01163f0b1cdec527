"""What a person sees now that every poll loop follows the one set of rules (issue 16): a
transient error is retried (and says when), a fatal one stops the polling and says why."""

from __future__ import annotations

from textual.widgets import Input, Static, TabbedContent

from api_client.blahdev.client import BlahClient
from simulator.blahdev import games as sim_games
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, make_app, open_chatroom
from tests.support.faults import FaultTransport, html_page, json_error
from tests.support.waiting import wait_for
from tui.screens.games.screen import GamesScreen
from tui.screens.playground.screen import PlaygroundScreen


def _text(screen: object, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


async def test_a_refused_key_stops_the_chatroom_polling_and_r_starts_it_again(fresh_sim: SimulatorServer) -> None:
    """It used to retry a 401 for ever ("retrying in 15 s"), which no wait can fix."""
    faults = FaultTransport()
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=faults) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            faults.break_("GET", "/chatroom", json_error(401, "invalid API key"))
            await pilot.press("r")
            await wait_for(pilot, lambda: "stopped polling" in _text(screen, "#room-status"), what="polling stopped")
            said = _text(screen, "#room-status")
            assert "couldn't load" in said and "r tries again" in said and "retrying" not in said
            faults.heal()
            await pilot.press("r")
            await wait_for(pilot, lambda: "● live" in _text(screen, "#room-status"), what="live again")


async def test_a_game_being_played_survives_a_garbled_answer(fresh_sim: SimulatorServer) -> None:
    """It used to stop polling the game at the first error: the turns after it never showed."""
    game = sim_games.create_game(fresh_sim.world, "comedy_night")
    faults = FaultTransport()
    faults.break_("GET", f"/games/{game['id']}", html_page)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=faults) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("0")
            await wait_for(pilot, lambda: isinstance(app.screen, GamesScreen) and bool(app.screen.games), what="games")
            screen = app.screen
            assert isinstance(screen, GamesScreen) and screen.games[0].id == game["id"]  # newest first: highlighted
            await wait_for(pilot, lambda: "retrying in" in _text(screen, "#game-summary"), what="the retry said")
            assert "couldn't load" in _text(screen, "#game-summary")
            faults.heal()
            while sim_games.play_turn(fresh_sim.world, game["id"]) is not None:
                pass
            await wait_for(
                pilot,
                lambda: (
                    screen.current is not None
                    and screen.current.id == game["id"]
                    and screen.current.status == "completed"
                ),
                what="the game played out",
            )
            assert len(screen.current.turns or []) == len(fresh_sim.world.games[game["id"]]["turns"])  # type: ignore[union-attr]


async def test_a_chat_job_poll_that_fails_says_when_it_retries(fresh_sim: SimulatorServer) -> None:
    """The error used to be overwritten at once by "checking again in": it was never seen."""
    faults = FaultTransport()
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=faults) as client:
        app = make_app(fresh_sim, client, chat_job_first_poll=0.05)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("9")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, PlaygroundScreen) and bool(app.screen.query("#pg-tabs")),
                what="playground",
            )
            screen = app.screen
            assert isinstance(screen, PlaygroundScreen)
            tabs = screen.query_one("#pg-tabs", TabbedContent)
            await wait_for(pilot, lambda: bool(tabs.query("#pg-chat")), what="tabs mounted")
            tabs.active = "pg-chat"
            await pilot.press("e")
            box = screen.query_one("#chat-input", Input)
            box.value = "Hello, who are you?"
            faults.break_("GET", "/chat/jobs/", html_page)
            await pilot.press("enter", "enter")
            await wait_for(pilot, lambda: "retrying in" in _text(screen, "#chat-job"), what="the failed poll said")
            assert "couldn't poll the job" in _text(screen, "#chat-job")
            faults.heal()
            await wait_for(pilot, lambda: len(screen.chat_messages) == 2 and not screen.chat_busy, what="the reply")
            assert "completed" in _text(screen, "#chat-job")
