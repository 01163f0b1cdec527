"""What the benchmark-run screen tests share (no tests here): the app on Runs with a Blobfish
benchmark client, a paced fake clock the simulator and the watch both read, an in-process
client over the simulator's store (for snapshots: no port in any link), and the keys a person
presses to start a run."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blobfish.shapes_bench import RunList, SuiteRun, parse_single_or_suite
from application.session.context import AppContext
from simulator.blobfish.benchmarks import BenchmarkStore
from tests.support.bench import FakeClock
from tests.support.settings import settings_with
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.runs.bench.start_dialog import BenchStartScreen
from tui.screens.runs.bench.watch import BenchWatchScreen
from tui.screens.runs.screen import RunsScreen
from widgets.confirm import ConfirmScreen

QUIET = {
    "logs_interval": 5.0,
    "logs_max_interval": 30.0,
    "timezone": "UTC",
    "persist_theme": False,
    "theme": "blah-dark",
}
ORIGIN = "https://blobfish.ai"


class PacedClock(FakeClock):
    """Fake time that jumps by each wait at once, after a short real pause, so a pilot sees
    every poll of a suite that takes simulated minutes in a second or two."""

    def __init__(self, pause_s: float = 0.1, start: float = 1_800_000_000.0) -> None:
        super().__init__(start)
        self.pause_s = pause_s
        self.hold_at: int | None = None
        """Wait number ``hold_at`` (1-based) does not end until ``hold_at`` is set to None: the
        watch stays where it is while a test looks."""

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(self.pause_s)
        while self.hold_at is not None and len(self.sleeps) + 1 >= self.hold_at:
            await asyncio.sleep(0.02)
        await super().sleep(seconds)


def pace_watch(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    """Every ``BenchWatchScreen`` of the test waits and reads time on ``clock``."""
    monkeypatch.setattr(BenchWatchScreen, "sleep", staticmethod(clock.sleep))
    monkeypatch.setattr(BenchWatchScreen, "clock", staticmethod(clock.time))
    monkeypatch.setattr(BenchWatchScreen, "wall_clock", staticmethod(clock.time))


def bench_app(bench: Any, client: Any = None, model_id: str = "tinystories-chat-1m", **settings: Any) -> BlahApp:
    """The app on Runs with ``bench`` as its benchmark client (``client``: blah.dev's, or None)."""
    ctx = AppContext(
        model_id=model_id, client=client, bench=bench, settings=settings_with({**QUIET, **settings}, start_mode="runs")
    )
    return create_app(ctx)


class StoreBench:
    """A benchmark client over a ``BenchmarkStore`` in this process, as the demo account: the
    same records the HTTP routes answer, with links on a fixed origin."""

    def __init__(self, store: BenchmarkStore, owner: str = "snapshot") -> None:
        self.store = store
        self.owner = owner

    def start(self, slug: str, suite: str = "sample", api_key: str | None = None) -> SuiteRun:
        job = self.store.start_suite(self.owner, ORIGIN, slug, "xai", "grok-4", api_key, suite, 24, None)
        return SuiteRun.model_validate(_public(job))

    async def list_runs(self, slug: str) -> RunList:
        return RunList.model_validate(self.store.list_runs(self.owner, slug))

    async def get_run(self, slug: str, run_id: str) -> Any:
        return parse_single_or_suite(self.store.get_run(self.owner, slug, run_id))

    def poll_path(self, slug: str, run_id: str, location: str | None) -> str:
        return f"{slug}/{run_id}"

    async def poll_suite(self, path: str) -> SuiteRun:
        slug, run_id = path.split("/")
        return SuiteRun.model_validate(self.store.get_run(self.owner, slug, run_id))


def _public(job: dict[str, Any]) -> dict[str, Any]:
    from simulator.blobfish.benchmarks import public

    return public(job)


def frame_text(app: BlahApp) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


async def on_runs_with_bench(pilot: Pilot[Any]) -> RunsScreen:
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, RunsScreen) and app.screen.bench.loaded,
        what="the Runs screen with its Blobfish rows",
    )
    assert isinstance(app.screen, RunsScreen)
    return app.screen


async def start_by_keys(
    pilot: Pilot[Any],
    *,
    provider: str = "xai",
    model: str = "grok-4",
    max_tasks: str = "",
    key_env: str = "",
    suite_moves: int = 0,
    confirm: tuple[str, ...] = ("y",),
    max_steps: str = "",
) -> None:
    """On Runs: ``b``, the fields as typed (the form opens on the slug), Enter, then ``confirm``.
    ``suite_moves``: arrow presses on the suite from sample (-1: none, 1: full)."""
    app = pilot.app
    await pilot.press("b")
    await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")
    await pilot.press("tab", *provider, "tab", *model, "tab")
    if suite_moves:
        await pilot.press(*(["up"] if suite_moves < 0 else ["down"]) * abs(suite_moves), "enter")
    await pilot.press("tab", *max_tasks, "tab", *max_steps, "tab", *key_env, "enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
    await pilot.press(*confirm)
