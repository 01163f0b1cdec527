"""Pilot tests of the Logs screen against the shared simulator (read-only), driven by keys.

Tests that add calls are in test_logs_screen_live.py (their own simulator)."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support.logs_world import (
    FAST_TAIL,
    SIZE,
    app_for,
    ids_of,
    label_of,
    loaded,
    logs_screen,
    wait_for,
)
from tests.support.settings import settings_with
from tui.app import create_app
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.logs.screen import LogsScreen


async def test_lists_the_latest_calls_with_the_platforms_totals(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.get_logs(sim.person_model_id, limit=200, stats=True)
    app = app_for(sim, client, logs_plot=True)
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


async def test_scrolling_past_the_oldest_row_pulls_older_history(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        before = log_list.row_count
        oldest = log_list.row_at(0).created_at
        newest_id = log_list.row_at(before - 1).id
        while log_list.cursor_index > 0:  # page up to the oldest row loaded
            await pilot.press("pageup")
        await pilot.press("up")  # past it: asks for one page of older history (g asks for all of it)
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
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.entry is not None,
            what="the inspector",
        )
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


async def test_an_unknown_model_says_why_nothing_is_listed(sim: SimulatorServer, client: BlahClient) -> None:
    ctx = AppContext(model_id="no-such-model", client=client, base_url=sim.base_url, settings=settings_with(FAST_TAIL))
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "couldn't load" in label_of(app, "#logs-message"), what="the inline error")
        assert "404" in label_of(app, "#logs-message")
        await wait_for(pilot, lambda: "stopped" in label_of(app, "#logs-tail"), what="the tail to stop")
        assert "404" in label_of(app, "#logs-tail")
        assert logs_screen(app).log_list.row_count == 0
