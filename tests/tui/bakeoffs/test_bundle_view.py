"""`blah-tui open BUNDLE.json`: the app opens on the evidence bundle re-checked offline, as
`bakeoff verify` does it, and a changed figure is shown as differing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.archives.archive import Archive
from application.session.context import AppContext
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, get, queue_run, queue_server
from tests.support.launch import launch_headless
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.bakeoffs.bundle_view import BundleScreen
from widgets.key_table import KeyTable


@pytest.fixture(scope="module")
def bundle() -> Iterator[dict[str, Any]]:
    server: ErrorbarServer
    with queue_server() as server:
        run = queue_run(server, COMPARISON)
        answer = get(server, f"/v1/evals/{run['id']}/evidence", min_win_rate="0.2")
        body = answer.json()
    body["generated_at"] = "2026-12-03T12:00:00Z"  # fixed, for the snapshots
    body["run"]["created_at"] = "2026-12-03T11:00:00Z"
    yield body


def _write(tmp_path: Path, bundle: dict[str, Any]) -> Path:
    path = tmp_path / "evidence.json"
    path.write_text(json.dumps(bundle, indent=2), encoding="utf-8")
    return path


def _screen_text(app: BlahApp) -> tuple[str, list[str]]:
    screen = app.screen
    assert isinstance(screen, BundleScreen)
    summary = str(screen.query_one("#bundle-summary").render())
    table = screen.query_one("#bundle-rows", KeyTable)
    rows = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
    return summary, rows


def test_open_a_bundle_shows_what_it_is_and_every_figure_rechecked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundle: dict[str, Any]
) -> None:
    path = _write(tmp_path, bundle)
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BundleScreen) and app.screen.report is not None,
            what="the bundle screen",
        )
        seen["summary"], seen["rows"] = _screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        seen["after_escape"] = type(app.screen).__name__

    assert launch_headless(monkeypatch, ["open", str(path)], inspect) == 0
    assert "unsigned" in seen["summary"] and "content not included" in seen["summary"]
    assert "gate PASS with min_win_rate=0.2" in seen["summary"] or "gate FAIL with min_win_rate=0.2" in seen["summary"]
    assert "0 differ" in seen["summary"]
    arm = COMPARISON["candidate_models"][0]
    assert any(row.startswith(" matches ") and f"{arm} win rate" in row for row in seen["rows"])
    assert any(row.startswith(" cannot ") and "per-sample outcomes" in row for row in seen["rows"])
    assert seen["after_escape"] != "BundleScreen"


def test_a_changed_figure_reads_differs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bundle: dict[str, Any]
) -> None:
    changed = json.loads(json.dumps(bundle))
    changed["results"]["per_candidate"][1]["ci95"] = [0.5, 0.9]
    path = _write(tmp_path, changed)
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Pilot[Any]) -> None:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BundleScreen) and app.screen.report is not None,
            what="the bundle screen",
        )
        seen["summary"], seen["rows"] = _screen_text(app)

    launch_headless(monkeypatch, ["open", str(path)], inspect)
    arm = COMPARISON["candidate_models"][1]
    assert "1 differ" in seen["summary"]
    assert any(row.startswith(" DIFFERS ") and f"{arm} win rate 95% interval" in row for row in seen["rows"])


def test_a_file_that_is_neither_bundle_nor_dump_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.main import main

    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}\n{"and": "more"}\n', encoding="utf-8")
    assert main(["open", str(path)]) != 0
    assert "not a JSONL dump of calls" in capsys.readouterr().err


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
def test_bundle_screen_snapshot(
    snap_compare: Any, tmp_path: Path, bundle: dict[str, Any], size: tuple[int, int]
) -> None:
    path = _write(tmp_path, bundle)
    archive = Archive.create_temporary(prefix="blah-tui-bundle-test-")
    app = create_app(
        AppContext(
            model_id="evidence", client=None, platform="offline: evidence.json", archive=archive, open_bundle=path
        )
    )

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BundleScreen) and app.screen.report is not None,
            what="the bundle screen",
        )
        await pilot.pause()

    try:
        assert snap_compare(app, terminal_size=size, run_before=run_before)
    finally:
        archive.close()
