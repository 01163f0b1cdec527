"""The command palette (`:`) finds every screen, every key of the current screen and the
settings; platform text in it is never markup. (Jumps: tests/tui/palette/test_palette_jumps.py.)"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from textual.content import Content

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Model
from simulator.server import SimulatorServer
from tests.support.palette import options, run_hit, search
from tests.support.runs import make_app, wait_for
from tui.palette import ModelsProvider, highlighted, looks_like_log_id, safe_help
from tui.registry import MODE_SPECS
from tui.screens.runs.results import ResultsScreen
from tui.screens.runs.screen import RunsScreen

SIZE = (140, 45)
SETTINGS_COMMANDS = ("Set poll interval…", "Toggle bell on run end", "Set trained chat template for this model…")


async def test_palette_finds_every_screen_and_setting(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        for spec in MODE_SPECS:
            await search(pilot, f"Go to {spec.title}", lambda text, t=spec.title: text == f"Go to {t}")
        for name in (*SETTINGS_COMMANDS, "Help: keys and badges", "Theme"):
            await search(pilot, name, lambda text, n=name: text == n)
        await run_hit(pilot, "Go to Leaderboard", lambda text: text == "Go to Leaderboard")
        assert app.current_mode == "leaderboard"


async def test_palette_runs_the_current_screens_keys(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await search(pilot, "start run", lambda text: text == "Runs: Start run (s)")
        await search(pilot, "cancel run", lambda text: text == "Runs: Cancel run (c)")
        palette, _ = await search(pilot, "logs", lambda text: text == "Go to Logs")
        assert not any(text.endswith("(1)") for text in options(palette))  # an area once, as "Go to …"
        await run_hit(pilot, "my results", lambda text: text == "Runs: My results (m)")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen), what="my results")


class _HostileClient:
    async def list_models(self) -> list[Model]:
        return [Model(id="evil\x1b]8;;http://x\x07id", name="[@click=app.quit]Boom[/] [b]bold[/b] $name")]


async def test_platform_text_in_the_palette_is_never_markup() -> None:
    from textual.app import App

    class _App(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.ctx = SimpleNamespace(client=_HostileClient(), model_id="mine")
            self.switched: list[str] = []

        def switch_model(self, model_id: str) -> None:
            self.switched.append(model_id)

    app = _App()
    async with app.run_test() as pilot:
        provider = ModelsProvider(app.screen)
        await provider.startup()
        hits: list[Any] = [hit async for hit in provider.search("boom")]
        assert len(hits) == 1
        shown = hits[0].prompt
        assert isinstance(shown, Content)
        assert "[@click=app.quit]Boom[/] [b]bold[/b] $name" in shown.plain  # literally
        assert "\x1b" not in shown.plain and "\x07" not in shown.plain
        hits[0].command()
        assert app.switched == ["evil\x1b]8;;http://x\x07id"]  # the real id, not the shown one
        await pilot.pause()
    assert safe_help("[b]x[/b]") == "\\[b]x\\[/b]"
    assert highlighted(provider.matcher("b"), "[b]").plain == "[b]"
    assert looks_like_log_id("log_000123") and not looks_like_log_id("go to runs")
