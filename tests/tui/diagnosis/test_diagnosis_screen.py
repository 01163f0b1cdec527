"""The Diagnosis screen against the real simulator: from a rate to the calls behind it to the
Inspector, the groups sorted by failures or rate, host failures kept apart, each endpoint's
failure shown where its data would be, and the way back from any number to its calls."""

from __future__ import annotations

from typing import Any

import httpx
from textual.pilot import Pilot

from simulator.server import SimulatorServer
from tests.support.diagnosis_screen import (
    SIZE,
    CountingTransport,
    FaultyTransport,
    client_for,
    diagnosis_app,
    loaded,
    until,
)
from tests.support.logs_world import label_of
from tui.app import BlahApp
from tui.screens.diagnosis.calls import DiagnosisCallsScreen
from tui.screens.diagnosis.groups import GroupsTab
from tui.screens.diagnosis.rates import KIND_COLUMNS
from tui.screens.diagnosis.screen import DiagnosisScreen
from tui.screens.inspector.screen import InspectorScreen
from widgets.key_table import KeyTable

COLUMNS = [key for key, _ in KIND_COLUMNS]


def cell_text(table: KeyTable, row: int, column: int) -> str:
    return table.get_cell_at((row, column)).plain  # type: ignore[union-attr]


async def test_rates_and_groups_lead_to_their_calls_and_on_to_the_inspector(sim: SimulatorServer) -> None:
    """One load, three ways down: our rate, the platform's examples, a sorted group."""
    async with client_for(sim, CountingTransport()) as client:
        app = diagnosis_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            await _our_rate_to_inspector(pilot, app, screen)
            await _platform_examples(pilot, app, screen)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen, "back to the diagnosis")
            await _groups_sort_and_open(pilot, app, screen)


async def _our_rate_to_inspector(pilot: Pilot[Any], app: BlahApp, screen: DiagnosisScreen) -> None:
    view = screen.view
    assert view is not None
    kinds = [row.kind for row in screen.rows]
    loop_row = kinds.index("loop")
    loop_ids = view.kind_ids["loop"]
    assert loop_ids, "the seeded model loops: there must be calls behind the loop rate"
    table = screen.query_one("#diag-kinds", KeyTable)
    # the number on screen is the number of calls behind it
    shown = cell_text(table, loop_row, COLUMNS.index("ours"))
    assert f"{len(loop_ids)}/{view.summary.model_calls}" in shown
    for _ in range(loop_row):
        await pilot.press("j")
    await pilot.press("right", "enter")
    await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the calls list")
    calls = app.screen
    assert isinstance(calls, DiagnosisCallsScreen)
    await until(pilot, lambda: calls.loaded, "the calls to load")
    assert set(calls.shown_ids) == set(loop_ids)
    assert calls.log_list.row_count == len(loop_ids)
    assert "loop" in calls.title_text and str(len(loop_ids)) in calls.title_text
    # every row carries the loop badge
    assert all("loop" in calls.log_list.row_at(i).badges for i in range(calls.log_list.row_count))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, InspectorScreen), "the inspector")
    inspector = app.screen
    assert isinstance(inspector, InspectorScreen)
    assert inspector.log_id == calls.shown_ids[-1]  # the cursor starts on the newest call
    await until(pilot, lambda: inspector.analysis is not None, "the inspector's analysis")
    assert "loop" in inspector.analysis.kinds  # type: ignore[union-attr]
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "back to the list")
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is screen, "back to the diagnosis")


async def _platform_examples(pilot: Pilot[Any], app: BlahApp, screen: DiagnosisScreen) -> None:
    row_index = next(i for i, r in enumerate(screen.rows) if r.agreement and r.agreement.platform_count)
    row = screen.rows[row_index]
    assert row.agreement is not None
    table = screen.query_one("#diag-kinds", KeyTable)
    assert cell_text(table, row_index, COLUMNS.index("agreed")) == str(len(row.agreement.agreed_log_ids))
    platform_text = cell_text(table, row_index, COLUMNS.index("platform"))
    assert f"{row.agreement.platform_count}/{row.agreement.platform_population}" in platform_text
    table.move_cursor(row=0, column=0)
    for _ in range(row_index):
        await pilot.press("down")
    for _ in range(COLUMNS.index("platform")):
        await pilot.press("right")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the platform's examples")
    calls = app.screen
    assert isinstance(calls, DiagnosisCallsScreen)
    await until(pilot, lambda: calls.loaded, "the examples to load")
    examples = {*row.agreement.agreed_log_ids, *row.agreement.disputed_log_ids, *row.agreement.unseen_log_ids}
    assert set(calls.ids) == examples
    assert "platform sent" in calls.title_text


async def test_host_failures_are_a_row_of_their_own(sim: SimulatorServer) -> None:
    """The seeded world has an outage: calls in it are the host's, listed apart, out of the rates."""
    async with client_for(sim, CountingTransport()) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=2000)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            view = screen.view
            assert view is not None
            host = view.summary.host
            assert host.windows and host.calls > 0, "the seeded history has an outage within 2000 calls"
            assert view.summary.model_calls + host.calls == view.summary.calls_examined
            assert "the host's, not the model's" in label_of(app, "#diag-summary")
            host_row = len(screen.rows) - 1
            assert screen.rows[host_row].is_host
            table = screen.query_one("#diag-kinds", KeyTable)
            assert f"{host.failures}/{host.calls}" in cell_text(table, host_row, COLUMNS.index("ours"))
            # a whole phrase, not one that reads as cut off ("apart: the host's")
            assert cell_text(table, host_row, COLUMNS.index("verdict")) == "host's fault, not compared"
            await pilot.press("G", "enter")  # vim key to the last row, then the calls behind it
            await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the host's calls")
            calls = app.screen
            assert isinstance(calls, DiagnosisCallsScreen)
            assert set(calls.shown_ids) == set(view.host_ids)
            assert "not the model's" in label_of(app, "#calls-note")
            # none of the host's calls counts against the model
            assert not set(view.host_ids) & set(view.failing_ids)


async def _groups_sort_and_open(pilot: Pilot[Any], app: BlahApp, screen: DiagnosisScreen) -> None:
    table = screen.query_one("#diag-groups", KeyTable)

    def shown() -> list[tuple[int, float]]:
        out = []
        for i in range(table.row_count):
            failing = int(cell_text(table, i, 3))
            rate = float(cell_text(table, i, 4).rstrip("%"))
            out.append((failing, rate))
        return out

    await pilot.press("percent_sign")
    assert screen.query_one("#diag-tabs").active == "tab-groups"
    by_rate = shown()
    assert [r for _, r in by_rate] == sorted((r for _, r in by_rate), reverse=True)
    assert "highest failure rate first" in label_of(app, "#diag-groups-title")
    await pilot.press("f")
    by_failures = shown()
    assert [f for f, _ in by_failures] == sorted((f for f, _ in by_failures), reverse=True)
    assert by_rate != by_failures, "the two orders differ on the seeded data"
    # Enter on the top group lists exactly its calls
    await pilot.press("home", "enter")
    top = screen.query_one(GroupsTab).group_at(table.current_key or "")
    assert top is not None
    await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the group's calls")
    calls = app.screen
    assert isinstance(calls, DiagnosisCallsScreen)
    assert calls.log_list.row_count == top.calls
    assert f"{top.failures} of {top.calls} calls fail" in calls.title_text


async def test_each_failed_endpoint_is_said_where_its_data_would_be(sim: SimulatorServer) -> None:
    transport = FaultyTransport(
        {
            "/diagnose": httpx.Response(500, json={"error": "diagnose exploded"}),
            "/health": httpx.Response(500, json={"error": "health exploded"}),
            "/results": httpx.Response(500, json={"error": "results exploded"}),
        }
    )
    async with client_for(sim, transport) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            table = screen.query_one("#diag-kinds", KeyTable)
            assert "/diagnose failed" in cell_text(table, 0, COLUMNS.index("platform"))
            detail = label_of(app, "#diag-kind-detail")
            assert "the platform's /diagnose failed" in detail and "diagnose exploded" in detail
            host_row = len(screen.rows) - 1
            assert "no data" in cell_text(table, host_row, COLUMNS.index("ours"))
            await pilot.press("G")
            detail = label_of(app, "#diag-kind-detail")
            assert "the platform's /health failed" in detail and "cannot be told apart" in detail
            judge = label_of(app, "#diag-judge")
            assert "the platform's /results failed" in judge and "results exploded" in judge
            # our own reading still stands
            assert screen.view is not None and screen.view.summary.model_calls > 0
            assert "fail in some way" in label_of(app, "#diag-summary")


async def test_calls_that_cannot_be_read_say_so(sim: SimulatorServer) -> None:
    transport = FaultyTransport({"/logs": httpx.Response(500, json={"error": "logs exploded"})})
    async with client_for(sim, transport) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            summary = label_of(app, "#diag-summary")
            assert "couldn't load the calls" in summary and "logs exploded" in summary
            assert screen.view is not None and screen.view.summary.calls_examined == 0
            # no invented rate
            table = screen.query_one("#diag-kinds", KeyTable)
            assert "/" not in cell_text(table, 0, COLUMNS.index("ours"))


async def test_model_switch_reloads_for_the_new_model(sim: SimulatorServer) -> None:
    peer = sim.peer_model_ids[0]
    async with client_for(sim, CountingTransport()) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            app.switch_model(peer)
            await until(
                pilot,
                lambda: screen.view is not None and screen.view.inputs.model_id == peer and not screen.busy,
                "the peer's diagnosis",
            )
            assert screen.view is not None
            assert all(e.model_id == peer for e in screen.view.inputs.entries)


async def test_a_doubted_verdict_opens_its_call_in_the_inspector(sim: SimulatorServer) -> None:
    """The Judge tab: ``]`` twice, the verdicts worth doubting, Enter opens the doubted call."""
    async with client_for(sim, CountingTransport()) as client:
        app = diagnosis_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            assert screen.view is not None
            doubts = list(screen.view.report.doubts or ())
            row = next((i for i, d in enumerate(doubts) if d.log_id), None)
            assert row is not None, "the seeded judge gives verdicts worth doubting that name their call"
            await pilot.press("right_square_bracket", "right_square_bracket")
            assert screen.query_one("#diag-tabs").active == "tab-judge"
            assert f"{len(doubts)} of " in label_of(app, "#diag-judge")
            for _ in range(row):
                await pilot.press("down")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, InspectorScreen), "the inspector")
            inspector = app.screen
            assert isinstance(inspector, InspectorScreen)
            assert inspector.log_id == doubts[row].log_id
