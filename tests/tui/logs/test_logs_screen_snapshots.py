"""Snapshot of the Logs screen: a seeded World with a fixed clock, browsed offline from its
dump, times in UTC, so every run draws the same frame."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from tests.support.logs_world import SIZE, fixed_world_dump, wait_for
from tui.app import create_app
from tui.screens.logs.screen import LogsScreen


def test_logs_screen_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    dump, model_id = fixed_world_dump(tmp_path)
    archive = load_dump(dump, report=io.StringIO())
    # the label shows the file as the person named it: a stable relative name here
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        offline_source=Path("calls.jsonl"),
        platform="offline: calls.jsonl",
        settings=Settings(timezone="UTC"),
    )
    app = create_app(ctx)

    async def run_before(pilot: Pilot[Any]) -> None:
        def ready() -> bool:
            screen = app.screen
            return isinstance(screen, LogsScreen) and screen.log_list.row_count > 0 and screen.loader.badges_ready

        await wait_for(pilot, ready, what="the rows")
        await pilot.press("k", "k", "k")  # a row that is not the newest: cursor and "reading" shown
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
