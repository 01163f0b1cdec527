"""Running the app freezes what the imports made, so the collector stops walking it.

The ~50,000 objects the imports leave tracked (classes, functions, module data) live as long
as the process; a full collection walked them all again, one of them while the first screen
was built, and one more at exit. ``BlahApp.run`` (the CLI's way in; tests use ``run_test``)
freezes them first.
"""

from __future__ import annotations

import gc

import pytest
from textual.app import App

from application.context import AppContext
from tui.app import create_app


def test_running_the_app_first_freezes_the_objects_already_made(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen_when_run: list[int] = []
    monkeypatch.setattr(App, "run", lambda self, **kwargs: frozen_when_run.append(gc.get_freeze_count()))
    gc.unfreeze()
    try:
        app = create_app(AppContext(model_id="m1", client=None))
        app.run()
        assert frozen_when_run and frozen_when_run[0] > 10_000
    finally:
        gc.unfreeze()  # the rest of this test process collects as before
