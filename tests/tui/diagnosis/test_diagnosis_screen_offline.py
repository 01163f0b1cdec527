"""The Diagnosis screen on a saved dump (no platform): exporting the training-data suggestions,
the trained template's source said plainly, and hostile calls kept inert on every tab."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from application.session.context import AppContext
from application.session.paths import data_dir
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from tests.support.diagnosis_screen import SIZE, loaded, until
from tests.support.hostile_payloads import assert_segments_inert
from tests.support.logs_world import (
    FIXED_ANCHOR_MS,
    fixed_world_dump,
    frame_segments,
    hostile_entries,
    label_of,
)
from tests.support.notify_log import NotificationLog
from tui.app import BlahApp, create_app
from tui.screens.diagnosis.calls import DiagnosisCallsScreen
from tui.screens.diagnosis.export import ExportPathScreen

LIMIT = 600


def offline_app(
    tmp_path: Path, *, template: str | None = "chatml", extra: list[dict[str, Any]] | None = None
) -> BlahApp:
    dump, model_id = fixed_world_dump(tmp_path, extra=extra)
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        offline_source=dump,
        trained_template=template,
        settings=Settings(start_mode="diagnosis", timezone="UTC", diagnosis_limit=LIMIT),
    )
    return create_app(ctx)


async def test_export_writes_jsonl_with_empty_replies_and_markdown_quoting_prompts(
    tmp_path: Path, notifications: NotificationLog
) -> None:
    app = offline_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        view = screen.view
        assert view is not None and view.inputs.entries_from == "archive"
        assert "from your config" in label_of(app, "#diag-summary")
        suggestions = [s for s in view.report.suggestions if s.action == "add_training_data"]
        assert suggestions, "the seeded calls fail in groups: there is training data to suggest"
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportPathScreen), "the export dialog")
        field = app.screen.query_one("#export-path")
        assert str(field.value).startswith(str(data_dir() / "training"))  # type: ignore[attr-defined]
        target = tmp_path / "out" / "my-data"
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        jsonl, markdown = target.with_name("my-data.jsonl"), target.with_name("my-data.md")
        await until(pilot, lambda: jsonl.exists() and markdown.exists(), "the files")
        await app.workers.wait_for_complete()

        records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
        quoted = [q for s in suggestions for q in s.prompts]
        assert len(records) == len({q.log_id for q in quoted}) > 0
        for record in records:
            turns = record["messages"]
            assert turns[-1] == {"role": "assistant", "content": ""}, "the reply is left for the person"
            entry = view.entries_by_id[record["source_log_id"]]
            users = [t["content"] for t in turns if t["role"] == "user"]
            assert users and users[-1] == next(m.content for m in reversed(entry.messages or []) if m.role == "user")
            assert record["target"]
        text = markdown.read_text(encoding="utf-8")
        for quote in quoted:
            first_line = quote.prompt.splitlines()[0]
            assert first_line in text, f"the markdown quotes the prompt of {quote.log_id}"
            assert quote.log_id in text
        before = (jsonl.read_bytes(), markdown.read_bytes())

        # a second export to the same name never overwrites what the person may have filled in
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ExportPathScreen), "the export dialog")
        app.screen.query_one("#export-path").value = str(jsonl)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert (jsonl.read_bytes(), markdown.read_bytes()) == before
        assert any("already exists" in n for n in notifications.messages(app))


async def test_unknown_template_gives_no_mismatch_verdict(tmp_path: Path) -> None:
    app = offline_app(tmp_path, template=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        assert screen.view is not None and screen.view.template is None
        summary = label_of(app, "#diag-summary")
        assert "Trained template: unknown" in summary and "no mismatch verdict" in summary
        assert "wrong template" not in summary
        mismatch = screen.view.summary.rates["template_mismatch"]
        assert mismatch.count == 0 and mismatch.population == 0
        assert "offline" in label_of(app, "#diag-clusters-status")


async def test_offline_says_once_that_the_platform_is_needed_and_blames_no_endpoint(tmp_path: Path) -> None:
    """`blah-tui open FILE`: the model record and the Lens bundle are both missing for the same
    reason; the summary says it once, and the table says "offline", not "/diagnose failed"."""
    app = offline_app(tmp_path, template=None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        summary = label_of(app, "#diag-summary")
        assert summary.count("offline: this needs the platform") == 1, summary
        table = screen.query_one("#diag-kinds")
        platform_cells = [str(table.get_cell_at((i, 2))) for i in range(table.row_count - 1)]  # type: ignore[attr-defined]
        assert platform_cells and set(platform_cells) == {"no data (offline)"}
        assert str(table.get_cell_at((table.row_count - 1, 1))) == "no data: offline"  # type: ignore[attr-defined]


async def test_hostile_calls_stay_inert_on_every_tab(tmp_path: Path) -> None:
    model_id = "tinystories-chat-1m"
    hostile = hostile_entries(model_id, FIXED_ANCHOR_MS + 10_000)
    app = offline_app(tmp_path, extra=hostile)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot, app)
        assert screen.view is not None
        assert {e["id"] for e in hostile} <= set(screen.view.entries_by_id)
        for _tab in range(4):
            await pilot.pause()
            assert_segments_inert(frame_segments(app))
            await pilot.press("right_square_bracket")
        # the calls the model failed on, hostile ones among them, listed and inert
        failing = screen.view.failing_ids
        assert set(failing) & {e["id"] for e in hostile}
        await pilot.press("home", "right", "enter")  # the error row, our count
        await until(pilot, lambda: isinstance(app.screen, DiagnosisCallsScreen), "the calls list")
        await pilot.pause()
        assert_segments_inert(frame_segments(app))
