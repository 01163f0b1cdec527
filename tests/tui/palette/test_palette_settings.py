"""Settings changed from the palette are saved to the config file at once (poll interval,
bell, trained template of the current model), refused with the reason when invalid, and
never written over a broken file (the session still uses them, and says so)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from api_client.blahdev.client import BlahClient
from application.session.settings.config import load_config, save_setting
from simulator.server import SimulatorServer
from tests.support.palette import run_hit
from tests.support.palette_config import SIZE, saved, write_config
from tests.support.runs import make_app, notifications, wait_for
from tui.app import BlahApp
from tui.palette_settings import ValuePrompt
from tui.screens.runs.screen import RunsScreen


async def _answer(pilot: Any, app: BlahApp, text: str) -> ValuePrompt:
    await wait_for(pilot, lambda: isinstance(app.screen, ValuePrompt), what="the prompt")
    prompt = app.screen
    assert isinstance(prompt, ValuePrompt)
    prompt.query_one(Input).value = text
    await pilot.press("enter")
    await pilot.pause()
    return prompt


async def test_poll_interval_bell_and_template_from_the_palette(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")

        await run_hit(pilot, "poll interval", lambda text: text == "Set poll interval…")
        prompt = await _answer(pilot, app, "0.01")  # refused: said under the field, nothing saved
        assert app.screen is prompt
        assert "greater than or equal to 0.2" in str(prompt.query_one("#prompt-problem", Static).render())
        await _answer(pilot, app, "7.5")
        assert app.screen is not prompt and app.ctx.settings.poll_interval == 7.5
        assert saved()["poll_interval"] == 7.5

        await run_hit(pilot, "toggle bell", lambda text: text == "Toggle bell on run end")
        assert app.ctx.settings.bell_on_run_end is False and saved()["bell_on_run_end"] is False

        await run_hit(pilot, "trained chat template", lambda text: text.startswith("Set trained chat template"))
        await _answer(pilot, app, "llama3")
        assert app.ctx.trained_template == "llama3"
        assert saved()["templates"] == {sim.person_model_id: "llama3"}
        assert load_config().problem is None and load_config().config.templates == {sim.person_model_id: "llama3"}

        await run_hit(pilot, "trained chat template", lambda text: text.startswith("Set trained chat template"))
        await _answer(pilot, app, "")  # empty: not set any more
        assert app.ctx.trained_template is None and saved().get("templates") == {}
        assert any("saved to" in n for n in notifications(app))


async def test_a_setting_is_not_written_over_a_broken_file(sim: SimulatorServer, client: BlahClient) -> None:
    path = write_config("theme = \n")
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        await run_hit(pilot, "toggle bell", lambda text: text == "Toggle bell on run end")
        assert app.ctx.settings.bell_on_run_end is False  # in effect for this session
        assert any(n.startswith("not saved:") and str(path) in n for n in notifications(app))
    assert path.read_text(encoding="utf-8") == "theme = \n"


def test_model_ids_with_dots_are_one_key() -> None:
    assert save_setting(("templates", "org/model.v2"), "chatml") is True
    assert load_config().config.templates == {"org/model.v2": "chatml"}
    assert save_setting(("templates", "org/model.v2"), None) is True
    assert load_config().config.templates == {}
