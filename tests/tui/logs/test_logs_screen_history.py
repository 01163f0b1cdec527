"""Pilot tests: the Logs screen's filters and ``g`` reach the whole history, not only the calls
loaded at start (the platform is asked for older pages, with its own filters where it has them)."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from simulator.server import SimulatorServer
from tests.support.logs_world import SIZE, app_for, ids_of, label_of, loaded, logs_screen, wait_for


async def _all(client: BlahClient, model_id: str, *, errors_only: bool = False) -> list[LogEntry]:
    history = client.iter_logs(model_id, errors_only=errors_only, page_size=500)
    try:
        return [entry async for entry in history]
    finally:
        await history.aclose()


async def test_errors_only_shows_every_error_and_g_goes_to_the_oldest(sim: SimulatorServer, client: BlahClient) -> None:
    errors = await _all(client, sim.person_model_id, errors_only=True)
    stats = (await client.get_logs(sim.person_model_id, limit=1, stats=True)).stats
    assert stats is not None and stats.errors == len(errors) > 100
    app = app_for(sim, client)  # the first page holds the newest 200 calls only
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        screen = logs_screen(app)
        assert log_list.row_count < stats.total
        await pilot.press("e")
        await wait_for(pilot, lambda: log_list.row_count == len(errors), what=f"all {len(errors)} errors")
        assert set(ids_of(log_list)) == {entry.id for entry in errors}
        await wait_for(
            pilot,
            lambda: f"{len(errors):,} match · all loaded" in label_of(app, "#logs-filters"),
            what="the count of matches",
        )
        assert screen.loader.feed is not None and screen.loader.feed.history_complete_for(screen.loader.filter)
        assert not screen.loader.feed.history_complete  # only the errors were asked for, not all calls
        await pilot.press("g")
        oldest_error = min(errors, key=lambda e: (e.created_at, e.id))
        await wait_for(pilot, lambda: log_list.current_entry_id == oldest_error.id, what="the oldest error")
        assert log_list.cursor_index == 0

        await pilot.press("e")  # off again: the calls between the old errors are not held,
        await wait_for(
            pilot,
            lambda: screen.rows is not None and screen.rows.filter == screen.loader.filter,
            what="all calls again",
        )
        archive = app.ctx.archive
        assert archive is not None
        assert archive.oldest_ms() > oldest_error.created_at  # so the list does not claim them
        assert log_list.row_at(0).created_at >= archive.oldest_ms()  # nor shows the old errors among all calls
        assert oldest_error.id not in ids_of(log_list)
        assert f"{stats.total:,} calls · " in label_of(app, "#logs-filters")


async def test_g_on_all_calls_goes_to_the_platforms_oldest_call(sim: SimulatorServer, client: BlahClient) -> None:
    every = await _all(client, sim.person_model_id)
    app = app_for(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        log_list = await loaded(pilot, app)
        assert log_list.row_count < len(every)
        await pilot.press("g")
        oldest = min(every, key=lambda e: (e.created_at, e.id))
        await wait_for(pilot, lambda: log_list.current_entry_id == oldest.id, what="the platform's oldest call")
        assert log_list.row_count == len(every) and log_list.cursor_index == 0
        assert "all loaded" in label_of(app, "#logs-filters")
