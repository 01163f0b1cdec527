"""Keys go where the screen says they go, pressed as a person presses them:

- Esc leaves any text box (Playground prompt and max tokens, chatroom composer) and gives the
  keys back to the screen; the footer says so while typing.
- `ctrl+p` opens the palette as `:` does, and what is typed then stays in the palette.
- An area key goes to that area, leaving a screen pushed over it; pushed screens offer Esc.

Each app starts on the area its test is about (starting elsewhere only loads a screen the test
never looks at: about a CPU second each).
- `i` in the chatroom goes back to the draft without selecting it.
- `ctrl+s` in the Playground sends and stays; `ctrl+o` opens the inspector."""

from __future__ import annotations

from typing import Any

from textual.command import CommandInput, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.quick_keys import type_text
from tests.support.runs import make_app, wait_for
from tui.app import BlahApp
from tui.screens.chatroom.screen import ChatroomScreen
from tui.screens.compare.screen import CompareScreen
from tui.screens.health.screen import HealthScreen
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.leaderboard.screen import LeaderboardScreen
from tui.screens.logs.screen import LogsScreen
from tui.screens.playground.screen import PlaygroundScreen
from tui.screens.runs.screen import RunsScreen
from tui.screens.webhooks.screen import WebhooksScreen
from widgets.footer import KeyFooter

SIZE = (160, 48)


def footer_keys(app: BlahApp) -> dict[str, str]:
    """What the current screen's footer offers: key as shown -> description."""
    return {key.key_display: key.description for footer in app.screen.query(KeyFooter) for key in footer.keys}


async def _footer_shows(pilot: Pilot[Any], app: BlahApp, key: str, description: str) -> None:
    await wait_for(
        pilot,
        lambda: footer_keys(app).get(key) == description,
        what=f"footer offering {key} {description} (it shows {footer_keys(app)})",
    )


async def _playground(pilot: Pilot[Any], app: BlahApp) -> PlaygroundScreen:
    await pilot.press("9")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, PlaygroundScreen) and bool(app.screen.query("#infer-prompt")),
        what="the playground built",
    )
    screen = app.screen
    assert isinstance(screen, PlaygroundScreen)
    return screen


# --------------------------------------------------------------------------- Esc leaves text boxes


async def test_esc_leaves_the_playground_prompt_and_the_area_key_works(
    sim: SimulatorServer, client: BlahClient
) -> None:
    app = make_app(sim, client, start_mode="playground")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _playground(pilot, app)
        prompt = screen.query_one("#infer-prompt", TextArea)
        await pilot.press("e", "z", "z")
        assert prompt.text == "zz"
        await _footer_shows(pilot, app, "esc", "Leave the text box")
        await pilot.press("escape", "1")
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="Logs, from its area key")
        assert prompt.text == "zz"  # the 1 went to the area, not into the prompt
        await pilot.press("9")
        await wait_for(pilot, lambda: app.screen is screen, what="back in the playground")
        assert prompt.text == "zz"


async def test_esc_leaves_the_max_tokens_box(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="playground")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _playground(pilot, app)
        max_tokens = screen.query_one("#infer-max", Input)
        await pilot.press("e", "tab")  # from the prompt to the max-tokens box, as a person does
        assert app.focused is max_tokens
        await pilot.press("1", "2")
        assert max_tokens.value == "12"
        await _footer_shows(pilot, app, "esc", "Leave the text box")
        await pilot.press("escape")
        assert "esc" not in footer_keys(app)  # nothing to leave any more: Esc is not offered
        await pilot.press("e", "escape")  # and Esc leaves the prompt box again, each time
        await pilot.press("4")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="Leaderboard, from its area key")
        assert max_tokens.value == "12"
        assert screen.query_one("#infer-prompt", TextArea).text == ""


async def _chatroom_composer(pilot: Pilot[Any], app: BlahApp) -> Input:
    await pilot.press("5")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ChatroomScreen) and app.focused is app.screen.query_one("#room"),
        what="the chatroom, its room list focused",
    )
    return app.screen.query_one("#compose-input", Input)


async def _write(pilot: Pilot[Any], app: BlahApp, box: Input, text: str) -> None:
    """`i`, then type ``text`` once the composer has the focus."""
    await pilot.press("i")
    await wait_for(pilot, lambda: app.focused is box, what="the composer focused")
    await type_text(pilot, text)
    assert box.value == text


async def test_chatroom_composer_footer_offers_esc(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="chatroom", chatroom_poll_interval=60.0)
    async with app.run_test(size=SIZE) as pilot:
        box = await _chatroom_composer(pilot, app)
        await _write(pilot, app, box, "hello")
        await _footer_shows(pilot, app, "esc", "Back to room")
        await pilot.press("escape")
        assert "esc" not in footer_keys(app)
        await pilot.press("4")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="leaderboard, from its area key")


async def test_chatroom_i_goes_back_to_the_draft_without_selecting_it(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="chatroom", chatroom_poll_interval=60.0)
    async with app.run_test(size=SIZE) as pilot:
        box = await _chatroom_composer(pilot, app)
        await _write(pilot, app, box, "hello")
        await pilot.press("escape")
        await pilot.press("i", "X")  # back to the draft: goes on writing it
        assert box.value == "helloX"
        assert box.cursor_position == len("helloX") and box.selection.is_empty


# --------------------------------------------------------------------------- ctrl+p


async def test_ctrl_p_opens_the_palette_and_typing_stays_in_it(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, WebhooksScreen), what="webhooks")
        webhooks = app.screen
        await pilot.press("ctrl+p")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CommandPalette) and isinstance(app.screen.focused, CommandInput),
            what="the palette, ready for typing",
        )
        palette = app.screen
        await type_text(pilot, "training")  # typed into the palette, as a person types once they see it
        await wait_for(pilot, lambda: palette.query_one(CommandInput).value == "training", what="the query typed")
        assert app.screen_stack[-2] is webhooks  # nothing else (no "New webhook" form) opened
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is webhooks, what="palette closed")


async def test_ctrl_p_opens_the_palette_from_a_text_box(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="playground")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _playground(pilot, app)
        await pilot.press("e")
        await _footer_shows(pilot, app, "esc", "Leave the text box")
        palette_keys = [
            key.key_display for key in app.screen.query_one(KeyFooter).keys if key.action == "command_palette"
        ]
        assert palette_keys == ["^p"]  # while typing ":" is text; ctrl+p is offered, once
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), what="the palette")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="palette closed")
        assert screen.query_one("#infer-prompt", TextArea).text == ""


# --------------------------------------------------------------------------- area keys over pushed screens


async def _leaderboard(pilot: Pilot[Any], app: BlahApp) -> LeaderboardScreen:
    await pilot.press("4")
    await wait_for(
        pilot, lambda: isinstance(app.screen, LeaderboardScreen) and app.screen.loaded, what="the leaderboard loaded"
    )
    screen = app.screen
    assert isinstance(screen, LeaderboardScreen)
    return screen


async def test_area_key_leaves_a_screen_pushed_over_its_area(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="leaderboard")
    async with app.run_test(size=SIZE) as pilot:
        board = await _leaderboard(pilot, app)
        for key, pushed in (("h", HealthScreen), ("c", CompareScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda pushed=pushed: isinstance(app.screen, pushed), what=pushed.__name__)
            await _footer_shows(pilot, app, "esc", "Back")
            await pilot.press("4")
            await wait_for(pilot, lambda: app.screen is board, what=f"the leaderboard again, over {pushed.__name__}")
            assert "esc" not in footer_keys(app)  # an area's own screen has nothing to go back to
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HealthScreen), what="health again")
        await pilot.press("3")  # leaving the area and coming back lands on its own screen too
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        await pilot.press("4")
        await wait_for(pilot, lambda: app.screen is board, what="the leaderboard after Runs")
        assert len(app.screen_stack) == 1


async def test_esc_still_closes_a_pushed_screen(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="leaderboard")
    async with app.run_test(size=SIZE) as pilot:
        board = await _leaderboard(pilot, app)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HealthScreen), what="health")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is board, what="back to the leaderboard")
        await pilot.press("3")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")


# --------------------------------------------------------------------------- Playground ctrl+s / ctrl+o


async def test_ctrl_s_sends_and_stays_ctrl_o_opens_the_inspector(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="playground")
        async with app.run_test(size=SIZE) as pilot:
            screen = await _playground(pilot, app)
            await pilot.press("e", *"Once upon a time", "ctrl+s")
            await wait_for(pilot, lambda: screen.last_log_id is not None and not screen.infer_busy, what="the answer")
            await pilot.pause()
            assert app.screen is screen  # sending does not leave the screen
            answer = str(screen.query_one("#pg-answer", Static).render())
            assert "ctrl+o opens it in the inspector" in answer
            await pilot.press("ctrl+o")
            await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the inspector")
            assert app.screen.log_id == screen.last_log_id  # type: ignore[attr-defined]
