"""Logs at 80x24 (issue 31): the prompt column shows enough of the prompt to read (it showed
"<s>[INST…"); source, finish, latency and status fold first."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.logs_world import app_for, loaded


async def test_the_prompt_column_is_readable_at_80_columns(sim: SimulatorServer, client: BlahClient) -> None:
    app = app_for(sim, client, logs_initial_limit=100)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        await pilot.pause(0.2)
        rows = ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]
        header = next(row for row in rows if "prompt" in row and "reply" in row)
        width = header.index("reply") - header.index("prompt")
        assert width >= 18, header  # the prompt's cells and their separator
        assert "badges" in header  # badges stay: they are why people look
