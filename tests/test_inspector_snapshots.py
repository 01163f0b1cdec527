"""Snapshot of the Inspector on a looping chatroom call of the seeded World (fixed clock,
offline, UTC): prompt with template tokens, reply with the loop marked, findings, template
verdict, origin and fields."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from api_client.models import LogEntry
from diagnosis import classify
from tests.test_logs_screen_world import SIZE, fixed_world_dump, wait_for
from tui.app import create_app
from cli.commands.open_file import load_dump
from application.context import AppContext
from tui.screens.inspector.screen import InspectorScreen
from application.settings import Settings


def _looping_chatroom_call(dump: Path) -> str:
    for line in reversed(dump.read_text(encoding="utf-8").splitlines()):
        entry = LogEntry.model_validate_json(line)
        kinds = {f.kind for f in classify(entry, trained_template="chatml")}
        if entry.source == "chatroom" and "loop" in kinds and len(entry.response or "") < 600:
            return entry.id
    raise AssertionError("the seeded world has a looping chatroom call")


def test_inspector_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    dump, model_id = fixed_world_dump(tmp_path)
    log_id = _looping_chatroom_call(dump)
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(model_id=model_id, archive=archive, offline_source=Path("calls.jsonl"),
                     platform="offline: calls.jsonl", trained_template="chatml",
                     settings=Settings(timezone="UTC"), open_log_id=log_id)  # fmt: skip
    app = create_app(ctx)

    async def run_before(pilot: Pilot[Any]) -> None:
        def ready() -> bool:
            screen = app.screen
            return isinstance(screen, InspectorScreen) and screen.analysis is not None

        await wait_for(pilot, ready, what="the analysed call")
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
