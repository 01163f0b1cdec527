"""Hostile text end to end: the HOSTILE corpus delivered BY THE SIMULATOR (see
``inject_hostile``: log prompts/replies/errors, chat messages and names, model names,
descriptions and templates, eval names, game turns and judge reasoning, results' judge
reasoning, run errors, health errors) into every screen of the app.

For every top-level area (``MODE_SPECS``, reached by its number key), and for the screen
Enter opens from it, the rendered frame is checked segment by segment: no ``@click`` meta, no
link, no raw escape/control character (``assert_segments_inert``). Throughout, the app must
keep running and no injected action may fire (``app.quit`` is watched). Then the detail
screens that show the longest untrusted texts (Inspector on every hostile call, a result's
judge reasoning) and a notification carrying a hostile run error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from api_client.client import BlahClient
from simulator.server import SimulatorServer
from tests.hostile_payloads import HOSTILE, assert_inert, assert_segments_inert
from tests.test_hostile_e2e_support import (
    SIZE,
    Injected,
    frame_segments,
    frame_text,
    inject_hostile,
    press_now,
    settle,
    visit_every_mode,
    wait_until,
)
from tui.app import BlahApp, create_app
from tui.context import AppContext


@pytest.fixture(scope="module")
def hostile_sim() -> Iterator[tuple[SimulatorServer, Injected]]:
    server = SimulatorServer(seed=19, speed=20.0, live=False)
    injected = inject_hostile(server.world)
    server.start()
    try:
        yield server, injected
    finally:
        server.stop()


class Watch:
    """Counts injected actions that must never fire."""

    def __init__(self, app: BlahApp) -> None:
        self.fired: list[str] = []
        app.action_quit = self._quit  # type: ignore[method-assign]
        app.action_bell = lambda: self.fired.append("bell")  # type: ignore[method-assign]

    async def _quit(self) -> None:
        self.fired.append("quit")


def hostile_app(server: SimulatorServer, client: BlahClient, **settings: Any) -> BlahApp:
    ctx = AppContext(model_id=server.person_model_id, client=client, base_url=server.base_url,
                     settings={"timezone": "UTC", "persist_theme": False, "bell_on_run_end": False,
                               "chatroom_poll_interval": 0.5, **settings})
    return create_app(ctx)


def check_frame(app: BlahApp, where: str) -> None:
    try:
        assert_segments_inert(frame_segments(app))
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from None


async def back_to(app: BlahApp, depth: int) -> None:
    for _ in range(4):
        if len(app.screen_stack) <= depth:
            return
        press_now(app, "escape")
        await wait_until(lambda: len(app.screen_stack) <= depth, 3)


async def test_every_screen_shows_hostile_platform_text_inertly(hostile_sim: tuple[SimulatorServer, Injected]) -> None:
    server, injected = hostile_sim
    frames = 0
    async with BlahClient(server.base_url, api_key=server.council_key) as client:
        app = hostile_app(server, client)
        watch = Watch(app)
        async with app.run_test(size=SIZE):

            async def visit(name: str) -> None:
                nonlocal frames
                check_frame(app, name)
                frames += 1
                depth = len(app.screen_stack)
                for key in ("j", "j", "enter"):  # onto a hostile row, then open it
                    press_now(app, key)
                await asyncio.sleep(0.3)
                await settle(app, 6)
                check_frame(app, f"{name} -> {type(app.screen).__name__}")
                frames += 1
                await back_to(app, depth)
                assert app.is_running, f"the app stopped in {name}"

            visited = await visit_every_mode(app, visit)
            assert app._exception is None  # noqa: SLF001
            assert app.is_running and not watch.fired
    print(f"\nhostile e2e: {len(HOSTILE)} payloads in {injected.placements} places; {len(visited)} areas, "
          f"{frames} frames checked, 0 crashes, {len(watch.fired)} actions fired")
    assert len(visited) >= 10


async def test_inspector_and_judge_reasoning_from_the_platform(hostile_sim: tuple[SimulatorServer, Injected]) -> None:
    """The longest untrusted texts, fetched over HTTP: every hostile call in the Inspector
    (prompt, reply, error, turns; the 1 MB line too) and the judge's reasoning of results."""
    server, injected = hostile_sim
    from tui.screens.inspector import InspectorScreen
    from tui.screens.results_detail import ResultDetailScreen

    async with BlahClient(server.base_url, api_key=server.council_key) as client:
        app = hostile_app(server, client)
        watch = Watch(app)
        async with app.run_test(size=SIZE):
            await wait_until(lambda: app.current_mode == "logs", 20)
            for log_id in injected.log_ids:
                app.open_log(log_id)
                shown = await wait_until(lambda log_id=log_id: isinstance(app.screen, InspectorScreen)
                                         and getattr(app.screen, "entry", None) is not None
                                         and app.screen.entry.id == log_id, 20)  # fmt: skip
                assert shown, f"the inspector never showed {log_id}"
                await asyncio.sleep(0.05)
                check_frame(app, f"inspector {server.world.truth[log_id]}")
                await back_to(app, 1)
            for result_id in injected.result_ids[:12]:
                app.push_screen(ResultDetailScreen(result_id))
                await wait_until(lambda: isinstance(app.screen, ResultDetailScreen), 10)
                await settle(app, 6)
                check_frame(app, f"result {result_id}")
                await back_to(app, 1)
            assert app.is_running and not watch.fired and app._exception is None  # noqa: SLF001


async def test_a_hostile_run_error_in_a_notification(hostile_sim: tuple[SimulatorServer, Injected]) -> None:
    """A run the Runs screen watches fails with a hostile error: the announcement (a toast)
    and the table show it inertly; the toast's text has no raw control character."""
    server, _ = hostile_sim
    payload = "[@click=app.quit]boom[/] \x1b]52;c;SGVsbG8=\x07 \x1b[2J failed\u202e"
    async with BlahClient(server.base_url, api_key=server.council_key) as client:
        app = hostile_app(server, client)
        watch = Watch(app)
        async with app.run_test(size=SIZE):
            press_now(app, "3")
            await wait_until(lambda: app.current_mode == "runs", 20)
            await settle(app)
            started = await client.start_run([server.person_model_id])
            assert started.run is not None
            run_id = started.run.id
            press_now(app, "r")  # the screen sees it running ...
            await wait_until(lambda: any(r.id == run_id for r in getattr(app.screen, "runs", [])), 10)
            server.world.fail_run(run_id, payload)  # ... then failing with a hostile error
            announced = await wait_until(lambda: any("boom" in n.message for n in app._notifications), 20)  # noqa: SLF001
            assert announced, "the failed run was never announced"
            for note in app._notifications:  # noqa: SLF001
                assert_inert(note.message)
                assert_inert(note.title or "")
            await asyncio.sleep(0.2)
            check_frame(app, "runs with a failed-run toast")
            assert "boom" in frame_text(app)
            assert app.is_running and not watch.fired
