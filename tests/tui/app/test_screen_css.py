"""Opening an area styles its new screen once, without re-parsing the whole stylesheet
(``BlahScreen._mark_styled_with_current_css``), and a theme chosen while the app runs still
reaches areas opened before and after the change."""

from __future__ import annotations

from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.runs import make_app, wait_for
from tui.screens.compare.screen import CompareScreen
from tui.screens.health.screen import HealthScreen
from tui.screens.runs.screen import RunsScreen

SIZE = (120, 36)


@pytest.fixture
def reparses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per full re-parse of an app's stylesheet."""
    calls: list[int] = []
    original = Stylesheet.reparse

    def counting(self: Stylesheet) -> None:
        calls.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counting)
    return calls


async def test_opening_areas_does_not_reparse_the_stylesheet(
    sim: SimulatorServer, client: BlahClient, reparses: list[int]
) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        before = len(reparses)
        for key, screen in (("8", HealthScreen), ("7", CompareScreen), ("3", RunsScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda screen=screen: isinstance(app.screen, screen), what=screen.__name__)
        assert len(reparses) == before  # Textual re-parsed everything twice per new area


async def test_a_theme_changed_while_running_reaches_old_and_new_areas(
    sim: SimulatorServer, client: BlahClient
) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        dark: Any = app.screen.styles.background
        await pilot.press("8")
        await wait_for(pilot, lambda: isinstance(app.screen, HealthScreen), what="health")
        app.theme = "blah-light"
        await pilot.pause()
        light: Any = app.screen.styles.background
        assert light != dark
        await pilot.press("3")  # an area opened before the change
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs again")
        await pilot.pause()
        assert app.screen.styles.background == light
        await pilot.press("7")  # an area first opened after it
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="compare")
        await pilot.pause()
        assert app.screen.styles.background == light
