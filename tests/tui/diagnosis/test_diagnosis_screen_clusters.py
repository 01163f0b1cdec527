"""Failure clusters on the Diagnosis screen: asked first, sent exactly once per confirmation
(counted on the wire), shown beside our groups, and refusals said plainly."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from textual.widgets import TabbedContent

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
from tui.screens.diagnosis.calls import DiagnosisCallsScreen
from tui.screens.diagnosis.clusters import CLUSTER_COLUMNS
from widgets.confirm import ConfirmScreen
from widgets.key_table import KeyTable

CLUSTERS = "/failure-clusters"


async def test_confirmed_once_sends_one_post_and_shows_the_clusters(sim: SimulatorServer) -> None:
    transport = CountingTransport()
    async with client_for(sim, transport) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=200)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            panel = screen.clusters_panel
            # cancelling sends nothing, and does not block asking again
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("n")
            await until(pilot, lambda: app.screen is screen, "the dialog to close")
            assert transport.count("POST", CLUSTERS) == 0
            # confirm: one POST, the clusters appear beside our groups
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("y")
            await until(pilot, lambda: panel.clusters is not None, "the clusters")
            assert transport.count("POST", CLUSTERS) == 1
            assert panel.request.sent == 1
            await until(
                pilot, lambda: screen.query_one("#diag-tabs", TabbedContent).active == "tab-groups", "the clusters' tab"
            )
            table = screen.query_one("#diag-clusters", KeyTable)
            assert table.row_count == len(panel.clusters.clusters) > 0  # type: ignore[union-attr]
            first = panel.cluster_list[0]
            column = [key for key, _ in CLUSTER_COLUMNS]
            assert first.label is not None and first.label[:40] in table.get_cell_at((0, column.index("label"))).plain
            assert table.get_cell_at((0, column.index("size"))).plain == str(first.size)
            assert f"{first.we_flag}/{first.we_examined} read" == table.get_cell_at((0, column.index("check"))).plain
            assert first.we_examined == sum(1 for i in first.log_ids if i in screen.view.entries_by_id)
            # Enter on a cluster lists its calls
            table.focus()
            await pilot.press("home", "enter")
            await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the cluster's calls")
            calls = app.screen
            assert isinstance(calls, DiagnosisCallsScreen)
            assert set(calls.ids) == set(first.log_ids)
            await until(pilot, lambda: calls.loaded, "the cluster's calls to load")
            assert transport.count("POST", CLUSTERS) == 1


async def test_a_double_key_press_still_sends_one_post(sim: SimulatorServer) -> None:
    transport = CountingTransport()
    async with client_for(sim, transport) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            panel = screen.clusters_panel
            await pilot.press("c", "c", "y", "y", "y")
            await until(pilot, lambda: panel.clusters is not None and not panel.busy, "the clusters")
            await pilot.press("y", "y")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert transport.count("POST", CLUSTERS) == 1
            assert panel.request.sent == 1
            assert not isinstance(app.screen, ConfirmScreen)


async def test_without_council_tier_it_says_so(sim: SimulatorServer) -> None:
    transport = CountingTransport()
    async with client_for(sim, transport, key=sim.member_key) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            panel = screen.clusters_panel
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("y")
            await until(pilot, lambda: panel.error is not None, "the refusal")
            assert transport.count("POST", CLUSTERS) == 1
            assert "council tier" in panel.error and "403" in panel.error  # type: ignore[operator]
            assert "council tier" in label_of(app, "#diag-clusters-status")
            assert panel.clusters is None


async def test_a_timed_out_post_is_outcome_unknown_and_not_resent(sim: SimulatorServer) -> None:
    transport = FaultyTransport({CLUSTERS: httpx.ReadTimeout("the judge took too long")})
    async with client_for(sim, transport) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=100)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            panel = screen.clusters_panel
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("y")
            await until(pilot, lambda: panel.error is not None, "the outcome")
            await app.workers.wait_for_complete()
            assert transport.count("POST", CLUSTERS) == 1
            status = label_of(app, "#diag-clusters-status")
            assert "Outcome unknown" in status and "not sent again" in status


async def test_offline_it_sends_nothing(sim: SimulatorServer) -> None:
    app = diagnosis_app(sim, None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        panel = screen.clusters_panel
        await pilot.press("c")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert "offline" in label_of(app, "#diag-clusters-status")
        assert panel.request.sent == 0


@pytest.fixture
def own_sim() -> Iterator[SimulatorServer]:
    """A simulator of this test's own: it adds 400 calls, which the session's shared one must
    not see (the Compare checkpoint test reads the same model's newest 300 calls)."""
    with SimulatorServer(seed=7, speed=1.0, live=False) as server:
        yield server


async def test_clusters_of_calls_newer_than_the_diagnosis_are_read_not_0_of_0(own_sim: SimulatorServer) -> None:
    """The diagnosis was read, the model answered 400 more calls, then `c`: the clusters list
    those newest calls. They are read and checked (was "0/0 read" on every cluster)."""
    sim = own_sim
    async with client_for(sim, CountingTransport()) as client:
        app = diagnosis_app(sim, client, diagnosis_limit=300)
        async with app.run_test(size=SIZE) as pilot:
            screen = await loaded(pilot, app)
            panel = screen.clusters_panel
            sim.world.add_log_burst(400, same_ms=False)
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
            await pilot.press("y")
            await until(
                pilot,
                lambda: (
                    panel.clusters is not None
                    and not screen.busy
                    and sum(c.we_examined for c in panel.cluster_list) > 100
                ),
                "the clusters checked against the new calls",
            )
            table = screen.query_one("#diag-clusters", KeyTable)
            column = [key for key, _ in CLUSTER_COLUMNS].index("check")
            cells = [table.get_cell_at((row, column)).plain for row in range(table.row_count)]
            assert "0/0 read" not in cells, cells
