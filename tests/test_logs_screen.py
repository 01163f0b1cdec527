"""Pilot tests of the Logs screen against the shared simulator (read-only), driven by keys.

Tests that add calls are in test_logs_screen_live.py (their own simulator)."""

from __future__ import annotations

import re

from api_client.client import BlahClient
from simulator.server import SimulatorServer
from tests.test_logs_screen_world import (
    SIZE,
    app_for,
    ids_of,
    label_of,
    loaded,
    logs_screen,
    wait_for,
)
from tui.screens.inspector import InspectorScreen
from tui.screens.logs import SOURCE_CYCLE, LogsScreen


async def test_lists_the_latest_calls_with_the_platforms_totals(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.get_logs(sim.person_model_id, limit=200, stats=True)
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        ids = ids_of(log_list)
        # newest at the bottom, the cursor on it, exactly the platform's newest page
        assert ids == [entry.id for entry in reversed(page.logs)]
        assert log_list.current_entry_id == page.logs[0].id
        assert log_list.following
        assert page.stats is not None and page.stats.total is not None
        totals = label_of(app, "#logs-totals")
        assert f"calls {page.stats.total:,}" in totals
        assert f"errors {page.stats.errors:,}" in totals
        assert "chatroom" in totals and "eval" in totals
        assert "live" in label_of(app, "#logs-tail")
        # the plot panel has data (the loaded calls), and p hides it
        plot = app.screen.query_one("#plot-latency")
        assert plot.has_data  # type: ignore[attr-defined]
        await pilot.press("p")
        assert not app.screen.query_one("#logs-plots").display


async def test_filters_combine_and_match_the_platform(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.get_logs(sim.person_model_id, limit=500)
    by_id = {entry.id: entry for entry in page.logs}
    app = app_for(sim, client, logs_initial_limit=500)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        screen = logs_screen(app)
        assert set(ids_of(log_list)) == set(by_id)

        async def settle(expected: set[str]) -> None:
            await wait_for(pilot, lambda: set(ids_of(log_list)) == expected, what=f"{len(expected)} rows")

        # a source with both failed and answered calls among these 500
        source = next(
            name
            for name in SOURCE_CYCLE[1:]
            if any(e.source == name and e.error for e in page.logs)
            and any(e.source == name and not e.error for e in page.logs)
        )
        await pilot.press(*["s"] * SOURCE_CYCLE.index(source))
        assert screen.filter.source == source
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
        assert screen.filter.badge == "empty"
        stored = app.ctx.archive
        assert stored is not None
        empty = {i for i in by_id if "empty" in stored.badges_of(i)}
        assert empty, "the seeded world has empty replies among the newest 500"
        await settle(empty)
        for log_id in empty:  # the badge means what it says
            reply = by_id[log_id].response
            assert reply is not None and reply.replace("<|im_end|>", "").strip() == ""


async def test_search_filters_and_highlights(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client, logs_initial_limit=500)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        screen = logs_screen(app)
        total = log_list.row_count
        await pilot.press("slash")
        await pilot.press(*"cat")
        await wait_for(pilot, lambda: 0 < log_list.row_count < total, what="search results")
        await pilot.press("enter")  # back to the list, the search stays
        assert app.focused is log_list
        archive = app.ctx.archive
        assert archive is not None
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
        search = app.screen.query_one("#logs-search")
        search.value = ""  # type: ignore[attr-defined]
        await pilot.press("slash", *'"AND( cat', "enter")
        await wait_for(pilot, lambda: screen.filter.text == '"AND( cat', what="the literal query")
        await wait_for(pilot, lambda: 0 < log_list.row_count < total, what="and+cat results")
        for log_id in ids_of(log_list):
            entry = archive.get(log_id)
            text = " ".join(t for t in (entry.prompt, entry.response, entry.error) if t).lower()
            assert "cat" in text and "and" in text


async def test_scrolling_past_the_oldest_row_pulls_older_history(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        before = log_list.row_count
        oldest = log_list.row_at(0).created_at
        newest_id = log_list.row_at(before - 1).id
        await pilot.press("g")  # to the oldest row: asks for older history
        await wait_for(pilot, lambda: log_list.row_count > before, what="older rows")
        assert log_list.row_count <= before + 500
        assert log_list.row_at(0).created_at < oldest  # type: ignore[operator]
        assert log_list.row_at(log_list.row_count - 1).id == newest_id
        ids = ids_of(log_list)
        assert len(ids) == len(set(ids))
        # the cursor stays on the same call it was on (the first of the previous rows)
        assert log_list.cursor_index == log_list.row_count - before


async def test_enter_opens_the_inspector_on_the_highlighted_call(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        await pilot.press("k")
        wanted = log_list.current_entry_id
        older = log_list.row_at(log_list.cursor_index - 1).id
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen) and app.screen.entry is not None,
                       what="the inspector")  # fmt: skip
        inspector = app.screen
        assert isinstance(inspector, InspectorScreen) and inspector.log_id == wanted
        await pilot.press("p")
        await wait_for(pilot, lambda: inspector.entry is not None and inspector.entry.id == older, what="older call")
        await pilot.press("escape")
        assert isinstance(app.screen, LogsScreen)




async def test_switching_model_reloads_the_list(sim: SimulatorServer, client: BlahClient) -> None:
    peer = sim.peer_model_ids[0]
    page = await client.get_logs(peer, limit=200)
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        app.switch_model(peer)
        expected = [entry.id for entry in reversed(page.logs)]
        await wait_for(pilot, lambda: ids_of(log_list) == expected, what="the peer's calls")
        assert app.ctx.archive is not None and app.ctx.archive.get_meta("model_id") == peer
        assert f"model {peer}" in str(app.screen.query_one("StatusHeader").render())
