"""Pilot tests of the Logs screen while calls arrive: bursts, follow mode, hostile text.

These add calls to the world, so they use this module's own simulator (``own_sim``), never
the shared session one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.settings.typed import Settings
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer
from tests.support.hostile_payloads import assert_segments_inert
from tests.support.logs_world import (
    SIZE,
    add_hostile_calls,
    app_for,
    frame_segments,
    ids_of,
    label_of,
    loaded,
    wait_for,
)
from tui.app import create_app
from tui.screens.logs.screen import LogsScreen
from widgets.status_header import StatusHeader


@pytest.fixture(scope="module")
def own_sim() -> Iterator[SimulatorServer]:
    server = SimulatorServer(seed=11, speed=50.0, live=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def own_client(own_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(own_sim.base_url, api_key=own_sim.council_key) as c:
        yield c


async def test_a_burst_bigger_than_a_page_appears_once_each(own_sim: SimulatorServer, own_client: BlahClient) -> None:
    app = app_for(own_sim, own_client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        before = log_list.row_count
        burst = set(own_sim.world.add_log_burst(650, same_ms=True))
        await wait_for(pilot, lambda: log_list.row_count >= before + 650, what="the burst")
        # A few more polls, each handled (the tail asks again only once the app has taken the
        # previous answer): nothing may arrive twice.
        polls = own_sim.requests.count("GET", "/logs")
        await wait_for(pilot, lambda: own_sim.requests.count("GET", "/logs") >= polls + 3, what="three more polls")
        await pilot.pause()
        ids = ids_of(log_list)
        assert len(ids) == len(set(ids)) == before + 650
        assert burst <= set(ids)
        # following: the cursor moved to the newest call of the burst
        assert log_list.following and log_list.current_entry_id == ids[-1] and ids[-1] in burst


async def test_reading_older_rows_pauses_and_counts_new_ones(own_sim: SimulatorServer, own_client: BlahClient) -> None:
    app = app_for(own_sim, own_client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        await pilot.press("k", "k", "up")
        reading = log_list.current_entry_id
        assert not log_list.following
        assert "paused" in label_of(app, "#logs-filters")
        new = own_sim.world.add_log_burst(7, same_ms=False)
        await wait_for(pilot, lambda: log_list.new_since_pause == 7, what="7 new while paused")
        assert log_list.current_entry_id == reading  # the reader's place is kept
        assert "paused: 7 new" in label_of(app, "#logs-filters")
        await pilot.press("f")
        assert log_list.following and log_list.current_entry_id == new[-1]
        assert "following" in label_of(app, "#logs-filters")
        # End also goes back to live
        await pilot.press("k")
        assert not log_list.following
        await pilot.press("end")
        assert log_list.following


async def test_hostile_calls_render_inert_in_the_list(own_sim: SimulatorServer, own_client: BlahClient) -> None:
    """Hostile prompts, replies and errors arrive through the tail: the screen stays, every
    frame is inert and has no clickable action (the Inspector is checked in test_inspector_hostile)."""
    app = app_for(own_sim, own_client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        ids = add_hostile_calls(own_sim.world, own_sim.person_model_id)
        await wait_for(pilot, lambda: set(ids) <= set(ids_of(log_list)), what="the hostile calls")
        assert log_list.following
        assert_segments_inert(frame_segments(app))  # the newest rows, cursor on the last
        await pilot.press("pageup")
        assert_segments_inert(frame_segments(app))
        await pilot.press("pageup")
        assert_segments_inert(frame_segments(app))
        assert isinstance(app.screen, LogsScreen)  # no payload closed or replaced the screen
        assert log_list.cursor_index < log_list.row_count - len(ids)  # every hostile row was on screen


async def test_the_tail_says_when_it_is_reconnecting(own_sim: SimulatorServer, own_client: BlahClient) -> None:
    app = app_for(own_sim, own_client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        own_sim.set_chaos(ChaosConfig(rate_5xx=1.0))  # every request fails with a 5xx
        try:
            await wait_for(pilot, lambda: "reconnecting in" in label_of(app, "#logs-tail"), what="reconnecting")
            assert "HTTP 5" in label_of(app, "#logs-tail")  # and why
            assert app.screen.query_one(StatusHeader).connection == "error"
        finally:
            own_sim.set_chaos(None)
        new = own_sim.world.add_log_burst(3, same_ms=False)
        await wait_for(pilot, lambda: set(new) <= set(ids_of(log_list)), what="the calls made meanwhile")
        await wait_for(pilot, lambda: "● live" in label_of(app, "#logs-tail"), what="live again")
        assert app.screen.query_one(StatusHeader).connection == "connected"


async def test_a_slow_poll_interval_opens_logs(sim: SimulatorServer, client: BlahClient) -> None:
    """``poll_interval = 60`` (the config allows up to 300 s): Logs opens and shows its calls;
    its back-off ceiling (30 s) used to be below the interval and the tail refused to start."""
    ctx = AppContext(
        model_id=sim.person_model_id,
        client=client,
        base_url=sim.base_url,
        settings=Settings(poll_interval=60.0, logs_initial_limit=50),
    )
    app = create_app(ctx)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("1")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LogsScreen) and app.screen.log_list.row_count > 0,
            what="the first rows",
        )
        assert app.return_code is None  # still running: nothing crashed


async def test_the_search_box_never_takes_the_keys_while_logs_opens(
    sim: SimulatorServer, client: BlahClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`blah-tui --demo`, then `2` at once: the key went into Logs' hidden search box (Textual
    focused the first focusable widget as the screen opened). The list takes the focus first."""
    focused: list[str] = []
    real = LogsScreen.set_focus

    def record(self: LogsScreen, widget: object, *args: object, **kwargs: object) -> None:
        focused.append(getattr(widget, "id", None) or type(widget).__name__)
        real(self, widget, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(LogsScreen, "set_focus", record)
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        assert "logs-search" not in focused
        await pilot.press("2")
        await wait_for(pilot, lambda: not isinstance(app.screen, LogsScreen), what="the Diagnosis area")
