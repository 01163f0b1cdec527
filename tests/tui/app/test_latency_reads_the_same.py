"""A call's latency reads the same wherever it is shown (issue 16): the Logs list said ``812ms``
while the Inspector, the results and the health screen said ``812 ms``. Walked as a person does:
the list, Enter on a call, the Inspector's details; then up to an older call and again."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from application.session.context import AppContext
from application.session.settings.typed import Settings
from cli.app.open_file import load_dump
from tests.support.logs_world import FIXED_ANCHOR_MS, fixed_world_dump, label_of, logs_screen, wait_for
from tui.app import BlahApp, create_app
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.logs.screen import LogsScreen
from widgets.log_list import LogList

_LATENCY = re.compile(r"^latency\s+(\S.*?)\s*$", re.MULTILINE)


def _call(model_id: str, call_id: str, created_at: int, latency_ms: int) -> dict[str, Any]:
    return {
        "id": call_id,
        "model_id": model_id,
        "source": "chat",
        "created_at": created_at,
        "prompt": "<|im_start|>user\nHi!<|im_end|>\n<|im_start|>assistant\n",
        "response": "Hello.",
        "error": None,
        "latency_ms": latency_ms,
        "max_tokens": 64,
        "prompt_tokens": 9,
        "completion_tokens": 3,
        "finish_reason": "stop",
    }


def _app(tmp_path: Path) -> BlahApp:
    """The seeded World's calls plus two newer ones, slow (12.3 s) then newest (1,234 ms)."""
    _, model_id = fixed_world_dump(tmp_path)
    dump, _ = fixed_world_dump(
        tmp_path,
        extra=[
            _call(model_id, "slow_call", FIXED_ANCHOR_MS + 1_000, 12_345),
            _call(model_id, "newest_call", FIXED_ANCHOR_MS + 2_000, 1_234),
        ],
    )
    archive = load_dump(dump, report=io.StringIO())
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        offline_source=dump,
        platform="offline: calls.jsonl",
        settings=Settings(timezone="UTC"),
    )
    return create_app(ctx)


def _cursor_line(log_list: LogList) -> str:
    """The cursor's row as drawn (the header is the first line)."""
    y = 1 + log_list.cursor_index - int(log_list.scroll_y)
    return "".join(segment.text for segment in log_list.render_line(y))


async def _inspector_latency(pilot: Pilot[Any], app: BlahApp, call_id: str) -> str:
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, InspectorScreen) and app.screen.entry is not None and app.screen.entry.id == call_id
        ),
        what=f"the inspector on {call_id}",
    )
    found = _LATENCY.search(label_of(app, "#insp-details"))
    assert found, label_of(app, "#insp-details")
    return found.group(1)


async def test_the_list_and_the_inspector_write_a_calls_latency_alike(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LogsScreen) and logs_screen(app).log_list.row_count > 0,
            what="the rows",
        )
        log_list = logs_screen(app).log_list
        await pilot.pause()
        assert log_list.current_entry_id == "newest_call"
        in_list = _cursor_line(log_list)
        assert await _inspector_latency(pilot, app, "newest_call") == "1234 ms"
        assert " 1234 ms " in in_list, in_list

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="the list again")
        await pilot.press("up")  # the slow call, just before
        await wait_for(pilot, lambda: log_list.current_entry_id == "slow_call", what="the cursor on the slow call")
        await pilot.pause()
        in_list = _cursor_line(log_list)
        assert await _inspector_latency(pilot, app, "slow_call") == "12.3 s"
        assert " 12.3 s " in in_list, in_list
