"""``W`` on the Diagnosis screen: the whole local archive diagnosed on the path of
``blah-tui report MODEL --offline``, every number shown the same as its ``--json``; an empty
archive and a missing one said plainly; hostile calls inert; the recent-calls view untouched."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Markdown

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from application.diagnosis.archive_report import DiagnosisCancelled
from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from cli.blah.report.local import local_report_main
from cli.main import main as cli_main
from common.format import format_utc
from diagnosis import kinds
from diagnosis.markdown import plain_cell
from simulator.server import SimulatorServer
from tests.support.config_files import write_config_text
from tests.support.diagnosis_screen import SIZE, loaded, until
from tests.support.hostile_payloads import assert_segments_inert
from tests.support.logs_world import FIXED_ANCHOR_MS, fixed_world_dump, frame_segments, hostile_entries, label_of
from tui.app import BlahApp, create_app
from tui.screens.diagnosis.screen import DiagnosisScreen
from tui.screens.diagnosis.whole import DiagnosisWholeScreen
from widgets.bars import ProgressLine

LIMIT = 150  # the recent-calls view reads fewer calls than the archive holds


def app_on(archive: Archive, model_id: str, *, template: str | None = "chatml") -> BlahApp:
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        trained_template=template,
        settings=Settings(start_mode="diagnosis", timezone="UTC", diagnosis_limit=LIMIT),
    )
    return create_app(ctx)


def utc(ms: int) -> str:
    return format_utc(ms, zone=" UTC", missing="unknown")


def offline_report(archive: Path, model_id: str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert local_report_main(model_id, archive_path=archive, as_json=True, limit=None, out=out, err=err) == 0, err
    return json.loads(out.getvalue())


async def whole_history(pilot: Any, app: BlahApp) -> DiagnosisWholeScreen:
    await loaded(pilot, app)
    await pilot.press("W")
    await until(
        pilot,
        lambda: isinstance(app.screen, DiagnosisWholeScreen) and not app.screen.running,
        "the whole-history diagnosis",
        timeout=60,
    )
    await pilot.pause()
    assert isinstance(app.screen, DiagnosisWholeScreen)
    return app.screen


def row_of(markdown: str, label: str) -> list[str]:
    start = f"| {plain_cell(label)} |"
    rows = [line for line in markdown.splitlines() if line.startswith(start)]
    assert len(rows) == 1, f"one row for {label!r} in the kinds table"
    return [cell.strip() for cell in rows[0].strip("|").split(" | ")]


async def test_whole_history_shows_the_numbers_of_report_offline_json(tmp_path: Path) -> None:
    dump, model_id = fixed_world_dump(tmp_path)
    write_config_text(f'[templates]\n"{model_id}" = "chatml"\n')
    archive = load_dump(dump, report=io.StringIO())
    expected = offline_report(archive.path, model_id)
    held = expected["source"]["calls_held"]
    assert expected["calls_examined"] == held > LIMIT, "the archive holds more than the recent view reads"
    assert expected["failing_calls"] > 0 and expected["suggestions"]

    app = app_on(archive, model_id)
    async with app.run_test(size=SIZE) as pilot:
        recent = await loaded(pilot, app)
        assert recent.view is not None and recent.view.summary.calls_examined == LIMIT
        screen = await whole_history(pilot, app)
        assert screen.problem is None and screen.result is not None
        shown = screen.query_one("#whole-report", Markdown).source
        status = " ".join(label_of(app, "#whole-status").split())  # as one line, not as wrapped

        # Where the calls came from, their count and time range, as the shell says it.
        assert status.startswith(
            f"Whole history: all {held} calls of the local archive, from {utc(expected['window_from'])} to "
            f"{utc(expected['window_to'])}"
        )
        path = str(archive.path)
        assert expected["source"]["described"].replace(path, f"`{path}`") in shown  # the archive's file, at the end
        assert f"{held} calls examined" in shown
        # Every failure kind: its count, population and rate.
        for kind, rate in expected["rates"].items():
            cells = row_of(shown, kinds.describe(kind).label)
            if kind == kinds.TEMPLATE_MISMATCH:
                assert cells[1] == f"{rate['count']} sent in another template"
            else:
                assert cells[1] == str(rate["count"])
            assert cells[2].startswith(f"{rate['population']} ")
            assert cells[3] == ("no data" if rate["rate"] is None else f"{100 * rate['rate']:.1f}%")
        # The top groups and the suggestions, with their counts.
        for group in expected["failing_groups"][:10]:
            assert f"| {group['failures']} of {group['calls']} | {100 * group['failure_rate']:.1f}% |" in shown
        for suggestion in expected["suggestions"]:
            assert f"{suggestion['failures']} of {suggestion['calls']} calls fail" in shown
        assert "The platform was not asked" in shown

        # Esc goes back to the recent calls, as they were.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DiagnosisScreen), "back on the Diagnosis screen")
        assert app.screen.view is recent.view and recent.view.summary.calls_examined == LIMIT  # type: ignore[attr-defined]


async def test_an_empty_archive_is_said_to_hold_nothing_and_no_number_is_made_up(tmp_path: Path) -> None:
    archive = Archive.create_temporary()
    try:
        expected = offline_report(archive.path, "m-empty")
        assert expected["source"]["calls_held"] == 0 and expected["calls_examined"] == 0
        app = app_on(archive, "m-empty")
        async with app.run_test(size=SIZE) as pilot:
            screen = await whole_history(pilot, app)
            assert screen.result is None
            status = label_of(app, "#whole-status")
            assert "holds no calls of this model" in status and str(archive.path) in status
            assert screen.query_one("#whole-report", Markdown).source == ""
            assert not any(ch.isdigit() for ch in status.replace(str(archive.path), ""))
    finally:
        archive.close()


async def test_no_archive_file_is_said_with_where_it_was_looked_for(tmp_path: Path) -> None:
    ctx = AppContext(
        model_id="m-none",
        base_url="http://127.0.0.1:9",
        archive=None,
        client=None,
        settings=Settings(start_mode="diagnosis", timezone="UTC", diagnosis_limit=LIMIT, archive=False),
    )
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DiagnosisScreen), "the Diagnosis screen")
        await pilot.press("W")
        await until(
            pilot,
            lambda: isinstance(app.screen, DiagnosisWholeScreen) and not app.screen.running,
            "the whole-history attempt",
        )
        status = label_of(app, "#whole-status")
        assert "there is no local archive of model 'm-none'" in status
        assert app.screen.result is None  # type: ignore[attr-defined]


async def test_hostile_prompts_in_the_whole_history_are_inert(tmp_path: Path) -> None:
    dump, model_id = fixed_world_dump(tmp_path, extra=hostile_entries("PLACEHOLDER", FIXED_ANCHOR_MS + 60_000))
    text = dump.read_text(encoding="utf-8").replace('"PLACEHOLDER"', json.dumps(model_id))
    dump.write_text(text, encoding="utf-8")
    archive = load_dump(dump, report=io.StringIO())
    app = app_on(archive, model_id)
    async with app.run_test(size=SIZE) as pilot:
        screen = await whole_history(pilot, app)
        assert screen.result is not None
        for _ in range(12):  # page through the report: every frame inert
            assert_segments_inert(frame_segments(app))
            await pilot.press("pagedown")


async def test_w_again_stops_the_diagnosis_then_runs_it_again_and_leaving_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A diagnosis held at its first range (as a big archive would be) until it is told to stop."""
    import tui.screens.diagnosis.whole as whole_screen

    real = whole_screen.diagnose_model_archive
    told_to_stop = threading.Event()

    def held_at_first_range(path: Path, **kwargs: Any) -> Any:
        kwargs["on_progress"](0, 1_000_000)
        kwargs["on_progress"](40_000, 1_000_000)
        stopped = kwargs["cancelled"]
        for _ in range(600):  # at most 60 s, waiting on the screen's word
            if stopped():
                told_to_stop.set()
                raise DiagnosisCancelled("stopped after 40000 of 1000000 calls")
            told_to_stop.wait(0.1)
        raise AssertionError("never told to stop")

    monkeypatch.setattr(whole_screen, "diagnose_model_archive", held_at_first_range)
    dump, model_id = fixed_world_dump(tmp_path)
    archive = load_dump(dump, report=io.StringIO())
    app = app_on(archive, model_id)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        await pilot.press("W")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, DiagnosisWholeScreen)
                and app.screen.query_one("#whole-progress", ProgressLine).done == 40_000
            ),
            "the first range",
        )
        progress = app.screen.query_one("#whole-progress", ProgressLine)
        assert progress.total == 1_000_000 and progress.display
        await pilot.press("W")  # stop
        await until(pilot, lambda: not app.screen.running, "the diagnosis to stop")  # type: ignore[attr-defined]
        assert told_to_stop.is_set()
        assert "stopped after 40000 of 1000000 calls; press W to run it again" in " ".join(
            label_of(app, "#whole-status").split()
        )
        assert app.screen.result is None and not progress.display  # type: ignore[attr-defined]

        monkeypatch.setattr(whole_screen, "diagnose_model_archive", real)
        await pilot.press("W")  # again: the real diagnosis
        await until(pilot, lambda: app.screen.result is not None, "the diagnosis run again")  # type: ignore[attr-defined]

        told_to_stop.clear()
        monkeypatch.setattr(whole_screen, "diagnose_model_archive", held_at_first_range)
        await pilot.press("W")
        await until(pilot, lambda: app.screen.running and progress.done == 40_000, "the run held")  # type: ignore[attr-defined]
        await pilot.press("escape")  # leaving stops it
        await until(pilot, told_to_stop.is_set, "the worker told to stop when the screen was left")
        assert isinstance(app.screen, DiagnosisScreen)


async def test_the_profile_s_archive_filled_by_export_gives_report_offline_s_numbers(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same file as the shell's: `export` fills the profile's archive from the simulator, then
    `report --offline --json` and W on the screen (on the platform, its archive left alone) read it."""
    write_config_text(f'[templates]\n"{sim.person_model_id}" = "chatml"\n')
    export = ["export", sim.person_model_id, "--base-url", sim.base_url, "-o", str(tmp_path / "d.jsonl")]
    assert await asyncio.to_thread(cli_main, export) == 0  # the shell's own event loop, not the test's
    capsys.readouterr()
    report = ["report", sim.person_model_id, "--offline", "--base-url", sim.base_url, "--json"]
    assert await asyncio.to_thread(cli_main, report) == 0
    expected = json.loads(capsys.readouterr().out)
    held = expected["source"]["calls_held"]
    assert held == expected["calls_examined"] > LIMIT

    client = BlahClient(sim.base_url, api_key=sim.council_key)
    ctx = AppContext(
        model_id=sim.person_model_id,
        client=client,
        base_url=sim.base_url,
        trained_template="chatml",
        settings=Settings(start_mode="diagnosis", archive=False, timezone="UTC", diagnosis_limit=LIMIT),
    )
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        screen = await whole_history(pilot, app)
        assert screen.result is not None
        shown = screen.query_one("#whole-report", Markdown).source
        assert expected["source"]["described"].split(", which holds")[1] in shown  # the same file, count, range
        assert f"{held} calls examined" in shown
        assert f"{expected['failing_calls']} of {expected['model_calls']}) of the model's calls fail" in shown
        for kind, rate in expected["rates"].items():
            cells = row_of(shown, kinds.describe(kind).label)
            assert cells[1].split(" ")[0] == str(rate["count"])
            assert cells[3] == ("no data" if rate["rate"] is None else f"{100 * rate['rate']:.1f}%")

        app.switch_model("m-without-archive")  # the view follows the model: its archive, here none
        await until(
            pilot,
            lambda: "no local archive of model 'm-without-archive'" in " ".join(label_of(app, "#whole-status").split()),
            "the other model's archive looked for",
        )
        assert screen.result is None and screen.query_one("#whole-report", Markdown).source == ""
    await client.aclose()


async def test_a_big_archive_is_diagnosed_by_worker_processes_started_from_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's processes start from the app's worker thread while Textual holds stdout and
    stderr (its stand-ins have no file descriptor), and give the numbers of one process."""
    from application.diagnosis import whole as whole_module

    dump, model_id = fixed_world_dump(tmp_path)
    write_config_text(f'[templates]\n"{model_id}" = "chatml"\n')
    archive = load_dump(dump, report=io.StringIO())
    expected = offline_report(archive.path, model_id)  # one process: below POOL_MIN_CALLS
    monkeypatch.setattr(whole_module, "POOL_MIN_CALLS", 1)  # this small archive through a pool of 2
    monkeypatch.setattr(whole_module, "worker_count", lambda: 2)
    app = app_on(archive, model_id)
    async with app.run_test(size=SIZE) as pilot:
        screen = await whole_history(pilot, app)
        assert screen.problem is None, screen.problem
        assert screen.result is not None and screen.result.whole.workers == 2
        shown = screen.query_one("#whole-report", Markdown).source
        for kind, rate in expected["rates"].items():
            assert row_of(shown, kinds.describe(kind).label)[1].split(" ")[0] == str(rate["count"])
        assert f"{expected['failing_calls']} of {expected['model_calls']})" in shown
