"""Visual snapshots of the Diagnosis screen's whole history (``W``) at 160x48 and 80x24: an
archive filled from the seeded world's calls at a fixed clock, so every number and time is the
same on every run (the archive's temporary path is only in the report's last section, off
screen). Update with ``--snapshot-update`` after a deliberate change, and look at the SVGs."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from tests.support.diagnosis_screen import loaded, until
from tests.support.logs_world import fixed_world_dump
from tui.app import create_app
from tui.screens.diagnosis.whole import DiagnosisWholeScreen


@pytest.mark.parametrize("size", [(160, 48), (80, 24)], ids=["160x48", "80x24"])
def test_whole_history_snapshot(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    dump, model_id = fixed_world_dump(tmp_path)
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        trained_template="chatml",
        settings=Settings(start_mode="diagnosis", timezone="UTC", diagnosis_limit=150),
    )
    app = create_app(ctx)

    async def run_before(pilot: Pilot[Any]) -> None:
        await loaded(pilot, app)
        await pilot.press("W")
        await until(
            pilot,
            lambda: isinstance(app.screen, DiagnosisWholeScreen) and not app.screen.running,
            "the whole-history diagnosis",
            timeout=60,
        )
        await app.workers.wait_for_complete()
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=size, run_before=run_before)
    finally:
        archive.close()
