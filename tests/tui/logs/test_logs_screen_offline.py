"""The Logs screen offline (``blah-tui open FILE.jsonl``), and its snapshot."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from common.records import Call
from simulator.server import SimulatorServer
from tests.support.logs_world import SIZE, ids_of, label_of, logs_screen, wait_for
from tui.app import create_app
from tui.screens.inspector.screen import InspectorScreen


def _entry_line(entry: Call) -> str:
    """The call as blah.dev's JSON (what ``export`` writes: the same fields, in order)."""
    return json.dumps(dataclasses.asdict(entry))


async def test_offline_mode_browses_a_jsonl_dump(sim: SimulatorServer, client: BlahClient, tmp_path: Path) -> None:
    from cli.app.open_file import load_dump

    page = await client.get_logs(sim.person_model_id, limit=300)
    dump = tmp_path / "calls.jsonl"
    lines = [_entry_line(entry) for entry in page.logs]
    lines.insert(5, "{this line is broken")
    dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(
        model_id=sim.person_model_id,
        client=None,
        platform=f"offline: {dump.name}",
        archive=archive,
        offline_source=dump,
    )
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: logs_screen(app).log_list.row_count == 300, what="the dump's rows")
        log_list = logs_screen(app).log_list
        assert ids_of(log_list) == [entry.id for entry in reversed(page.logs)]
        assert f"offline: {dump}" in label_of(app, "#logs-tail")
        assert "not available offline" in label_of(app, "#logs-totals")
        await pilot.press("g")  # nothing older to fetch offline: no request, no crash
        await pilot.pause(0.2)
        assert log_list.row_count == 300 and not log_list.has_older
        await pilot.press("end", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen) and app.screen.entry is not None)
        assert app.screen.entry.id == page.logs[0].id  # type: ignore[attr-defined]
        await pilot.press("n")  # the newest: nowhere newer to go
        await pilot.pause()
        assert app.screen.entry.id == page.logs[0].id  # type: ignore[attr-defined]
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen.entry.id == page.logs[1].id)  # type: ignore[attr-defined]
