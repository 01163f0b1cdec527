"""The Inspector on hostile calls (offline, from a dump): every frame stays inert, nothing is
clickable, the 1 MB single line does not freeze it, and the pager gets the sanitized text."""

from __future__ import annotations

import io
import json
from pathlib import Path

from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from tests.support.hostile_payloads import assert_segments_inert
from tests.support.logs_world import (
    FIXED_ANCHOR_MS,
    SIZE,
    frame_segments,
    hostile_entries,
    wait_for,
)
from tui.app import create_app
from tui.screens.inspector.screen import InspectorScreen
from widgets.text_viewer import TextViewer

#: The payloads most likely to do harm if they reached the terminal or the markup parser.
WORST = (
    "osc52-bel",
    "osc8-link",
    "csi-clear",
    "c1-csi-clear",
    "bare-cr",
    "markup-click",
    "markup-close",
    "markup-link",
    "markup-textual-var",
    "bidi-override",
    "nul-bytes",
    "one-mb-line",
)


async def test_hostile_calls_stay_inert_in_the_inspector(tmp_path: Path) -> None:
    model_id = "tinystories-chat-1m"
    hostile = hostile_entries(model_id, FIXED_ANCHOR_MS, short=False)
    dump = tmp_path / "hostile.jsonl"
    dump.write_text("".join(json.dumps(entry) + "\n" for entry in hostile), encoding="utf-8")
    archive = load_dump(dump, report=io.StringIO())
    wanted = [e["id"] for e in hostile if any(e["id"].endswith(name) for name in WORST)]
    assert len(wanted) == len(WORST)
    ctx = AppContext(model_id=model_id, archive=archive, offline_source=dump, settings=Settings(timezone="UTC"))
    app = create_app(ctx)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(InspectorScreen(wanted[0], neighbours=wanted))
        for log_id in wanted:
            await wait_for(
                pilot,
                lambda log_id=log_id: (
                    isinstance(app.screen, InspectorScreen)  # type: ignore[misc]
                    and app.screen.entry is not None
                    and app.screen.entry.id == log_id
                    and app.screen.analysis is not None
                ),
                what=log_id,
            )
            screen = app.screen
            assert isinstance(screen, InspectorScreen)
            assert_segments_inert(frame_segments(app))
            await pilot.press("w")  # whitespace shown: still inert
            await pilot.pause()
            assert_segments_inert(frame_segments(app))
            await pilot.press("w")
            for viewer in screen.query(TextViewer):  # the raw text is kept, only its display is safe
                assert viewer.text in (screen.entry.prompt, screen.entry.response, screen.entry.error)  # type: ignore[union-attr]
            await pilot.press("n")
        assert isinstance(app.screen, InspectorScreen)  # no payload dismissed the screen or quit
