"""The person's app collects the oldest garbage generation while they are idle
(application.session.idle_collection): input events count, a timer ticks it, and the
process's collector is given back when the app exits."""

from __future__ import annotations

import gc

import pytest
from textual.app import App

from application.session.context import AppContext
from tui.app import create_app


async def test_the_apps_keys_count_as_input_and_its_exit_gives_the_collector_back() -> None:
    saved = gc.get_threshold()
    app = create_app(AppContext(model_id="m1", client=None))
    app.enable_idle_collection()
    collecting = app._idle_collector
    assert collecting is not None
    async with app.run_test(size=(100, 30)) as pilot:
        assert gc.get_threshold()[2] >= 2**30
        before = collecting._last_input
        await pilot.press("question_mark")
        assert collecting._last_input > before
        timers = [t.name for t in app._timers]
        assert "idle garbage collection" in timers
    assert gc.get_threshold() == saved


def test_running_the_app_the_persons_way_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(App, "run", lambda self, **kwargs: seen.append(gc.get_threshold()[2]))
    monkeypatch.setattr(gc, "freeze", lambda: None)  # (test_startup_gc covers the freeze)
    app = create_app(AppContext(model_id="m1", client=None))
    try:
        app.run()
    finally:
        if app._idle_collector is not None:
            app._idle_collector.uninstall()
    assert seen and seen[0] >= 2**30
