"""Pilot tests of the Logs screen's filters and search against the shared simulator
(read-only): combinable, instant, and the same calls the platform says match."""

from __future__ import annotations

import re
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.logs_world import (
    SIZE,
    app_for,
    ids_of,
    label_of,
    loaded,
    logs_screen,
    wait_for,
)
from tui.screens.logs.screen import SOURCE_CYCLE, LogsScreen


async def test_filters_combine_and_match_the_platform(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.get_logs(sim.person_model_id, limit=500)
    history = client.iter_logs(sim.person_model_id, page_size=500)
    by_id = {entry.id: entry async for entry in history}  # the whole history: filters reach it
    newest = {entry.id for entry in page.logs}
    app = app_for(sim, client, logs_initial_limit=500)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        screen = logs_screen(app)
        assert set(ids_of(log_list)) == newest

        async def settle(expected: set[str]) -> None:
            """The list shows the newest of the calls ``expected`` holds, none left out down
            to the oldest one shown (older pages may still be coming), and no other call."""

            def newest_part() -> bool:
                shown = set(ids_of(log_list))
                if not shown or not shown <= expected or not (expected & newest) <= shown:
                    return False
                floor = min(by_id[i].created_at for i in shown)
                return {i for i in expected if by_id[i].created_at > floor} <= shown

            await wait_for(pilot, newest_part, what=f"the newest of {len(expected)} rows")

        # a source with both failed and answered calls among the newest 500
        source = next(
            name
            for name in SOURCE_CYCLE[1:]
            if any(e.source == name and e.error for e in page.logs)
            and any(e.source == name and not e.error for e in page.logs)
        )
        await pilot.press(*["s"] * SOURCE_CYCLE.index(source))
        assert screen.loader.filter.source == source
        of_source = {i for i, e in by_id.items() if e.source == source}
        assert of_source != set(by_id)
        await settle(of_source)

        await pilot.press("e")  # errors only, combined with the source
        source_errors = {i for i in of_source if by_id[i].error is not None}
        await settle(source_errors)
        assert "errors only on" in label_of(app, "#logs-filters")

        await pilot.press("x")  # clear
        await settle(set(by_id))

        await pilot.press("b", "b")  # badge: any -> error -> empty
        assert screen.loader.filter.badge == "empty"
        stored = app.ctx.archive
        assert stored is not None
        empty = {i for i in by_id if stored.find(i) is not None and "empty" in stored.badges_of(i)}
        assert empty & newest, "the seeded world has empty replies among the newest 500"
        await settle(empty)
        for log_id in ids_of(log_list):  # the badge means what it says
            reply = by_id[log_id].response
            assert reply is not None and reply.replace("<|im_end|>", "").strip() == ""


async def searched(pilot: Pilot[Any], screen: LogsScreen, text: str) -> None:
    """Wait until the list shows the rows of the search ``text`` (the rows object's own
    filter, not the screen's, which is set before the debounced query runs)."""
    await wait_for(
        pilot,
        lambda: screen.rows is not None and screen.rows.filter.text == text,
        what=f"the rows of the search {text!r}",
    )


async def test_search_filters_and_highlights(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client, logs_initial_limit=500)
    # Wide enough that the reply column shows "little cat" also when the rows span midnight
    # and the time column gains the date.
    async with app.run_test(size=(SIZE[0] + 40, SIZE[1])) as pilot:
        log_list = await loaded(pilot, app)
        screen = logs_screen(app)
        await pilot.press("slash")
        await pilot.press(*"cat")
        await searched(pilot, screen, "cat")
        archive = app.ctx.archive
        assert archive is not None
        # the search hides calls: fewer rows than calls stored (the tail keeps adding calls while
        # the search runs, so the list's first length is no bound)
        assert 0 < log_list.row_count < archive.count()
        await pilot.press("enter")  # back to the list, the search stays
        assert app.focused is log_list
        for log_id in ids_of(log_list):
            entry = archive.get(log_id)
            text = " ".join(t for t in (entry.prompt, entry.response, entry.error) if t)
            assert re.search("cat", text, re.IGNORECASE)
        assert "search “cat”" in label_of(app, "#logs-filters")
        # the matches are highlighted in the previews (a styled segment reading "cat")
        highlighted = [
            segment
            for y in range(1, 20)
            for segment in log_list.render_line(y)
            if segment.text.lower() == "cat" and segment.style is not None and segment.style.bold
        ]
        assert highlighted
        # FTS syntax typed by the person is taken as words, never as a query: no crash
        await pilot.press("slash")
        app.screen.query_one("#logs-search", Input).value = '"AND( cat'
        await pilot.press("enter")
        # the filter is set at once but queried after the debounce: wait for the rows it made
        await searched(pilot, screen, '"AND( cat')
        assert 0 < log_list.row_count < archive.count()
        for log_id in ids_of(log_list):
            entry = archive.get(log_id)
            text = " ".join(t for t in (entry.prompt, entry.response, entry.error) if t).lower()
            assert "cat" in text and "and" in text
