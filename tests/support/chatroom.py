"""Helpers shared by the chatroom, models, playground and games tests (no tests here).

- ``frozen_sim``: a simulator whose world is anchored at a fixed instant, so absolute times
  shown on screen are the same on every run (snapshot tests).
- ``make_app``: the app on a simulator with the given settings.
- ``wait_for``: let the app run until a condition holds (bounded; never a timed assertion).
- ``screen_text`` / ``frame_segments``: what the current screen paints.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from rich.segment import Segment
from textual.app import App
from textual.widgets import Input

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.settings import Settings, settings_with
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.chatroom.screen import ChatroomScreen
from widgets.confirm import ConfirmScreen

#: 2026-06-01 09:00:00 UTC: the instant the frozen worlds are built around.
FROZEN_MS = 1_780_304_400_000
SIZE = (140, 45)


@contextmanager
def frozen_clock(ms: int) -> Iterator[None]:
    """While building a World, make "now" a fixed instant (the seeded history hangs off it)."""
    import simulator.blahdev.world as world_module

    real = world_module.now_ms
    world_module.now_ms = lambda: ms
    try:
        yield
    finally:
        world_module.now_ms = real


def start_frozen_sim(seed: int = 7, speed: float = 50.0) -> SimulatorServer:
    import simulator.blahdev.world as world_module

    with frozen_clock(FROZEN_MS):
        server = SimulatorServer(seed=seed, speed=speed, live=False)
    server.world.clock = world_module.now_ms  # later writes get real times; reads stay fixed
    return server.start()


def make_app(server: SimulatorServer, client: BlahClient, **settings: Any) -> BlahApp:
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=settings_with(
            Settings(chatroom_poll_interval=0.2, poll_interval=60.0, start_mode="chatroom"), **settings
        ),
    )
    return create_app(ctx)


def frame_segments(app: App[Any]) -> Iterator[Segment]:
    for strip in app.screen._compositor.render_strips():
        yield from strip


def screen_text(app: App[Any]) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


class RecordingTransport(httpx.AsyncBaseTransport):
    """Passes every request to the network and remembers (method, path) of each."""

    def __init__(self) -> None:
        self._inner = sim_http.AsyncHTTPTransport()
        self.requests: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()

    def count(self, method: str, path_suffix: str) -> int:
        return sum(1 for m, p in self.requests if m == method and p.endswith(path_suffix))


def close_client(client: BlahClient) -> None:
    """Close a client made outside an event loop (snapshot tests)."""
    try:
        asyncio.run(client.aclose())
    except RuntimeError:
        pass  # its loop is gone with the app's; nothing left to close


def snapshot_app(server: SimulatorServer, **settings: Any) -> tuple[BlahApp, BlahClient]:
    """The app for a snapshot test: a client made outside any loop (close it afterwards)."""
    client = BlahClient(server.base_url, api_key=server.council_key)
    return make_app(server, client, chatroom_poll_interval=600.0, **settings), client


# --------------------------------------------------------------------------- the chatroom


def chat_screen(app: object) -> ChatroomScreen:
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, ChatroomScreen), type(screen)
    return screen


async def open_chatroom(pilot: object, app: object) -> ChatroomScreen:
    await pilot.press("5")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ChatroomScreen), what="chatroom screen")  # type: ignore[arg-type, attr-defined]
    screen = chat_screen(app)
    await wait_for(pilot, lambda: len(screen.feed) > 0 and bool(screen.models), what="room and models loaded")  # type: ignore[arg-type]
    return screen


async def post_in_room(pilot: object, screen: ChatroomScreen, text: str) -> None:
    await pilot.press("i", "o", "k")  # type: ignore[attr-defined]  # "i" focuses the box, then typing goes there
    box = screen.query_one("#compose-input", Input)
    assert box.value == "ok"
    box.value = text  # the rest at once: a key press per character is slow under the pilot
    await pilot.press("enter")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(screen.app.screen, ConfirmScreen), what="post confirmation")  # type: ignore[arg-type]
    await pilot.press("y")  # type: ignore[attr-defined]
