"""Opening the app on a model's archive: its first frame already shows the calls.

The list of the whole archive needs no scan (its count is the archive's bounds), so it is
built as the screen opens; before, it was built in a thread, and the first frame said
"loading the latest calls…" while the rows came a frame later. A filtered list can mean a
scan of the archive: that one is still built in a thread.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from api_client.archive import Archive, LogFilter
from api_client.models import LogEntry
from application.context import AppContext
from application.logs.feed import LogsFeed
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.logs.screen import LogsScreen

CALLS = 300


def _archive(tmp_path: Path) -> Archive:
    archive = Archive(tmp_path / "calls.sqlite3")
    archive.add([LogEntry(id=f"log_{i:04d}", created_at=1_700_000_000_000 + i * 1000, source="eval",
                          prompt=f"question {i}", response=f"answer {i}", latency_ms=100 + i)
                 for i in range(CALLS)])  # fmt: skip
    return archive


def _offline(archive: Archive, tmp_path: Path) -> AppContext:
    return AppContext(model_id="m1", client=None, platform="offline: calls.sqlite3", archive=archive,
                      offline_source=tmp_path / "calls.sqlite3")  # fmt: skip


class FirstFrame(BlahApp):
    """Notes what the Logs screen showed in the first frame the app sent to the terminal
    (``App._display``, Textual's hand-over of a frame to its driver)."""

    first_frame: tuple[int, bool] | None = None  # (rows in the list, the loading message shown)

    def _display(self, screen: Any, renderable: Any) -> None:
        if self.first_frame is None and renderable is not None and isinstance(screen, LogsScreen):
            message = screen.query_one("#logs-message")
            self.first_frame = (screen.log_list.row_count, not message.has_class("hidden"))
        super()._display(screen, renderable)


async def test_the_first_frame_on_an_archive_shows_its_calls(tmp_path: Path) -> None:
    archive = _archive(tmp_path)
    app = FirstFrame(_offline(archive, tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.first_frame is not None, what="the first frame")
        assert app.first_frame == (CALLS, False)  # not "loading the latest calls…" with an empty list
    archive.close()


def _no_threads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []

    async def to_thread(func: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(func)
        return func(*args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", to_thread)
    return calls


async def test_only_the_unfiltered_list_is_built_without_a_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _archive(tmp_path)
    threads = _no_threads(monkeypatch)
    feed = LogsFeed(_offline(archive, tmp_path))
    await feed.open()
    assert len(feed.rows) == CALLS and threads == []
    filtered = LogsFeed(_offline(archive, tmp_path))
    filtered.rows.filter = LogFilter(text="question 7")
    await filtered.open()
    assert threads and 0 < len(filtered.rows) < CALLS  # a search may scan: in a thread, as before
    archive.close()
