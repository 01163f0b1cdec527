"""Every write asks first, and one confirmation sends one request, end to end.

For each write the app can make (start a run, cancel, resume, failure clusters, mute, post to
the chatroom, start a game), driven by its keys: a confirmation dialog comes up and NOTHING
has been sent yet (the simulator's request log says so); answering "no" sends nothing; the
confirm key pressed twice in a row sends exactly ONE request. And a write whose answer never
comes in time is reported as "outcome unknown", checked with a GET, and not sent again.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import httpx
import pytest

from api_client.client import BlahClient
from simulator import runs as sim_runs
from simulator.server import SimulatorServer
from tests.test_hostile_e2e_support import SIZE, press_now, settle, wait_until
from tui.app import BlahApp, create_app
from tui.context import AppContext
from tui.screens.confirm import ConfirmScreen


@pytest.fixture(scope="module")
def write_sim() -> Iterator[SimulatorServer]:
    # speed 1: runs started here stay cancellable for the length of the test
    with SimulatorServer(seed=31, speed=1.0, live=False) as server:
        yield server


def app_on(server: SimulatorServer, client: BlahClient) -> BlahApp:
    ctx = AppContext(model_id=server.person_model_id, client=client, base_url=server.base_url,
                     settings={"timezone": "UTC", "persist_theme": False, "bell_on_run_end": False,
                               "run_confirm_delay_s": 0.3})
    return create_app(ctx)


async def go(app: BlahApp, key: str, mode: str) -> None:
    from textual.widgets import Input

    if isinstance(app.focused, Input):  # a text box takes digits as text: leave it first
        press_now(app, "escape")
        await wait_until(lambda: not isinstance(app.focused, Input), 5)
    press_now(app, key)
    assert await wait_until(lambda: app.current_mode == mode, 20), f"{key} did not open {mode}"
    await settle(app, 8)


async def confirm_dialog(app: BlahApp) -> ConfirmScreen:
    assert await wait_until(lambda: isinstance(app.screen, ConfirmScreen), 15), \
        f"no confirmation came up (on {type(app.screen).__name__}): {[n.message for n in app._notifications]}"
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)
    return screen


Opener = Callable[[BlahApp, SimulatorServer], Awaitable[None]]


async def open_start_run(app: BlahApp, server: SimulatorServer) -> None:
    from tui.screens.runs_pick import ModelPickerScreen

    await go(app, "3", "runs")
    press_now(app, "s")
    assert await wait_until(lambda: isinstance(app.screen, ModelPickerScreen), 15)
    press_now(app, "y")


async def _on_run(app: BlahApp, run_id: str, key: str) -> None:
    from tui.screens.runs import RunsScreen

    await go(app, "3", "runs")
    for _ in range(3):  # a run watched since it was started sits on top of the list: back to it
        if isinstance(app.screen, RunsScreen):
            break
        depth = len(app.screen_stack)
        press_now(app, "escape")
        await wait_until(lambda depth=depth: len(app.screen_stack) < depth, 10)
    press_now(app, "r")
    assert await wait_until(lambda: isinstance(app.screen, RunsScreen) and any(r.id == run_id for r in app.screen.runs), 15)
    screen = app.screen
    assert isinstance(screen, RunsScreen)
    screen.table.focus()
    screen.table.move_to_key(run_id)
    assert await wait_until(lambda: screen.table.current_key == run_id, 5)
    press_now(app, key)


async def open_cancel(app: BlahApp, server: SimulatorServer) -> None:
    run = sim_runs.create_run(server.world, [server.person_model_id])  # queued: cancellable
    await _on_run(app, run["id"], "c")


async def open_resume(app: BlahApp, server: SimulatorServer) -> None:
    stalled = next(r for r in server.world.runs.values() if r["status"] == "stalled")
    await _on_run(app, stalled["id"], "R")


async def open_clusters(app: BlahApp, server: SimulatorServer) -> None:
    await go(app, "2", "diagnosis")
    press_now(app, "c")


async def open_mute(app: BlahApp, server: SimulatorServer) -> None:
    from textual.widgets import DataTable

    await go(app, "6", "models")
    table = app.screen.query_one("#models-table", DataTable)
    assert await wait_until(lambda: table.row_count > 0, 15), "the models never loaded"
    table.focus()
    assert await wait_until(lambda: app.focused is table, 5)
    press_now(app, "m")


async def open_post(app: BlahApp, server: SimulatorServer) -> None:
    from textual.widgets import Input

    await go(app, "5", "chatroom")
    press_now(app, "i")
    assert await wait_until(lambda: isinstance(app.focused, Input), 10), "the compose box never took focus"
    for ch in "hello room":
        press_now(app, ch if ch != " " else "space")
    await asyncio.sleep(0.2)
    press_now(app, "enter")


async def open_game(app: BlahApp, server: SimulatorServer) -> None:
    from tui.screens.games import GameTypeScreen

    await go(app, "0", "games")
    press_now(app, "n")
    assert await wait_until(lambda: isinstance(app.screen, GameTypeScreen), 15)
    press_now(app, "enter")


WRITES: list[tuple[str, str, str, Opener]] = [
    ("start a run", "POST", "/api/v1/runs", open_start_run),
    ("cancel a run", "POST", "/cancel", open_cancel),
    ("resume a run", "POST", "/resume", open_resume),
    ("failure clusters", "POST", "/failure-clusters", open_clusters),
    ("mute a model", "POST", "/chatroom", open_mute),
    ("post to the chatroom", "POST", "/api/v1/chatroom", open_post),
    ("start a game", "POST", "/api/v1/games", open_game),
]


def posts(server: SimulatorServer, suffix: str) -> int:
    return server.requests.count("POST", suffix)


async def test_every_write_asks_first_and_one_confirmation_sends_one_request(write_sim: SimulatorServer) -> None:
    results: list[str] = []
    async with BlahClient(write_sim.base_url, api_key=write_sim.council_key) as client:
        app = app_on(write_sim, client)
        async with app.run_test(size=SIZE):
            await settle(app)
            for name, _method, suffix, opener in WRITES:
                before = posts(write_sim, suffix)
                await opener(app, write_sim)
                dialog = await confirm_dialog(app)
                await asyncio.sleep(0.3)
                assert posts(write_sim, suffix) == before, f"{name}: sent before it was confirmed"
                press_now(app, "y")
                press_now(app, "y")  # a double press, as fast as a key repeat
                assert await wait_until(lambda s=suffix, b=before: posts(write_sim, s) > b, 20), f"{name}: never sent"
                await asyncio.sleep(1.0)  # room for a second request, if there were to be one
                sent = posts(write_sim, suffix) - before
                assert sent == 1, f"{name}: {sent} requests for one confirmation"
                assert dialog.answered
                results.append(f"{name}: 1")
                await wait_until(lambda: not isinstance(app.screen, ConfirmScreen), 10)
            assert app.is_running
    print(f"\nwrites: {len(results)} kinds, each asked first and sent once on a double confirm ({results})")


async def test_saying_no_sends_nothing(write_sim: SimulatorServer) -> None:
    async with BlahClient(write_sim.base_url, api_key=write_sim.council_key) as client:
        app = app_on(write_sim, client)
        async with app.run_test(size=SIZE):
            await settle(app)
            for name, _method, suffix, opener in (WRITES[0], WRITES[4]):
                before = posts(write_sim, suffix)
                await opener(app, write_sim)
                await confirm_dialog(app)
                press_now(app, "n")
                press_now(app, "y")  # too late: the dialog already answered "no"
                await wait_until(lambda: not isinstance(app.screen, ConfirmScreen), 10)
                await asyncio.sleep(1.0)
                assert posts(write_sim, suffix) == before, f"{name}: sent although the answer was no"


# --------------------------------------------------------------------------- outcome unknown


class SlowAnswers(httpx.AsyncBaseTransport):
    """Real HTTP, but the answer to POST /runs is held back ``delay`` seconds after the
    platform has acted on it (the write happened; the client cannot know)."""

    def __init__(self, delay: float) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.delay = delay

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/api/v1/runs"):
            await response.aread()
            await asyncio.sleep(self.delay)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@pytest.fixture
async def slow_client(write_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(write_sim.base_url, api_key=write_sim.council_key, transport=SlowAnswers(4.0),
                          deadline=1.5) as client:
        yield client


async def test_a_timed_out_write_is_outcome_unknown_checked_by_get_and_never_resent(
    write_sim: SimulatorServer, slow_client: BlahClient
) -> None:
    app = app_on(write_sim, slow_client)
    async with app.run_test(size=SIZE):
        await settle(app)
        before_posts = posts(write_sim, "/api/v1/runs")
        runs_before = set(write_sim.world.runs)
        await open_start_run(app, write_sim)
        await confirm_dialog(app)
        mark = len(write_sim.requests.records())
        press_now(app, "y")
        said = await wait_until(lambda: any("timed out" in n.message for n in app._notifications), 30)
        assert said, [n.message for n in app._notifications]
        message = next(n.message for n in app._notifications if "timed out" in n.message)
        await asyncio.sleep(1.0)
    new_runs = set(write_sim.world.runs) - runs_before
    assert len(new_runs) == 1  # the platform did act on it, once
    assert posts(write_sim, "/api/v1/runs") - before_posts == 1  # and it was not sent again
    after = write_sim.requests.records()[mark:]
    assert any(r.method == "GET" and r.path == "/api/v1/runs" for r in after), "not checked with a GET"
    assert "it did start" in message and next(iter(new_runs)) in message
