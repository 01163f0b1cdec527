"""The app's one poller (application/poller.py) and its rules (api_client/transport/polling.py), with an
injected ``sleep`` that records the waits and returns at once: nothing here really waits.

Also checks that every poll loop of the app goes through it (issue 16: five loops had five
sets of rules)."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from api_client.blahdev.shapes import ChatroomPage
from api_client.errors import (
    AuthError,
    BadRequestError,
    BlahError,
    ConflictError,
    InvalidResponseError,
    MissingKeyError,
    NotFoundError,
    RateLimitedError,
    ServerError,
    UnreachableError,
    UnsafePathError,
)
from application.chatroom.feed import ChatFeed
from application.chatroom.poll import RoomPoller
from application.poller import RETRY_AFTER_CAP_S, Backoff, PollEnd, Poller, PollStep, is_fatal

ROOT = Path(__file__).resolve().parents[2]


class Script:
    """A fetch that plays a list of outcomes: a value is returned, an exception raised."""

    def __init__(self, *outcomes: object) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0

    async def __call__(self) -> object:
        self.calls += 1
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome


class Waits:
    """The injected sleep: records each wait, returns at once."""

    def __init__(self) -> None:
        self.seen: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seen.append(seconds)


def by_value(value: object) -> PollStep:
    """The fetched value is the verdict: "progress", "idle" or "done"."""
    assert value in ("progress", "idle", "done")
    return value  # type: ignore[return-value]


def poller(
    fetch: Script,
    waits: Waits,
    *,
    errors: list[tuple[BlahError, float | None]] | None = None,
    interval: float = 1.0,
    max_interval: float = 8.0,
    **kw: object,
) -> Poller[object]:
    return Poller(
        fetch,
        judge=by_value,
        interval=interval,
        max_interval=max_interval,
        sleep=waits,
        on_error=(lambda e, w: errors.append((e, w))) if errors is not None else None,
        **kw,  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------------- the rules


def test_idle_doubles_to_the_ceiling_and_progress_resets() -> None:
    backoff = Backoff(interval=1.0, max_interval=8.0)
    assert backoff.wait == 1.0
    assert [backoff.after_poll(progress=False) for _ in range(5)] == [2.0, 4.0, 8.0, 8.0, 8.0]
    assert backoff.after_poll(progress=True) == 1.0
    assert backoff.after_poll(progress=False) == 2.0


def test_errors_retry_at_the_interval_then_double_and_a_good_poll_resets_them() -> None:
    backoff = Backoff(interval=1.0, max_interval=8.0)
    boom = ServerError("boom", status=503)
    assert [backoff.after_error(boom) for _ in range(5)] == [1.0, 2.0, 4.0, 8.0, 8.0]
    assert backoff.errors == 5
    backoff.after_poll(progress=False)
    assert backoff.errors == 0
    assert backoff.after_error(boom) == 1.0


def test_the_servers_poll_hint_is_never_undercut_after_a_poll_or_an_error() -> None:
    backoff = Backoff(interval=1.0, max_interval=8.0)
    assert backoff.after_poll(progress=True, hint=5.0) == 5.0  # the server asks for 5 s
    assert backoff.after_poll(progress=False, hint=0.5) == 2.0  # a shorter ask: the backoff wins
    assert backoff.after_error(ServerError("boom", status=503), hint=3.0) == 3.0
    assert backoff.after_error(ServerError("boom", status=503), hint=None) == 2.0
    assert backoff.after_error(AuthError("no", status=401), hint=3.0) is None  # fatal stays fatal
    assert backoff.after_poll(progress=True, hint=RETRY_AFTER_CAP_S * 10) == RETRY_AFTER_CAP_S


@pytest.mark.parametrize(
    ("retry_after", "expected"),
    [
        (20.0, 20.0),  # longer than the backoff: honoured
        (0.2, 1.0),  # shorter than the backoff: the backoff wins
        (RETRY_AFTER_CAP_S * 10, RETRY_AFTER_CAP_S),  # absurd: capped
        (None, 1.0),  # a 429 without Retry-After: the backoff
    ],
)
def test_retry_after_is_honoured_up_to_the_cap(retry_after: float | None, expected: float) -> None:
    backoff = Backoff(interval=1.0, max_interval=8.0)
    assert backoff.after_error(RateLimitedError("slow down", status=429, retry_after=retry_after)) == expected


@pytest.mark.parametrize(
    "error",
    [
        AuthError("no", status=401),
        AuthError("tier", status=403),
        MissingKeyError("no key"),
        NotFoundError("gone", status=404),
        BadRequestError("bad", status=422),
        UnsafePathError(".."),
    ],
)
def test_fatal_errors(error: BlahError) -> None:
    assert is_fatal(error)
    assert Backoff(interval=1.0, max_interval=8.0).after_error(error) is None


@pytest.mark.parametrize(
    "error",
    [
        ServerError("boom", status=500),
        UnreachableError("down"),
        InvalidResponseError("html"),
        RateLimitedError("slow", status=429),
        ConflictError("busy", status=409),
    ],
)
def test_transient_errors(error: BlahError) -> None:
    assert not is_fatal(error)


def test_a_bug_is_fatal() -> None:
    assert is_fatal(KeyError("not a platform error"))


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError):
        Backoff(interval=0, max_interval=1)
    with pytest.raises(ValueError):
        Backoff(interval=5, max_interval=1)


# --------------------------------------------------------------------------- the loop


async def test_the_loop_slows_while_idle_resets_on_progress_and_ends_when_done() -> None:
    fetch = Script("progress", "idle", "idle", "idle", "progress", "idle", "done")
    waits = Waits()
    end = await poller(fetch, waits).run()
    assert end == PollEnd("done")
    assert fetch.calls == 7
    assert waits.seen == [1.0, 2.0, 4.0, 8.0, 1.0, 2.0]  # no wait before the first fetch


async def test_transient_errors_are_retried_and_reported_with_the_wait() -> None:
    slow = RateLimitedError("slow down", status=429, retry_after=30.0)
    fetch = Script(ServerError("boom", status=503), slow, ServerError("boom", status=503), "idle", "done")
    waits = Waits()
    errors: list[tuple[BlahError, float | None]] = []
    end = await poller(fetch, waits, errors=errors).run()
    assert end.reason == "done"
    assert waits.seen == [1.0, 30.0, 4.0, 2.0]  # 1, Retry-After beats 2, 4; then idle doubling
    assert [wait for _, wait in errors] == [1.0, 30.0, 4.0]


async def test_a_fatal_error_stops_at_once_and_says_why() -> None:
    gone = NotFoundError("no such model", status=404)
    fetch = Script("idle", gone, "never fetched")
    waits = Waits()
    errors: list[tuple[BlahError, float | None]] = []
    end = await poller(fetch, waits, errors=errors).run()
    assert end == PollEnd("fatal", gone)
    assert errors == [(gone, None)]
    assert fetch.calls == 2


async def test_a_bug_in_fetch_propagates() -> None:
    with pytest.raises(KeyError):
        await poller(Script(KeyError("bug")), Waits()).run()


async def test_wait_first_and_on_wait() -> None:
    waits = Waits()
    said: list[float] = []
    end = await poller(
        Script("idle", "done"), waits, interval=0.25, max_interval=5.0, wait_first=True, on_wait=said.append
    ).run()
    assert end.reason == "done"
    assert waits.seen == said == [0.25, 0.5]


class Parked:
    """A sleep that never ends by itself (until cancelled): the loop is parked in a wait."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.cancelled = 0
        self.seen: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seen.append(seconds)
        self.entered.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


async def _parked(poll: Poller[object], sleep: Parked) -> asyncio.Task[PollEnd]:
    task = asyncio.create_task(poll.run())
    await asyncio.wait_for(sleep.entered.wait(), 5)
    sleep.entered.clear()
    return task


async def test_cancelling_the_task_ends_the_wait_and_fetches_nothing_more() -> None:
    fetch = Script("idle", "idle")
    sleep = Parked()
    poll = Poller(fetch, judge=by_value, interval=1.0, max_interval=8.0, sleep=sleep)
    task = await _parked(poll, sleep)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    assert sleep.cancelled == 1  # the sleep itself was cancelled, not left running
    assert fetch.calls == 1


async def test_poke_polls_now_at_the_normal_pace() -> None:
    fetch = Script("idle", "idle", "idle", "done")
    sleep = Parked()
    poll = Poller(fetch, judge=by_value, interval=1.0, max_interval=8.0, sleep=sleep)
    task = await _parked(poll, sleep)  # parked after the 1st fetch (wait 2 s)
    poll.poke()
    await asyncio.wait_for(sleep.entered.wait(), 5)  # the 2nd fetch came at once
    sleep.entered.clear()
    assert fetch.calls == 2
    assert sleep.seen == [2.0, 2.0]  # the poke reset the backoff: 1 s doubled once, not 4 s
    poll.stop()
    assert await asyncio.wait_for(task, 5) == PollEnd("stopped")
    assert fetch.calls == 2
    assert sleep.cancelled == 2


async def test_a_poke_during_a_fetch_skips_the_next_wait() -> None:
    poll: Poller[object]

    async def fetch() -> object:
        if not poll.polls > 1:
            poll.poke()  # e.g. a post made while the poll was in flight
            return "idle"
        return "done"

    waits = Waits()
    poll = Poller(fetch, judge=by_value, interval=1.0, max_interval=8.0, sleep=waits)
    assert await poll.run() == PollEnd("done")
    assert waits.seen == []


async def test_stop_before_run_fetches_nothing() -> None:
    fetch = Script("idle")
    poll = poller(fetch, Waits())
    poll.stop()
    assert await poll.run() == PollEnd("stopped")
    assert fetch.calls == 0


# --------------------------------------------------------------------------- one house


class _RefusingRoom:
    """A chatroom that always answers with ``error``."""

    def __init__(self, error: BlahError) -> None:
        self.error = error

    async def chatroom(self, *, limit: int | None = None, since: int | None = None) -> ChatroomPage:
        raise self.error


async def test_the_chatroom_follows_the_shared_rules() -> None:
    """It capped Retry-After at 60 s and never stopped, even on a refused key."""
    said: list[float | None] = []
    slow = RateLimitedError("slow down", status=429, retry_after=120.0)
    room = RoomPoller(
        _RefusingRoom(slow),
        ChatFeed(),
        on_messages=lambda m: m,
        on_error=lambda e, w: said.append(w),
        on_quiet=lambda q: None,
        sleep=Waits(),
    )
    assert await room.poll_once() == 120.0
    room = RoomPoller(
        _RefusingRoom(AuthError("invalid key", status=401)),
        ChatFeed(),
        on_messages=lambda m: m,
        on_error=lambda e, w: said.append(w),
        on_quiet=lambda q: None,
        sleep=Waits(),
    )
    end = await room.run()
    assert end.reason == "fatal" and room.polls == 1
    assert said == [120.0, None]


#: Every poll loop of the app, and the name of the shared piece it must use.
POLL_LOOPS: dict[str, str] = {
    "api_client/blahdev/tail.py": "Backoff",  # the log tail (below application/: drives the rules itself)
    "application/chatroom/poll.py": "Poller",
    "tui/screens/runs/watch.py": "Poller",
    "tui/reload.py": "Backoff",  # the screens' one reload timer (lists refreshed on a timer, not a loop)
    "tui/screens/runs/screen.py": "Reload",
    "tui/screens/bakeoffs/run_rows.py": "Reload",
    "tui/screens/runs/bench/rows.py": "Reload",
    "tui/screens/bakeoffs/watch.py": "Reload",
    "tui/screens/bakeoffs/screen.py": "Reload",
    "application/runs/bench/watch.py": "Backoff",  # a suite run's watch: the server's pace, errors by the rules
    "tui/screens/playground/screen.py": "Poller",
    "tui/screens/games/screen.py": "Poller",
}
#: The only modules that may read ``retry_after`` (the rules, and the HTTP layer's own retries).
RETRY_AFTER_READERS = {
    "api_client/transport/polling.py",
    "api_client/transport/http.py",
    "api_client/transport/responses.py",
    "api_client/errors.py",
    "api_client/transport/retry.py",
    # a suite run's 202 names its first poll in Retry-After: the schedule the
    # server sets, handed to application/runs/bench/watch.py (which retries errors by
    # the shared Backoff and never reads retry_after itself)
    "api_client/blobfish/benchmarks.py",
    "api_client/blobfish/shapes_bench.py",
    "cli/bench/command.py",
    # ... and the screens that start a suite hand the same value to that watch
    "application/runs/bench/rows.py",
    "tui/screens/runs/bench/rows.py",
    "tui/screens/runs/bench/start.py",
    "tui/screens/runs/bench/watch.py",
    # the CI gate's one blocking GET (no event loop, for start-up): the shared
    # RetryPolicy's cap and backoff, applied in a synchronous loop
    "api_client/errorbar/gate_blocking.py",
}
PRODUCT = ("api_client", "application", "cli", "common", "diagnosis", "tui", "widgets")


def _calls(tree: ast.AST, predicate: Callable[[ast.Call], bool]) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and predicate(node)]


@pytest.mark.parametrize(("path", "shared"), sorted(POLL_LOOPS.items()))
def test_every_poll_loop_uses_the_shared_poller(path: str, shared: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module in ("application.poller", "polling", "api_client.transport.polling", "tui.reload")
        for alias in node.names
    }
    assert shared in imported, f"{path} does not import {shared} from the shared poller"
    built = _calls(tree, lambda call: isinstance(call.func, ast.Name) and call.func.id == shared)
    assert built, f"{path} imports {shared} but never makes one"
    sleeps = _calls(
        tree,
        lambda call: (
            isinstance(call.func, ast.Attribute)
            and call.func.attr == "sleep"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "asyncio"
        ),
    )
    assert not sleeps, f"{path} still waits by itself (asyncio.sleep)"


def test_no_module_has_its_own_retry_after_rule() -> None:
    readers = {
        str(path.relative_to(ROOT))
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if "retry_after" in path.read_text(encoding="utf-8")
    }
    assert readers <= RETRY_AFTER_READERS, f"their own Retry-After rule: {sorted(readers - RETRY_AFTER_READERS)}"


def test_no_screen_keeps_a_refresh_timer_of_its_own() -> None:
    """The lists and watches refreshed on a timer arm it through ``tui.reload.Reload`` only."""
    own = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tui").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "_schedule"
    )
    assert own == [], f"a _schedule of their own: {own}"
