"""tail_logs / iter_logs against a model of the server's log endpoint (CONTRACT.md semantics)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from api_client.blahdev.tail import LogTail, TailState
from api_client.errors import InvalidResponseError, NotFoundError
from tests.support.client_fakes import FakeLogServer, json_answer, make_client

T0 = 1_000_000  # 1970: far from the local clock, so a tail using time.time() would see nothing


def ids(entries: list[LogEntry]) -> list[str]:
    return [e.id for e in entries]


def tail_client(server: FakeLogServer, **kw: Any) -> BlahClient:
    kw.setdefault("max_attempts", 1)
    client, _ = make_client(server.handle, **kw)
    return client


# --------------------------------------------------------------------------- tail: one cycle


async def test_starts_at_server_newest_not_local_clock() -> None:
    server = FakeLogServer()
    old = [server.insert(T0 + i) for i in range(5)]
    async with tail_client(server) as client:
        tail = client.tail_logs("m1")
        assert await tail.poll() == []  # start: nothing already there is delivered
        assert server.calls[0] == {"limit": "1"}
        assert tail.state.cursor == T0 + 4
        late = server.insert(T0 + 5)
        batch = await tail.poll()
    assert ids(batch) == [late.id]
    assert not {r.id for r in old} & set(ids(batch))


async def test_burst_bigger_than_a_page_is_delivered_whole_oldest_first() -> None:
    server = FakeLogServer()
    server.insert(T0)
    async with tail_client(server) as client:
        tail = client.tail_logs("m1", page_size=5)
        await tail.poll()
        burst = [server.insert(T0 + 1 + i // 4) for i in range(23)]  # 4 entries per ms
        batch = await tail.poll()
        assert await tail.poll() == []
    assert sorted(ids(batch)) == sorted(r.id for r in burst)
    assert len(batch) == len(set(ids(batch))) == 23
    assert [e.created_at for e in batch] == sorted(e.created_at for e in batch)
    assert any("before" in call for call in server.calls)  # it paged back
    assert not tail.state.may_have_missed


async def test_entry_written_later_in_the_cursor_millisecond_is_not_lost() -> None:
    server = FakeLogServer()
    async with tail_client(server) as client:
        tail = client.tail_logs("m1")
        await tail.poll()
        first = server.insert(T0)
        assert ids(await tail.poll()) == [first.id]
        same_ms = server.insert(T0)  # next_since passed back as-is would skip this one
        assert ids(await tail.poll()) == [same_ms.id]
        assert await tail.poll() == []


async def test_full_page_in_one_millisecond_says_may_have_missed() -> None:
    server = FakeLogServer()
    server.insert(T0)
    states: list[TailState] = []
    async with tail_client(server) as client:
        tail = client.tail_logs("m1", page_size=3, on_state=states.append)
        await tail.poll()
        [server.insert(T0 + 10) for _ in range(5)]
        older = server.insert(T0 + 5)
        batch = await tail.poll()
    assert len(batch) == 4 and older.id in ids(batch)  # 3 of the 5 in one ms, plus the older
    assert tail.state.may_have_missed
    assert tail.state.missed_reason is not None and str(T0 + 10) in tail.state.missed_reason
    assert any(s.may_have_missed for s in states)
    assert len(server.calls) < 10


async def test_server_ignoring_bounds_is_reported_stalled_not_spun() -> None:
    server = FakeLogServer()
    server.ignore_before = server.ignore_since = True
    server.insert(T0)
    async with tail_client(server) as client:
        tail = client.tail_logs("m1", page_size=3)
        await tail.poll()
        [server.insert(T0 + i) for i in range(1, 8)]
        batch = await tail.poll()
        calls = len(server.calls)
        assert tail.state.phase == "stalled"
        assert tail.state.reason is not None and "ignore" in tail.state.reason
        assert await tail.poll() == []  # the same full page of seen ids: no duplicates
    assert len(batch) == 3 and tail.state.may_have_missed
    assert calls <= 4


async def test_since_given_delivers_after_it_at_once() -> None:
    server = FakeLogServer()
    rows = [server.insert(T0 + i) for i in range(6)]
    sleeps: list[float] = []

    async def sleep(s: float) -> None:
        sleeps.append(s)

    async with tail_client(server) as client:
        tail = client.tail_logs("m1", since=T0 + 2, sleep=sleep)
        batch = await anext(tail)
    assert ids(batch) == [r.id for r in rows[3:]]
    assert sleeps == []


# --------------------------------------------------------------------------- tail: the loop


async def test_backs_off_while_idle_and_resets_on_activity() -> None:
    server = FakeLogServer()
    server.insert(T0)
    sleeps: list[float] = []
    phases: list[str] = []

    async def sleep(s: float) -> None:
        sleeps.append(s)
        if len(sleeps) == 6:
            server.insert(T0 + 1)

    async with tail_client(server) as client:
        tail = client.tail_logs(
            "m1",
            interval=2,
            max_interval=30,
            sleep=sleep,
            on_state=lambda s: phases.append(s.phase),
        )
        batch = await anext(tail)
        assert len(batch) == 1
        assert tail.state.phase == "live"
        server.insert(T0 + 2)
        assert len(await anext(tail)) == 1
    assert sleeps == [2, 4, 8, 16, 30, 30, 2]
    assert "idle_backoff" in phases and phases[-1] == "live"


async def test_transient_errors_are_retried_with_retry_after() -> None:
    server = FakeLogServer()
    server.insert(T0)
    sleeps: list[float] = []
    states: list[TailState] = []

    async def sleep(s: float) -> None:
        sleeps.append(s)
        if len(sleeps) == 1:
            server.fail_next = [
                json_answer({"error": "busy"}, 503),
                json_answer({"error": "slow down"}, 429, **{"Retry-After": "7"}),
                httpx.Response(200, text="<html>captive portal</html>"),
            ]
            server.insert(T0 + 1)

    async with tail_client(server) as client:
        tail = client.tail_logs("m1", interval=1, max_interval=60, sleep=sleep, on_state=states.append)
        batch = await anext(tail)
    assert len(batch) == 1
    assert sleeps == [1, 1, 7, 4]  # error backoff doubles; Retry-After 7 beats 2
    retrying = [s for s in states if s.phase == "retrying"]
    assert [s.retry_in for s in retrying] == [1, 7, 4]
    assert retrying[0].reason is not None and "503" in retrying[0].reason
    assert tail.state.phase == "live"


async def test_unknown_model_stops_with_reason() -> None:
    server = FakeLogServer()
    async with tail_client(server) as client:
        tail = client.tail_logs("nope")
        batches = [b async for b in tail]
    assert batches == []
    assert tail.state.phase == "stopped"
    assert tail.state.reason is not None and "not found" in tail.state.reason
    assert isinstance(tail.error, NotFoundError)


async def test_stop_ends_a_waiting_tail_at_once() -> None:
    server = FakeLogServer()
    async with tail_client(server) as client:
        tail: LogTail = client.tail_logs("m1", interval=3600, max_interval=3600)
        task = asyncio.create_task(anext(tail))
        while tail.state.phase == "starting":
            await asyncio.sleep(0.01)
        tail.stop()
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(task, 5)
    assert tail.state.phase == "stopped"


# --------------------------------------------------------------------------- iter_logs


@pytest.mark.parametrize("read_ahead", [False, True])
async def test_iter_logs_history_each_entry_once_newest_first(read_ahead: bool) -> None:
    server = FakeLogServer()
    rows = [server.insert(T0 + i // 3) for i in range(37)]  # 3 per ms
    async with tail_client(server) as client:
        history = [e async for e in client.iter_logs("m1", page_size=5, read_ahead=read_ahead)]
        older = [e async for e in client.iter_logs("m1", before=T0 + 4, page_size=4, read_ahead=read_ahead)]
    assert sorted(ids(history)) == sorted(r.id for r in rows)
    assert len(history) == 37
    times = [e.created_at for e in history]
    assert times == sorted(times, reverse=True)
    assert sorted(ids(older)) == sorted(r.id for r in rows if r.created_at < T0 + 4)


@pytest.mark.parametrize("read_ahead", [False, True])
async def test_history_pages_hold_the_same_entries_a_page_at_a_time(read_ahead: bool) -> None:
    server = FakeLogServer()
    rows = [server.insert(T0 + i // 3) for i in range(37)]  # 3 per ms: page bounds split milliseconds
    async with tail_client(server) as client:
        one_by_one = [e async for e in client.iter_logs("m1", page_size=5, read_ahead=read_ahead)]
        history = client.iter_logs("m1", page_size=5, read_ahead=read_ahead)
        pages = [page async for page in history.pages()]
        await history.aclose()
    assert [e.id for page in pages for e in page] == [e.id for e in one_by_one]
    assert sorted(e.id for page in pages for e in page) == sorted(r.id for r in rows)
    assert all(len(page) <= 5 for page in pages) and len(pages) >= 37 // 5


@pytest.mark.parametrize("read_ahead", [False, True])
async def test_iter_logs_single_ms_page_and_broken_server(read_ahead: bool) -> None:
    server = FakeLogServer()
    [server.insert(T0 + 1) for _ in range(4)]
    server.insert(T0)
    async with tail_client(server) as client:
        it = client.iter_logs("m1", page_size=3, read_ahead=read_ahead)
        got = [e async for e in it]
        assert len(got) == 4 and it.may_have_missed and it.missed_reason
        server.ignore_before = True
        server.insert(T0 + 2)
        with pytest.raises(InvalidResponseError):
            async for _ in client.iter_logs("m1", page_size=2, read_ahead=read_ahead):
                pass


async def test_iter_logs_read_ahead_asks_for_the_next_page_while_this_one_is_consumed() -> None:
    server = FakeLogServer()
    [server.insert(T0 + i) for i in range(10)]
    async with tail_client(server) as client:
        plain = client.iter_logs("m1", page_size=4)
        await anext(plain)
        await asyncio.sleep(0.05)
        assert len(server.calls) == 1  # the next page only when this one is used up
        [e async for e in plain]
        pages_plain = list(server.calls)

        server.calls.clear()
        ahead = client.iter_logs("m1", page_size=4, read_ahead=True)
        first = await anext(ahead)
        await asyncio.sleep(0.05)
        assert [c.get("before") for c in server.calls] == [None, str(T0 + 7)]  # already on its way
        rest = [e async for e in ahead]
        assert [first.created_at] + [e.created_at for e in rest] == list(range(T0 + 9, T0 - 1, -1))
        assert server.calls == pages_plain  # the same pages, none asked twice or past the end

        server.calls.clear()  # a caller that never awaits anything else between entries
        [server.insert(T0 + 10 + i) for i in range(200)]
        busy = client.iter_logs("m1", page_size=100, read_ahead=True)
        for _ in range(99):
            await anext(busy)
        assert len(server.calls) == 2  # the next page was asked for while this one was read
        await busy.aclose()

        server.calls.clear()
        stopped = client.iter_logs("m1", page_size=4, read_ahead=True)
        await anext(stopped)
        await stopped.aclose()  # stopping early: the read ahead is dropped, nothing left running
        assert not [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]


# --------------------------------------------------------------------------- stateful


class TailMachine(RuleBasedStateMachine):
    """Random inserts (many in one ms), random page sizes, late arrivals; after each poll
    the tail holds exactly the entries inserted since it started, none twice."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.server = FakeLogServer()
        self.clock = T0
        self.expected: set[str] = set()
        self.delivered: list[str] = []
        self.client: BlahClient | None = None
        self.tail: LogTail | None = None
        self.page_size = 2
        self.overlap = 1

    def _count_at(self, ms: int) -> int:
        return sum(1 for r in self.server.rows if r.created_at == ms)

    def _insert(self, ms: int, expected: bool = True) -> None:
        # CONTRACT: far fewer entries share one millisecond than a page holds
        if self._count_at(ms) < self.page_size - 1:
            row = self.server.insert(ms)
            if expected:
                self.expected.add(row.id)

    @initialize(
        page_size=st.integers(2, 6),
        overlap=st.integers(1, 4),
        existing=st.lists(st.integers(0, 2), max_size=8),
    )
    def start(self, page_size: int, overlap: int, existing: list[int]) -> None:
        self.page_size, self.overlap = page_size, overlap
        for gap in existing:
            self.clock += gap
            self._insert(self.clock, expected=False)
        self.client = tail_client(self.server)
        self.tail = self.client.tail_logs("m1", page_size=page_size, overlap_ms=overlap)
        assert self.loop.run_until_complete(self.tail.poll()) == []

    @rule(bursts=st.lists(st.tuples(st.integers(0, 2), st.integers(1, 6)), min_size=1, max_size=5))
    def insert(self, bursts: list[tuple[int, int]]) -> None:
        for gap, count in bursts:
            self.clock += gap
            for _ in range(count):
                self._insert(self.clock)

    @rule(back=st.integers(0, 3))
    def late_arrival(self, back: int) -> None:
        newest = max((r.created_at for r in self.server.rows), default=self.clock)
        self._insert(newest - min(back, self.overlap - 1))

    @rule()
    def poll(self) -> None:
        assert self.tail is not None
        batch = self.loop.run_until_complete(self.tail.poll())
        times = [e.created_at for e in batch]
        assert times == sorted(times)
        self.delivered.extend(ids(batch))
        assert set(self.delivered) == self.expected
        assert not self.tail.state.may_have_missed
        assert self.tail.state.phase != "stalled"

    @invariant()
    def no_duplicates(self) -> None:
        assert len(self.delivered) == len(set(self.delivered))
        assert set(self.delivered) <= self.expected

    def teardown(self) -> None:
        if self.client is not None:
            self.loop.run_until_complete(self.client.aclose())
        self.loop.close()


TestTailStateful = TailMachine.TestCase
TestTailStateful.settings = settings(
    max_examples=60,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_the_bound_for_the_next_older_page() -> None:
    """Both the tail and the history page back with it: re-ask the oldest millisecond, unless
    the whole page is that millisecond (then move past it and say entries may be missed)."""
    from api_client.blahdev.paging import older_page_bound

    def page(*times: int) -> list[LogEntry]:
        return [LogEntry(id=f"e{i}", created_at=t) for i, t in enumerate(times)]

    assert older_page_bound(page(T0 + 5, T0 + 3, T0 + 3), 3) == (T0 + 3, T0 + 4, None)
    oldest, before, missed = older_page_bound(page(T0, T0, T0), 3)
    assert (oldest, before) == (T0, T0)
    assert missed is not None and "more than 3 entries share the millisecond" in missed
