"""A table filled by a load shows its cells in full, even when a frame was painted before the
table had measured the new rows (what a second, superseding load made likely on the
Leaderboard, Models and Training sets screens: names cut to the width of their column's label).
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import DataTable

from widgets.fitted_table import FittedTable
from widgets.key_table import KeyTable

NAMES = ["tinystories-chat-1m", "a-much-longer-model-name-v2", "m"]


class TableApp(App[None]):
    def __init__(self, table: DataTable[Any]) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        self.table.add_column("#", key="rank")
        self.table.add_column("Model", key="model")
        yield self.table


def fill(table: DataTable[Any]) -> None:
    """What a screen's load does: clear, then add every row."""
    table.clear()
    for rank, name in enumerate(NAMES, start=1):
        table.add_row(Text(str(rank)), Text(name), key=name)


def paint_now(table: DataTable[Any]) -> None:
    """Draw every line of the table, as a screen refresh that comes before its Idle does."""
    for y in range(len(NAMES) + 1):  # the header and the rows
        table.render_line(y)


def painted(table: DataTable[Any]) -> str:
    """The table as the screen draws it now."""
    return "\n".join(strip.text for strip in table.render_lines(Region(0, 0, *table.size)))


@pytest.mark.parametrize("make", [FittedTable, KeyTable], ids=["FittedTable", "KeyTable"])
async def test_names_show_in_full_after_a_load_painted_before_it_was_measured(make: type[DataTable[Any]]) -> None:
    table = make()
    app = TableApp(table)
    async with app.run_test(size=(80, 12)) as pilot:
        await pilot.pause()
        for load in range(2):  # the first load, then one that supersedes it
            fill(table)
            paint_now(table)
            await pilot.pause()
            lines = painted(table)
            for name in NAMES:
                assert name in lines, f"load {load + 1}: {name!r} cut short in\n{lines}"


async def test_a_plain_datatable_keeps_the_cut_lines() -> None:
    """Control: the same steps on Textual's own DataTable do show the cut names (issue #3533);
    if this starts failing, Textual fixed it and FittedTable can go."""
    table: DataTable[Any] = DataTable()
    app = TableApp(table)
    async with app.run_test(size=(80, 12)) as pilot:
        await pilot.pause()
        fill(table)
        paint_now(table)
        await pilot.pause()
        assert NAMES[1] not in painted(table)
