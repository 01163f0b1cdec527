"""Every write asks first, and one confirmation sends one request, end to end.

For each write the app can make (start a run, cancel, resume, failure clusters, mute, post to
the chatroom, start a game), driven by its keys: a confirmation dialog comes up and NOTHING
has been sent yet (the simulator's request log says so); answering "no" sends nothing; the
confirm key pressed twice in a row sends exactly ONE request. And a write whose answer never
comes in time is reported as "outcome unknown", checked with a GET, and not sent again.

No test waits a fixed time to prove that nothing happened: "nothing sent yet" is read once no
write is in flight between the app and the platform (``InFlight``), and "sent once" once the
worker that makes the write has finished.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import httpx
import pytest

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.settings.typed import Settings
from simulator.blahdev import runs as sim_runs
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.hostile_e2e import SIZE, press_now, settle, wait_until
from tests.support.notify_log import NotificationLog
from tui.app import BlahApp, create_app
from widgets.confirm import ConfirmScreen


@pytest.fixture(scope="module")
def write_sim() -> Iterator[SimulatorServer]:
    # speed 1: runs started here stay cancellable for the length of the test
    with SimulatorServer(seed=31, speed=1.0, live=False) as server:
        yield server


def app_on(server: SimulatorServer, client: BlahClient) -> BlahApp:
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=Settings(timezone="UTC", persist_theme=False, bell_on_run_end=False, run_confirm_delay_s=0.3),
    )
    return create_app(ctx)


async def go(app: BlahApp, key: str, mode: str) -> None:
    from textual.widgets import Input

    if isinstance(app.focused, Input):  # a text box takes digits as text: leave it first
        press_now(app, "escape")
        await wait_until(lambda: not isinstance(app.focused, Input), 5)
    press_now(app, key)
    assert await wait_until(lambda: app.current_mode == mode, 20), f"{key} did not open {mode}"
    await settle(app, 8)


async def confirm_dialog(app: BlahApp, notifications: NotificationLog) -> ConfirmScreen:
    assert await wait_until(lambda: isinstance(app.screen, ConfirmScreen), 15), (
        f"no confirmation came up (on {type(app.screen).__name__}): {notifications.messages(app)}"
    )
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)
    return screen


Opener = Callable[[BlahApp, SimulatorServer], Awaitable[None]]


async def open_start_run(app: BlahApp, server: SimulatorServer) -> None:
    from tui.screens.runs.pick import ModelPickerScreen

    await go(app, "3", "runs")
    for _ in range(3):  # a key pressed while the screen is still being built can be lost: again
        press_now(app, "s")
        if await wait_until(lambda: isinstance(app.screen, ModelPickerScreen), 5):
            break
    assert isinstance(app.screen, ModelPickerScreen), "the model picker never opened"
    press_now(app, "y")


async def _on_run(app: BlahApp, run_id: str, key: str) -> None:
    from tui.screens.runs.screen import RunsScreen

    await go(app, "3", "runs")
    for _ in range(3):  # a run watched since it was started sits on top of the list: back to it
        if isinstance(app.screen, RunsScreen):
            break
        depth = len(app.screen_stack)
        press_now(app, "escape")
        await wait_until(lambda depth=depth: len(app.screen_stack) < depth, 10)
    press_now(app, "r")
    assert await wait_until(
        lambda: isinstance(app.screen, RunsScreen) and any(r.id == run_id for r in app.screen.runs), 15
    )
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
    box = app.screen.query_one("#compose-input", Input)
    press_now(app, "i")
    assert await wait_until(lambda: app.focused is box, 10), "the compose box never took focus"
    for ch in "hello":
        press_now(app, ch)
    assert await wait_until(lambda: box.value == "hello", 10), f"the text never landed: {box.value!r}"
    press_now(app, "enter")


async def open_game(app: BlahApp, server: SimulatorServer) -> None:
    from tui.screens.games.screen import GameTypeScreen

    await go(app, "0", "games")
    press_now(app, "n")
    assert await wait_until(lambda: isinstance(app.screen, GameTypeScreen), 15)
    press_now(app, "enter")


#: (what, method, path suffix, how to get to its confirmation, the worker group that sends it)
WRITES: list[tuple[str, str, str, Opener, str]] = [
    ("start a run", "POST", "/api/v1/runs", open_start_run, "runs.start"),
    ("cancel a run", "POST", "/cancel", open_cancel, "runs.write"),
    ("resume a run", "POST", "/resume", open_resume, "runs.write"),
    ("failure clusters", "POST", "/failure-clusters", open_clusters, "diagnosis-clusters"),
    ("mute a model", "POST", "/chatroom", open_mute, "models-mute"),
    ("post to the chatroom", "POST", "/api/v1/chatroom", open_post, "chatroom-post"),
    ("start a game", "POST", "/api/v1/games", open_game, "games-create"),
]


def posts(server: SimulatorServer, suffix: str) -> int:
    return server.requests.count("POST", suffix)


class InFlight(httpx.AsyncBaseTransport):
    """Real HTTP that knows how many writes (non-GET requests) are on their way right now."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.inner = inner or sim_http.AsyncHTTPTransport()
        self.writes = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        write = request.method != "GET"
        self.writes += write
        try:
            return await self.inner.handle_async_request(request)
        finally:
            self.writes -= write

    async def aclose(self) -> None:
        await self.inner.aclose()


def sending(app: BlahApp, group: str) -> bool:
    """A worker of ``group`` (the one that makes the write) has not finished yet."""
    return any(worker.group == group and not worker.is_finished for worker in app.workers)


async def nothing_in_flight(app: BlahApp, transport: InFlight, group: str) -> None:
    """Wait until every write the app has begun is answered and its worker is done, if any."""
    assert await wait_until(lambda: transport.writes == 0, 20), "a write never got its answer"
    if not isinstance(app.screen, ConfirmScreen):  # while it asks, the worker may wait on the answer
        assert await wait_until(lambda: not sending(app, group), 20), f"the {group} worker never finished"


async def test_every_write_asks_first_and_one_confirmation_sends_one_request(
    write_sim: SimulatorServer, notifications: NotificationLog
) -> None:
    results: list[str] = []
    transport = InFlight()
    async with BlahClient(write_sim.base_url, api_key=write_sim.council_key, transport=transport) as client:
        app = app_on(write_sim, client)
        async with app.run_test(size=SIZE):
            await settle(app)
            for name, _method, suffix, opener, group in WRITES:
                before = posts(write_sim, suffix)
                await opener(app, write_sim)
                dialog = await confirm_dialog(app, notifications)
                await nothing_in_flight(app, transport, group)
                assert posts(write_sim, suffix) == before, f"{name}: sent before it was confirmed"
                press_now(app, "y")
                press_now(app, "y")  # a double press, as fast as a key repeat
                assert await wait_until(lambda s=suffix, b=before: posts(write_sim, s) > b, 20), f"{name}: never sent"
                assert await wait_until(lambda: not isinstance(app.screen, ConfirmScreen), 10)
                await nothing_in_flight(app, transport, group)  # a second request would have been sent by now
                sent = posts(write_sim, suffix) - before
                assert sent == 1, f"{name}: {sent} requests for one confirmation"
                assert dialog.answered
                results.append(f"{name}: 1")
            assert app.is_running
    print(f"\nwrites: {len(results)} kinds, each asked first and sent once on a double confirm ({results})")


async def test_saying_no_sends_nothing(write_sim: SimulatorServer, notifications: NotificationLog) -> None:
    transport = InFlight()
    async with BlahClient(write_sim.base_url, api_key=write_sim.council_key, transport=transport) as client:
        app = app_on(write_sim, client)
        async with app.run_test(size=SIZE):
            await settle(app)
            for name, _method, suffix, opener, group in (WRITES[0], WRITES[4]):
                before = posts(write_sim, suffix)
                await opener(app, write_sim)
                await confirm_dialog(app, notifications)
                press_now(app, "n")
                press_now(app, "y")  # too late: the dialog already answered "no"
                assert await wait_until(lambda: not isinstance(app.screen, ConfirmScreen), 10)
                await nothing_in_flight(app, transport, group)
                assert posts(write_sim, suffix) == before, f"{name}: sent although the answer was no"


# --------------------------------------------------------------------------- outcome unknown


class SlowAnswers(httpx.AsyncBaseTransport):
    """Real HTTP, but the answer to POST /runs is held back ``delay`` seconds after the
    platform has acted on it (the write happened; the client cannot know)."""

    def __init__(self, delay: float) -> None:
        self.inner = sim_http.AsyncHTTPTransport()
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
    async with BlahClient(
        write_sim.base_url, api_key=write_sim.council_key, transport=SlowAnswers(4.0), deadline=1.5
    ) as client:
        yield client


async def test_a_timed_out_write_is_outcome_unknown_checked_by_get_and_never_resent(
    write_sim: SimulatorServer, slow_client: BlahClient, notifications: NotificationLog
) -> None:
    app = app_on(write_sim, slow_client)
    async with app.run_test(size=SIZE):
        await settle(app)
        before_posts = posts(write_sim, "/api/v1/runs")
        runs_before = set(write_sim.world.runs)
        await open_start_run(app, write_sim)
        await confirm_dialog(app, notifications)
        mark = len(write_sim.requests.records())
        press_now(app, "y")
        said = await wait_until(lambda: any("timed out" in n for n in notifications.messages(app)), 30)
        assert said, notifications.messages(app)
        message = next(n for n in notifications.messages(app) if "timed out" in n)
        # the flow is over (checked, reported): a resend, if there were one, would be on the log
        assert await wait_until(lambda: not sending(app, "runs.start"), 30), "the start flow never finished"
    new_runs = set(write_sim.world.runs) - runs_before
    assert len(new_runs) == 1  # the platform did act on it, once
    assert posts(write_sim, "/api/v1/runs") - before_posts == 1  # and it was not sent again
    after = write_sim.requests.records()[mark:]
    assert any(r.method == "GET" and r.path == "/api/v1/runs" for r in after), "not checked with a GET"
    assert "it did start" in message and next(iter(new_runs)) in message
