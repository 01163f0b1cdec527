"""Follow a model's calls live: :class:`LogTail` (history is :mod:`api_client.blahdev.log_history`).

Why this is more than "pass ``next_since`` back" (CONTRACT.md, ``GET /models/{id}/logs``):
pages are newest first and hold the newest ``limit`` matches, many entries share one
millisecond, and a burst between two polls can exceed a page. So a poll cycle

1. asks ``since = cursor - overlap_ms`` (1 ms by default: entries written later in the
   cursor's own millisecond are still seen; a larger overlap also catches entries that
   arrive late with a ``created_at`` slightly in the past);
2. while a page comes back full, pages back with ``before = oldest + 1`` (the oldest
   millisecond may be split across pages) until it reaches ``since``;
3. drops ids it has already delivered, and entries outside the bounds it asked for
   (a server that ignores a bound cannot make it deliver twice);
4. delivers the cycle's new entries as one batch, oldest first, and only then moves
   the cursor (an error half-way discards the cycle, which is then redone whole).

The ids remembered are only those inside the overlap window (older ones can never come
back, given 3.), with a hard cap as a safety net, so memory stays bounded.

A full page that holds a single millisecond cannot be paged past without skipping the
rest of that millisecond: the tail skips it and says ``may_have_missed`` with a reason.
A server whose pages do not move (``before`` ignored: a full page of entries already
seen comes back again) is reported as phase ``stalled`` instead of being spun on.
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, TypedDict

from api_client.blahdev.paging import older_page_bound
from api_client.blahdev.records import CallPage
from api_client.errors import BlahError
from api_client.transport.polling import Backoff
from common.records import Call, time_of

Phase = Literal["starting", "live", "idle_backoff", "retrying", "stalled", "stopped"]
Sleep = Callable[[float], Awaitable[None]]

#: Safety cap on remembered ids (only ids inside the overlap window are kept anyway).
MAX_SEEN_IDS = 100_000
MAX_PAGE = 500


class TailOptions(TypedDict, total=False):
    """The keyword options of :class:`LogTail` (their defaults are its own), for callers that
    pass them on: ``BlahClient.tail_logs``. ``sleep=None`` there means the client's sleep."""

    source: str | None
    errors_only: bool
    since: int | None
    interval: float
    max_interval: float
    page_size: int
    overlap_ms: int
    on_state: Callable[[TailState], None] | None
    sleep: Sleep | None


class LogsApi(Protocol):
    async def get_logs(
        self,
        model_id: str,
        *,
        source: str | None = ...,
        since: int | None = ...,
        before: int | None = ...,
        errors_only: bool = ...,
        limit: int | None = ...,
        stats: bool = ...,
    ) -> CallPage: ...


@dataclass(frozen=True)
class TailState:
    """What the tail is doing, for a status line. A new object on every change.

    ``retry_in``: seconds until the next request while waiting (idle, retrying, stalled).
    ``cursor``: newest ``created_at`` (ms) delivered or found at start, None before.
    ``may_have_missed`` stays True once set; ``missed_reason`` says why.
    """

    phase: Phase = "starting"
    retry_in: float | None = None
    reason: str | None = None
    cursor: int | None = None
    may_have_missed: bool = False
    missed_reason: str | None = None


class _Stopped(Exception):
    pass


@dataclass
class _Cycle:
    new: list[Call]
    stalled: str | None = None


def check_page_size(page_size: int) -> None:
    if not 1 <= page_size <= MAX_PAGE:
        raise ValueError(f"page_size must be 1..{MAX_PAGE}")


class LogTail:
    """Async iterator of batches of new log entries (oldest first), each entry once.

    Waits by the app's one set of polling rules (:mod:`api_client.transport.polling`): slower while
    nothing is new, back to ``interval`` on new entries; never ends on a transient error (it
    backs off and retries, honouring Retry-After); ends (``StopAsyncIteration``) after
    :meth:`stop` or a fatal error (unknown model, key refused), with
    ``state.phase == "stopped"``, ``state.reason`` and :attr:`error`.
    """

    def __init__(
        self,
        api: LogsApi,
        model_id: str,
        *,
        source: str | None = None,
        errors_only: bool = False,
        since: int | None = None,
        interval: float = 2.0,
        max_interval: float = 30.0,
        page_size: int = MAX_PAGE,
        overlap_ms: int = 1,
        on_state: Callable[[TailState], None] | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        if interval <= 0 or max_interval < interval:
            raise ValueError("need 0 < interval <= max_interval")
        if overlap_ms < 1:
            raise ValueError("overlap_ms must be at least 1")
        check_page_size(page_size)
        self._api = api
        self._model_id = model_id
        self._source = source
        self._errors_only = errors_only
        self._interval = float(interval)
        self._max_interval = float(max_interval)
        self._page_size = page_size
        self._overlap = overlap_ms
        self.on_state = on_state
        self._sleep = sleep or asyncio.sleep  # None: asyncio's
        self._floor = since  # entries at or before the caller's ``since`` are never delivered
        self._cursor: int | None = since
        self._started = since is not None
        self._seen: dict[str, int] = {}
        self._backoff = Backoff(interval=self._interval, max_interval=self._max_interval)
        self._next_wait = 0.0
        self._stop_event = asyncio.Event()
        self._state = TailState(cursor=since)
        self.error: BlahError | None = None

    # ------------------------------------------------------------------ public surface

    @property
    def state(self) -> TailState:
        return self._state

    @property
    def cursor(self) -> int | None:
        return self._cursor

    def stop(self) -> None:
        """End the iteration: an in-flight request or wait is abandoned at once."""
        if self._state.phase != "stopped":
            self._set(phase="stopped", retry_in=None, reason="stopped")
        self._stop_event.set()

    async def aclose(self) -> None:
        self.stop()

    def __aiter__(self) -> LogTail:
        return self

    async def __anext__(self) -> list[Call]:
        while True:
            if self._stop_event.is_set():
                raise StopAsyncIteration
            try:
                if self._next_wait > 0:
                    await self._race(self._sleep(self._next_wait))
                if not self._started:
                    await self._race(self.start())
                    self._enter_live(delivered=False)
                    continue
                cycle: _Cycle = await self._race(self._poll())
            except _Stopped:
                raise StopAsyncIteration from None
            except BlahError as exc:
                self._on_error(exc)
                continue
            if cycle.stalled is not None:
                self._next_wait = self._backoff.slowest()
                self._set(
                    phase="stalled",
                    retry_in=self._next_wait,
                    reason=cycle.stalled,
                    cursor=self._cursor,
                )
            else:
                self._enter_live(delivered=bool(cycle.new))
            if cycle.new:
                return cycle.new

    async def poll(self) -> list[Call]:
        """Run one cycle now (starting first if needed) and return what is new.

        For a "refresh now" key and for tests; raises BlahError instead of retrying.
        """
        if self._state.phase == "stopped":
            return []
        if not self._started:
            await self.start()
            self._set(phase="live", retry_in=None, reason=None)
            return []
        cycle = await self._poll()
        if cycle.stalled is not None:
            self._set(phase="stalled", retry_in=None, reason=cycle.stalled, cursor=self._cursor)
        else:
            self._set(phase="live", retry_in=None, reason=None, cursor=self._cursor)
        return cycle.new

    async def start(self) -> None:
        """Find the server's newest timestamp (never the local clock) and remember the
        ids already in the overlap window there, so only what comes after is delivered."""
        if self._started:
            return
        page = await self._fetch(since=None, before=None, limit=1)
        if page.logs:
            newest = max(map(time_of, page.logs))
            # Only entries up to ``newest`` existed at start: anything newer is delivered.
            primed = await self._collect(since=newest - self._overlap, upper=newest + 1)
            self._remember(primed.new)
            self._cursor = newest
            self._prune()
        self._started = True
        self._set(cursor=self._cursor)

    # ------------------------------------------------------------------ the cycle

    def _query_since(self) -> int | None:
        if self._cursor is None:
            return self._floor
        since = self._cursor - self._overlap
        if self._floor is not None:
            since = max(since, self._floor)
        return since

    async def _poll(self) -> _Cycle:
        cycle = await self._collect(since=self._query_since(), upper=None)
        if cycle.new:
            # Oldest first; within one millisecond keep the server's (reversed) order.
            cycle.new.reverse()
            cycle.new.sort(key=time_of)
            self._remember(cycle.new)
            newest = time_of(cycle.new[-1])
            if self._cursor is None or newest > self._cursor:
                self._cursor = newest
            self._prune()
        return cycle

    async def _collect(self, *, since: int | None, upper: int | None) -> _Cycle:
        """Every entry in ``(since, upper)`` not delivered yet, paging back as needed."""
        cycle = _Cycle(new=[])
        in_cycle: set[str] = set()
        before = upper
        while True:
            page = await self._fetch(since=since, before=before, limit=self._page_size)
            raw = page.logs
            for entry in raw:
                at = time_of(entry)
                if (since is not None and at <= since) or (before is not None and at >= before):
                    continue  # outside what was asked: the server ignored a bound
                if entry.id in self._seen or entry.id in in_cycle:
                    continue
                in_cycle.add(entry.id)
                cycle.new.append(entry)
            if len(raw) < self._page_size:
                return cycle
            oldest, next_before, missed = older_page_bound(raw, self._page_size)
            if since is not None and oldest <= since:
                return cycle  # the page reaches back to ``since``: nothing older is wanted
            if missed is not None:
                self._missed(missed)
            if before is not None and next_before >= before:
                cycle.stalled = (
                    "the server's pages do not move: a full page of entries already seen "
                    f"came back again (next_since={page.next_since}, next_before="
                    f"{page.next_before}); it seems to ignore `before`/`since`, so entries "
                    "beyond one page cannot be reached"
                )
                self._missed("the server ignored the paging bounds (see phase 'stalled')")
                return cycle
            before = next_before

    async def _fetch(self, *, since: int | None, before: int | None, limit: int) -> CallPage:
        return await self._api.get_logs(
            self._model_id,
            source=self._source,
            since=since,
            before=before,
            errors_only=self._errors_only,
            limit=limit,
        )

    def _remember(self, entries: list[Call]) -> None:
        for entry in entries:
            self._seen[entry.id] = time_of(entry)

    def _prune(self) -> None:
        """Forget ids that no later query can return (at or before the next ``since``)."""
        floor = self._query_since()
        if floor is not None:
            self._seen = {i: at for i, at in self._seen.items() if at > floor}
        if len(self._seen) > MAX_SEEN_IDS:
            keep = heapq.nlargest(MAX_SEEN_IDS, self._seen.items(), key=lambda item: item[1])
            self._seen = dict(keep)

    # ------------------------------------------------------------------ waiting and state

    def _enter_live(self, *, delivered: bool) -> None:
        if delivered or self._state.phase == "starting":
            self._next_wait = self._backoff.after_poll(progress=True)
            self._set(phase="live", retry_in=None, reason=None, cursor=self._cursor)
        else:
            self._next_wait = self._backoff.after_poll(progress=False)
            self._set(
                phase="idle_backoff",
                retry_in=self._next_wait,
                reason="nothing new",
                cursor=self._cursor,
            )

    def _on_error(self, exc: BlahError) -> None:
        wait = self._backoff.after_error(exc)
        if wait is None:
            self.error = exc
            self._set(phase="stopped", retry_in=None, reason=str(exc))
            self._stop_event.set()
            return
        self._next_wait = wait
        self._set(phase="retrying", retry_in=wait, reason=str(exc))

    def _missed(self, reason: str) -> None:
        if not self._state.may_have_missed or self._state.missed_reason != reason:
            self._set(may_have_missed=True, missed_reason=reason)

    def _set(self, **changes: Any) -> None:
        new = replace(self._state, **changes)
        if new != self._state:
            self._state = new
            if self.on_state is not None:
                self.on_state(new)

    async def _race(self, awaitable: Awaitable[Any]) -> Any:
        """Await ``awaitable`` unless :meth:`stop` is called first (then raise _Stopped)."""
        if self._stop_event.is_set():
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise _Stopped
        work = asyncio.ensure_future(awaitable)
        stopper = asyncio.ensure_future(self._stop_event.wait())
        try:
            await asyncio.wait({work, stopper}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # the task running the tail is being cancelled
            work.cancel()
            stopper.cancel()
            await asyncio.gather(work, stopper, return_exceptions=True)
            raise
        stopper.cancel()
        if self._stop_event.is_set():  # stop() came first, or at the same time: it wins
            work.cancel()  # (no-op when done; gather also retrieves a result or error)
            await asyncio.gather(work, return_exceptions=True)
            raise _Stopped
        return work.result()
