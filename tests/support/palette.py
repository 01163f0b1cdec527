"""Driving the command palette from pilot tests (no tests here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.command import Command, CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot

from tests.support.runs import wait_for


async def open_palette(pilot: Pilot[Any]) -> CommandPalette:
    app = pilot.app
    if not isinstance(app.screen, CommandPalette):
        await pilot.press("colon")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CommandPalette) and bool(app.screen.query(CommandInput)),
            what="the palette",
        )
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    return palette


def options(palette: CommandPalette) -> list[str]:
    """The plain text of every command the palette lists now."""
    command_list = palette.query_one(CommandList)
    found = []
    for index in range(command_list.option_count):
        option = command_list.get_option_at_index(index)
        if isinstance(option, Command):
            found.append(str(option.hit.text))
    return found


async def search(
    pilot: Pilot[Any], query: str, wanted: Callable[[str], bool], *, what: str = ""
) -> tuple[CommandPalette, int]:
    """Type ``query`` in the palette; wait until an option satisfies ``wanted``; its index."""
    palette = await open_palette(pilot)
    palette.query_one(CommandInput).value = query
    found: list[int] = []

    def ready() -> bool:
        found[:] = [i for i, text in enumerate(options(palette)) if wanted(text)]
        return bool(found)

    await wait_for(pilot, ready, what=what or f"a palette hit for {query!r}")
    return palette, found[0]


async def run_hit(pilot: Pilot[Any], query: str, wanted: Callable[[str], bool], *, what: str = "") -> str:
    """Search, pick the first option satisfying ``wanted`` and run it; returns its text."""
    palette, index = await search(pilot, query, wanted, what=what)
    text = options(palette)[index]
    palette.query_one(CommandList).highlighted = index
    await pilot.press("enter")  # select: the command goes into the input
    await pilot.pause()
    if pilot.app.screen is palette:
        await pilot.press("enter")  # run it
    await wait_for(pilot, lambda: pilot.app.screen is not palette, what="the palette to close")
    await pilot.pause()
    return text
