"""A screen's worker that comes back from an await after its screen went away (the app quit,
or the screen was closed) stops quietly: it never crashes the app or prints a traceback."""

from __future__ import annotations

import asyncio

from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from application.session.context import AppContext
from application.session.settings.typed import Settings
from tui.app import BlahApp, create_app
from tui.base_screen import BlahScreen


class _Gate(Static):
    """Opens the gate when it is taken off the screen: the worker resumes mid-teardown."""

    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__("waiting", id="gate")
        self.gate = gate

    def on_unmount(self) -> None:
        self.gate.set()


class _SlowScreen(BlahScreen):
    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__()
        self.gate = gate
        self.resumed = False

    def compose(self) -> ComposeResult:
        yield _Gate(self.gate)

    def on_mount(self) -> None:
        self._load()

    @work(exclusive=True, group="slow-load")
    async def _load(self) -> None:
        await self.gate.wait()  # a fetch that answers only as the screen is being taken down
        self.resumed = True
        self.query_one("#gate", Static).update("loaded")


def _app() -> BlahApp:
    return create_app(
        AppContext(
            model_id="m", client=None, base_url="http://127.0.0.1:9", settings=Settings(timezone="UTC", archive=False)
        )
    )


async def test_quitting_while_a_screen_loads_ends_cleanly() -> None:
    app = _app()
    gate = asyncio.Event()
    screen = _SlowScreen(gate)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        await pilot.pause()
        assert not gate.is_set()
    # run_test re-raises what crashed the app: nothing did.
    assert app.return_code in (0, None)
    assert app._exception is None


async def test_a_live_screen_missing_a_widget_is_still_a_bug() -> None:
    app = _app()
    gate = asyncio.Event()
    screen = _SlowScreen(gate)
    failed = False
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(screen)
            await pilot.pause()
            await screen.query_one("#gate").remove()  # the screen is alive; its worker's widget is gone
            await pilot.pause()
            await asyncio.sleep(0.1)
    except Exception as error:
        failed = "NoMatches" in repr(error)
    assert failed, "a worker that lost its widget on a live screen must fail loudly"
