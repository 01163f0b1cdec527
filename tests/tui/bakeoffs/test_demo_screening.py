"""`blah-tui --demo`, as a new person tries it: Runs (3), down to a bake-off, ``s``, ``y``: the
demo's errorbar profile holds an OWNER/ADMIN key, so the screening is queued (it was a 403
before), watched to DONE, and ``v`` shows its recommendation. The key is named by where it
comes from, never shown."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.support.launch import launch_headless
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.screening_view import ScreeningScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from tui.screens.runs.screen import RunsScreen
from widgets.confirm import ConfirmScreen

pytestmark = pytest.mark.slow  # three simulators and the whole app


def test_the_demo_screens_with_its_admin_key(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Pilot[Any]) -> None:
        assert app.ctx.errorbar is not None
        seen["key_source"] = app.ctx.errorbar.key_source
        await pilot.press("3")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.bakeoffs.rows) and bool(app.screen.runs),
            what="Runs with the demo's bake-offs",
        )
        runs = app.screen
        await pilot.press("G")
        await wait_for(pilot, lambda: runs.bakeoffs.row(runs.table.current_key) is not None, what="a bake-off row")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BakeoffWatchScreen) and "screening finished" in app.screen.state_text.plain,
            timeout=30,
            what="the screening DONE",
        )
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
        seen["verdict"] = app.screen.verdict_text.plain

    assert launch_headless(monkeypatch, ["--demo", "--speed", "200"], inspect, size=(160, 48)) == 0
    assert seen["key_source"] == "the demo simulator's admin key"
    assert "Recommendation: switch to meta-llama/Llama-3.1-8B-Instruct" in seen["verdict"]
