"""Running the app freezes what the imports made, so the collector stops walking it.

The ~50,000 objects the imports leave tracked (classes, functions, module data) live as long
as the process; a full collection walked them all again, one of them while the first screen
was built, and one more at exit. ``BlahApp.run`` (the CLI's way in; tests use ``run_test``)
freezes them first.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from textual.app import App

from application.session.context import AppContext
from tui.app import create_app


@pytest.fixture
def frozen_as_before() -> Iterator[None]:
    """These tests run ``BlahApp.run``, which freezes; the worker's own frozen objects (its
    collection-time freeze, ``tests/support/gc_tuning``) are frozen again afterwards instead of
    left thawed for every later full collection to walk."""
    was_frozen = gc.get_freeze_count() > 0
    yield
    if was_frozen:
        gc.collect()  # (as the worker did before its freeze: no garbage frozen for good)
        gc.freeze()
    else:
        gc.unfreeze()


@pytest.mark.usefixtures("frozen_as_before")
def test_running_the_app_first_freezes_the_objects_already_made(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen_when_run: list[int] = []
    monkeypatch.setattr(App, "run", lambda self, **kwargs: frozen_when_run.append(gc.get_freeze_count()))
    gc.unfreeze()
    app = create_app(AppContext(model_id="m1", client=None))
    app.run()
    assert frozen_when_run and frozen_when_run[0] > 10_000


@pytest.mark.usefixtures("frozen_as_before")
def test_the_cli_keeps_the_collector_off_while_the_app_starts_and_on_once_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app's start makes long-lived objects and next to no garbage: the CLI turns the
    collector off for it; the running app (and whatever follows) collects as usual."""
    import cli.app.launch
    from cli.main import main

    seen: dict[str, bool] = {}

    def run_offline(path: str, model_id: str | None = None) -> int:
        seen["while starting"] = gc.isenabled()
        create_app(AppContext(model_id="m1", client=None)).run()
        return 0

    monkeypatch.setattr(cli.app.launch, "run_offline", run_offline)
    monkeypatch.setattr(App, "run", lambda self, **kwargs: seen.setdefault("while running", gc.isenabled()))
    try:
        assert main(["open", "calls.jsonl"]) == 0
        assert seen == {"while starting": False, "while running": True}
        assert gc.isenabled()

        def fails(path: str, model_id: str | None = None) -> int:
            raise OSError("no such file")

        monkeypatch.setattr(cli.app.launch, "run_offline", fails)
        with pytest.raises(OSError):
            main(["open", "calls.jsonl"])
        assert gc.isenabled()  # a start that fails leaves the collector on
    finally:
        gc.enable()
