"""Filling Runs' "New bake-off" dialog by keys. No tests here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.pilot import Pilot

from application.compare.bakeoff.create import CATALOG_MODELS
from tests.support.waiting import wait_for
from tui.screens.runs.bakeoff_new import BakeoffNewScreen
from widgets.confirm import ConfirmScreen


def typed(text: str) -> list[str]:
    """``text`` as the keys a person types."""
    return ["space" if char == " " else char for char in text]


async def open_dialog(pilot: Pilot[Any]) -> BakeoffNewScreen:
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, BakeoffNewScreen), what="the New bake-off dialog")
    assert isinstance(pilot.app.screen, BakeoffNewScreen)
    return pilot.app.screen


async def fill(pilot: Pilot[Any], *, name: str, rubric: str, baseline: str, candidates: Sequence[str],
               samples: str) -> BakeoffNewScreen:
    """Runs ``e``, then the fields in Tab order, ticking ``candidates`` with space, and Enter
    in the samples field (which continues)."""
    dialog = await open_dialog(pilot)
    await pilot.press(*typed(name), "tab", *typed(rubric), "tab", "end", "ctrl+u", *typed(baseline), "tab")
    for model in candidates:
        await pilot.press("home", *["down"] * CATALOG_MODELS.index(model), "space")
    await pilot.press("tab", "end", "ctrl+u", *typed(samples), "enter")
    return dialog


async def confirm_shown(pilot: Pilot[Any]) -> ConfirmScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), what="the confirmation")
    assert isinstance(pilot.app.screen, ConfirmScreen)
    return pilot.app.screen
