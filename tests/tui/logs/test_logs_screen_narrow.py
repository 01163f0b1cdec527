"""Pilot tests of the Logs list's time column and of narrow or short terminals: the date shows
when the rows on screen span days, badges outlast the other columns, the plots fold when the
terminal is short, and the Chatroom's messages keep most of a narrow screen."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from simulator.server import SimulatorServer
from tests.support.chatroom import make_app, open_chatroom
from tests.support.logs_world import fixed_world_dump, logs_screen, wait_for
from tui.app import BlahApp, create_app
from tui.screens.logs.screen import LogsScreen
from widgets.log_list import LogList

_CLOCK = re.compile(r"^\d\d:\d\d:\d\d\.\d\d\d ")
_DAY_CLOCK = re.compile(r"^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d\d\d ")


def _offline_app(tmp_path: Path) -> BlahApp:
    """The seeded World's calls (fixed clock) from a dump, times in UTC: the same rows every run."""
    dump, model_id = fixed_world_dump(tmp_path)
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        offline_source=dump,
        platform="offline: calls.jsonl",
        settings=Settings(timezone="UTC"),
    )
    return create_app(ctx)


def _lines(log_list: LogList) -> list[str]:
    """The list as drawn: the header, then one line per row on screen."""
    height = log_list.scrollable_content_region.height
    return ["".join(segment.text for segment in log_list.render_line(y)) for y in range(height)]


def _visible_days(log_list: LogList) -> set[str]:
    top = int(log_list.scroll_y)
    rows = [log_list.row_at(i) for i in range(top, min(log_list.row_count, top + len(_lines(log_list)) - 1))]
    return {datetime.fromtimestamp(row.created_at / 1000, UTC).strftime("%b %d") for row in rows if row.created_at}


async def _ready(pilot, app: BlahApp) -> LogList:  # type: ignore[no-untyped-def]
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, LogsScreen)
            and logs_screen(app).log_list.row_count > 0
            and logs_screen(app).loader.badges_ready
        ),
        what="the rows",
    )
    return logs_screen(app).log_list


async def test_errors_only_shows_the_day_when_the_rows_on_screen_span_days(tmp_path: Path) -> None:
    app = _offline_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        log_list = await _ready(pilot, app)
        await pilot.pause()
        assert len(_visible_days(log_list)) == 1  # the newest calls: one day, the time alone
        rows = _lines(log_list)[1:]
        assert all(_CLOCK.match(line) for line in rows), rows[:3]
        assert _lines(log_list)[0].startswith("time         source")

        await pilot.press("e")  # errors only: the newest errors reach back over a day
        screen = logs_screen(app)
        await wait_for(pilot, lambda: screen.rows is not None and screen.rows.filter.errors_only, what="the errors")
        await pilot.pause()
        days = _visible_days(log_list)
        assert len(days) > 1
        rows = [line for line in _lines(log_list)[1:] if line.strip()]
        assert all(_DAY_CLOCK.match(line) for line in rows), rows[:3]
        assert {line[:6] for line in rows} == days  # "Jun 14", "Jun 15": each row's own day
        assert _lines(log_list)[0].startswith("time                source")  # the header moved along

        await pilot.press("e")  # all calls again: one day on screen, the date goes
        await wait_for(pilot, lambda: screen.rows is not None and not screen.rows.filter.errors_only, what="all calls")
        await pilot.pause()
        assert all(_CLOCK.match(line) for line in _lines(log_list)[1:])


async def test_at_60x20_badges_stay_and_the_plots_fold(tmp_path: Path) -> None:
    app = _offline_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        log_list = await _ready(pilot, app)
        await pilot.pause()
        screen = logs_screen(app)
        assert not screen.query_one("#logs-plots").display  # folded: the list gets the room
        header = _lines(log_list)[0]
        assert "badges" in header and "time" in header and "prompt" in header
        for dropped in ("source", "latency", "finish"):
            assert dropped not in header
        assert len([line for line in _lines(log_list)[1:] if line.strip()]) >= 12
        badged = [i for i in range(log_list.row_count) if log_list.row_at(i).badges]
        assert badged, "the seeded world has badged calls"
        # a badged row, on screen: its badge is drawn
        await pilot.press("G", *["k"] * (log_list.row_count - 1 - badged[-1]))
        top = int(log_list.scroll_y)
        line = _lines(log_list)[1 + badged[-1] - top]
        assert {"ERR", "EMPTY", "LOOP", "CUT", "CONT", "REFUSE", "TMPL", "LEAK", "WRONG"} & set(line.split())


async def test_at_80x24_the_plots_fold_and_p_still_shows_them(tmp_path: Path) -> None:
    app = _offline_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        log_list = await _ready(pilot, app)
        await pilot.pause()
        plots = logs_screen(app).query_one("#logs-plots")
        assert not plots.display
        assert log_list.scrollable_content_region.height - 1 >= 14  # list rows, not 7
        await pilot.press("p")
        await pilot.pause()
        assert plots.display  # the person asked for them
        await pilot.press("p")
        await pilot.pause()
        assert not plots.display


async def test_chatroom_at_60x20_keeps_most_of_the_width_for_messages(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_chatroom(pilot, app)
        await pilot.pause()
        room = screen.query_one("#room").size.width
        people = screen.query_one("#people-pane").size.width
        assert room >= 30 and room > people
