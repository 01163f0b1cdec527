"""Keys as people who live in terminals expect them: every binding has an id a `[keymap]`
can name, remapping works (and clashes are reported), vim movement, `/`, `?`, `:` and Esc."""

from __future__ import annotations

from collections import Counter
from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.runs import make_app, notifications, wait_for
from tui.app import BlahApp
from tui.help import all_bindings, binding_classes, bindings_without_id, keymap_problems
from tui.screens.help.screen import HelpScreen
from tui.screens.logs.screen import LogsScreen
from tui.screens.runs.screen import RunsScreen

SIZE = (140, 45)


def test_every_binding_has_an_id() -> None:
    # A binding without an id cannot be remapped from the config file.
    assert bindings_without_id() == []
    names = {cls.__name__ for cls in binding_classes()}
    assert {"BlahApp", "LogsScreen", "RunsScreen", "InspectorScreen", "HelpScreen", "LogList"} <= names


def test_binding_ids_are_unique_within_each_screen() -> None:
    per_owner = Counter((b.owner, b.id) for b in all_bindings())
    assert [pair for pair, count in per_owner.items() if count > 1] == []


def test_keymap_problems_name_unknown_ids_and_clashes() -> None:
    problems = keymap_problems({"mode.runs": "r", "no.such.key": "x", "logs.follow": "s", "runs.refresh": "f5"})
    assert "keymap: no key has the id 'no.such.key'" in problems
    assert any("'s' is both 'logs.follow' and 'logs.source' on LogsScreen" in p for p in problems)
    shadow = next(p for p in problems if "'mode.runs' everywhere" in p)
    assert "'logs.refresh_totals' on LogsScreen" in shadow
    assert "'runs.refresh' on RunsScreen" not in shadow  # moved to f5: no longer in the way
    assert not any("f5" in p for p in problems)
    assert keymap_problems({"runs.refresh": "f5"}) == []


async def test_keymap_moves_an_area_key_and_reports_the_clash(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="logs", keymap={"mode.runs": "ctrl+r", "mode.leaderboard": "r"})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="logs")
        await pilot.press("3")  # no longer the Runs key
        await pilot.pause()
        assert isinstance(app.screen, LogsScreen)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs via ctrl+r")
        await pilot.press("r")  # the Runs screen's own r (refresh) wins over the remapped Leaderboard key
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        message = next(n for n in notifications(app) if "mode.leaderboard" in n)
        assert "'runs.refresh' on RunsScreen" in message


async def test_a_screen_key_remapped_shows_in_footer_and_help(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs", keymap={"runs.refresh": "f5"})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        bound = {key: active.binding.id for key, active in app.screen.active_bindings.items()}
        assert bound.get("f5") == "runs.refresh" and bound.get("r") != "runs.refresh"
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        row = next(r for r in help_screen.rows if r.binding_id == "runs.refresh")
        assert row.key.lower() == "f5" and row.where == "screen"
        assert not notifications(app)  # a clean keymap says nothing


class _ListScreen(Screen[None]):
    """A pushed screen with a plain DataTable and no keys of its own."""

    def compose(self) -> ComposeResult:
        yield DataTable(id="plain")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("n")
        for n in range(30):
            table.add_row(str(n))
        table.focus()


async def _pushed_list(app: BlahApp, pilot: Any) -> DataTable[Any]:
    await app.push_screen(_ListScreen())
    await pilot.pause()
    return app.screen.query_one(DataTable)


async def test_vim_movement_esc_and_slash_work_where_screens_define_none(
    sim: SimulatorServer, client: BlahClient
) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        table = await _pushed_list(app, pilot)
        await pilot.press("j", "j", "j", "k")
        assert table.cursor_row == 2
        await pilot.press("G")
        assert table.cursor_row == 29
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("down", "down")
        assert table.cursor_row == 2  # the arrows still work alongside
        await pilot.press("slash")  # no search of its own: the palette searches everything
        await wait_for(pilot, lambda: type(app.screen).__name__ == "CommandPalette", what="palette")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, _ListScreen)
        await pilot.press("escape")  # back
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        await pilot.press("escape")  # nothing under an area's own screen: stays
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)


async def test_slash_is_the_screens_own_search_where_it_has_one(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="logs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="logs")
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, LogsScreen)  # not the palette
        assert app.screen.focused is not None and app.screen.focused.__class__.__name__ == "Input"
        await pilot.press("j", "k", "question_mark")  # typed into the search, not taken as keys
        await pilot.pause()
        assert isinstance(app.screen, LogsScreen)
        assert getattr(app.screen.focused, "value", "") == "jk?"


async def test_colon_opens_the_palette_and_question_mark_toggles_help(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        await pilot.press("colon")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "CommandPalette", what="palette")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
