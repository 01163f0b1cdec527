"""The model pickers (start a run, compare peers, health): state readable without colour."""

from __future__ import annotations

import re

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import screen_text
from tests.support.runs import make_app, wait_for
from tui.screens.runs.pick import ModelPickerScreen
from tui.screens.runs.screen import RunsScreen


def _marks(text: str) -> dict[str, str]:
    """Model name -> the mark drawn before it ("[x]" or "[ ]"), as on screen."""
    return {m.group(2): m.group(1) for m in re.finditer(r"(\[[x ]\]) (\S[^\n]*?)  ", text)}


async def test_start_run_picker_says_what_is_chosen_without_colour(sim: SimulatorServer, client: BlahClient) -> None:
    """Issue 15.5: chosen and unchosen models both drew ▐X▌ (only the colour differed) and a
    person chose all six by mistake. Now each line reads [x] or [ ] and a count says how many."""
    app = make_app(sim, client)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
        await pilot.pause()
        text = screen_text(app)
        assert "1 of 6 selected" in text
        marks = _marks(text)
        assert marks["TinyStories Chat 1M"] == "[x]"  # the person's own model, preselected
        assert sorted(marks.values()) == ["[ ]"] * 5 + ["[x]"]
        assert "▐X▌" not in text

        await pilot.press("j", "space")  # choose the second model too
        await pilot.pause()
        text = screen_text(app)
        assert "2 of 6 selected" in text
        assert sorted(_marks(text).values()) == ["[ ]"] * 4 + ["[x]"] * 2
        await pilot.press("space")  # and change one's mind
        await pilot.pause()
        assert "1 of 6 selected" in screen_text(app)
        assert sorted(_marks(screen_text(app)).values()) == ["[ ]"] * 5 + ["[x]"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="back to the runs")


async def test_peer_picker_counts_against_its_limit(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="compare")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", False), what="the comparison")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the peer picker")
        await pilot.pause()
        text = screen_text(app)
        assert "1 of 5 selected (at most 2)" in text  # the person's own model is not offered
        assert len(_marks(text)) == 5
