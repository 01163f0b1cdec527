"""Hostile text end to end: the HOSTILE corpus delivered BY THE SIMULATOR (see
``inject_hostile``: log prompts/replies/errors, chat messages and names, model names,
descriptions and templates, eval names, game turns and judge reasoning, results' judge
reasoning, run errors, health errors) into every screen of the app.

For every top-level area (``MODE_SPECS``, reached by its number key), and for the screen
Enter opens from it, the rendered frame is checked segment by segment: no ``@click`` meta, no
link, no raw escape/control character (``assert_segments_inert``). Throughout, the app must
keep running and no injected action may fire (``app.quit`` is watched). The detail screens
with the longest untrusted texts are in test_hostile_e2e_details.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.hostile_e2e import (
    KEYS_NOT_ANSWERED,
    SIZE,
    Injected,
    Watch,
    back_to,
    check_frame,
    hostile_app,
    inject_hostile,
    press_now,
    settle,
    visit_every_mode,
)
from tests.support.hostile_payloads import HOSTILE


@pytest.fixture(scope="module")
def hostile_sim() -> Iterator[tuple[SimulatorServer, Injected]]:
    server = SimulatorServer(seed=19, speed=20.0, live=False)
    # Without the 1 MB line: it is opened in the Inspector in test_hostile_e2e_details.py;
    # here it would only make the chatroom (which renders a message whole) ~10 s slower.
    injected = inject_hostile(server.world, big=False)
    server.start()
    try:
        yield server, injected
    finally:
        server.stop()


@pytest.mark.slow  # ~15 s: every screen, one after another
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
            assert app._exception is None
            assert app.is_running and not watch.fired
    print(
        f"\nhostile e2e: {len(HOSTILE) - 1} payloads in {injected.placements} places; {len(visited)} areas, "
        f"{frames} frames checked, 0 crashes, {len(watch.fired)} actions fired; "
        f"number keys not answered: {KEYS_NOT_ANSWERED or 'none'}"
    )
    assert len(visited) >= 10
