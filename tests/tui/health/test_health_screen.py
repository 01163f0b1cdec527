"""Health screen against the shared simulator (its world has one outage for the person's model)."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import HealthCheck
from application.health.windows import Uptime, outage_windows, uptime
from simulator.server import SimulatorServer
from tests.support.runs import SIZE, make_app, wait_for
from tui.cell_format import fmt_time
from tui.screens.health.screen import HealthScreen, uptime_sentence
from tui.screens.runs.pick import ModelPickerScreen
from widgets.plots import TimeSeriesPlot


def test_uptime_sentence_never_invents_a_number() -> None:
    assert uptime_sentence(Uptime(0, 0, 0, None, None)) == "the platform returned no health checks"
    assert "no uptime" in uptime_sentence(Uptime(0, 0, 3, 1, 2))
    said = uptime_sentence(
        uptime(
            [
                HealthCheck(checked_at=0, ok=True),
                HealthCheck(checked_at=3_600_000, ok=False),
                HealthCheck(checked_at=7_200_000, ok=None),
            ]
        )
    )
    assert said.startswith("50.0% of checks ok (1 of 2; 1 did not say)")
    assert "(2h 00m)" in said


async def test_health_shows_uptime_outages_and_the_timeline(sim: SimulatorServer, client: BlahClient) -> None:
    health = await client.health(sim.person_model_id)
    windows = outage_windows(health.checks)
    assert windows, "the seeded world has an outage"
    app = make_app(sim, client, start_mode="health")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HealthScreen) and app.screen.loaded, what="health")
        screen = app.screen
        assert isinstance(screen, HealthScreen)
        summary = str(screen.query_one("#health-summary").render()).replace("\n", " ")
        assert uptime_sentence(uptime(health.checks)) in summary
        assert f"{len(windows)} outage window" in summary
        table = screen.query_one("#health-windows")
        assert table.row_count == len(windows)
        newest = windows[-1]
        first_row = table.get_row_at(0)
        assert first_row[1].plain == fmt_time(newest.start)
        assert first_row[2].plain == fmt_time(newest.last_failed_at)
        assert first_row[3].plain == ("still down" if newest.end is None else fmt_time(newest.end))
        assert first_row[4].plain == str(newest.failed_checks)
        assert screen.query_one("#health-checks").row_count == len(health.checks)
        assert screen.query_one("#health-ok-plot", TimeSeriesPlot).has_data
        assert screen.query_one("#health-latency-plot", TimeSeriesPlot).has_data

        other = sim.peer_model_ids[0]
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelPickerScreen), what="the model picker")
        picker = app.screen
        assert isinstance(picker, ModelPickerScreen)
        picker.query_one("#pick-list").deselect_all()
        picker.query_one("#pick-list").select(other)
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                screen.model_id == other
                and screen.loaded
                and screen.health is not None
                and screen.health.model_id == other
            ),
            what="the other model's health",
        )
        their = await client.health(other)
        assert screen.query_one("#health-checks").row_count == len(their.checks)
