"""The failed-calls plot under a badge filter (issue 31): a percentage axis from 0 to 100, not
plotext's -1.00...1.00 around a single value."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.logs_world import SIZE, app_for, loaded, logs_screen, wait_for


def region_text(app, widget) -> list[str]:  # type: ignore[no-untyped-def]
    region = widget.region
    rows = ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]
    return [row[region.x : region.right] for row in rows[region.y : region.bottom]]


async def test_the_failed_calls_axis_runs_0_to_100_percent_under_a_badge_filter(
    sim: SimulatorServer, client: BlahClient
) -> None:
    app = app_for(sim, client, logs_initial_limit=500)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        screen = logs_screen(app)
        plot = screen.query_one("#plot-errors")
        if plot.region.height == 0:
            await pilot.press("p")  # the plots, when the terminal did not show them already
        await pilot.press("b")  # the first badge (ERR): only calls with that finding
        await wait_for(pilot, lambda: screen.loader.filter.badge is not None, what="the badge filter")
        await pilot.pause(0.3)
        text = "\n".join(region_text(app, plot))
        assert "-1.00" not in text and "1.00" not in text, text
        assert "100" in text and " 0" in text, text
