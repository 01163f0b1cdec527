"""What the palette offers first: the screens and commands a person looks for. Cursor and page
movement (kept out of footers) is not offered; chat messages are found by the words typed
and come after the screens and commands."""

from __future__ import annotations

from textual.command import CommandInput

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.palette import open_palette, options
from tests.support.quick_keys import type_text
from tests.support.runs import make_app, wait_for
from tui.screens.games.screen import GamesScreen

SIZE = (160, 48)
MOVEMENT = ("Cursor up", "Cursor down", "Page Left", "Page up", "Focus Next", "Top (", "Bottom (")


async def test_palette_opens_on_commands_and_ranks_messages_last(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        await client.post_chatroom("which training data would fix the loops?")
        app = make_app(fresh_sim, client, start_mode="games")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, GamesScreen), what="games")
            palette = await open_palette(pilot)
            await wait_for(pilot, lambda: "Games: New game (n)" in options(palette), what="the screen's keys offered")
            offered = options(palette)
            assert [text for text in offered if any(word in text for word in MOVEMENT)] == []

            await type_text(pilot, "training")
            await wait_for(pilot, lambda: palette.query_one(CommandInput).value == "training", what="typed")
            await wait_for(
                pilot,
                lambda: any(text.startswith("Message ") for text in options(palette)),
                what="the message that says training",
            )
            found = options(palette)
            assert found[0] == "Go to Training sets"
            messages = [text for text in found if text.startswith("Message ")]
            assert messages and all("training" in text.casefold() for text in messages)  # words, not scattered letters
            assert found.index(messages[0]) > found.index("Go to Training sets")
