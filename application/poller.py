"""One poll loop for the whole app: fetch, judge, wait (by the shared rules), again.

The rules (backoff, the ``Retry-After`` cap, which errors are fatal) are in
:mod:`api_client.transport.polling` and re-exported here; this module runs them. A caller gives only
what differs:

- ``fetch``: what to ask the platform (an async callable);
- ``judge(result)``: what counts as progress: ``"progress"`` (back to the normal pace),
  ``"idle"`` (nothing new: slow down) or ``"done"`` (stop: the thing polled has ended);
- ``interval`` / ``max_interval``: the normal pace and the slowest one;
- optionally ``on_error(error, retry_in)`` (``retry_in`` is None when the error is fatal and
  the loop stops) and ``on_wait(seconds)`` (before each wait, for a "next poll in" line).

No Textual: the screens run :meth:`Poller.run` in a worker (cancelling the worker ends it),
tests pass a fake ``sleep`` so nothing really waits. :meth:`Poller.poke` polls now (after a
post, or when the person asks) and :meth:`Poller.stop` ends the loop at its next step.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from api_client.errors import BlahError
from api_client.transport.polling import BACKOFF_FACTOR, FATAL_POLL_ERRORS, RETRY_AFTER_CAP_S, Backoff, is_fatal

__all__ = [
    "BACKOFF_FACTOR",
    "FATAL_POLL_ERRORS",
    "RETRY_AFTER_CAP_S",
    "Backoff",
    "PollEnd",
    "PollStep",
    "Poller",
    "Sleep",
    "is_fatal",
]

T = TypeVar("T")
PollStep = Literal["progress", "idle", "done"]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class PollEnd:
    """Why :meth:`Poller.run` returned: the thing polled ended (``done``), an error that
    polling again cannot fix (``fatal``, with ``error``), or :meth:`Poller.stop`."""

    reason: Literal["done", "fatal", "stopped"]
    error: BlahError | None = None


class Poller(Generic[T]):
    """Polls ``fetch`` until ``judge`` says done, a fatal error, :meth:`stop` or cancellation.

    Transient errors never end it: they are reported to ``on_error`` with the wait before
    the retry. An exception that is not a :class:`BlahError` is a bug and propagates.
    ``wait_first``: wait ``interval`` before the first fetch (the caller already holds a
    fresh result, e.g. the job it just created).
    """

    def __init__(
        self,
        fetch: Callable[[], Awaitable[T]],
        *,
        judge: Callable[[T], PollStep],
        interval: float,
        max_interval: float,
        on_error: Callable[[BlahError, float | None], None] | None = None,
        on_wait: Callable[[float], None] | None = None,
        wait_first: bool = False,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.backoff = Backoff(interval=interval, max_interval=max(max_interval, interval))
        self._fetch = fetch
        self._judge = judge
        self._on_error = on_error
        self._on_wait = on_wait
        self._wait_first = wait_first
        self._sleep = sleep
        self._poke = asyncio.Event()
        self._stopped = False
        self._end: PollEnd | None = None
        self.polls = 0
        """Fetches started so far (for tests and status lines)."""

    def poke(self) -> None:
        """Poll now, at the normal pace again (a wait in progress ends at once)."""
        self.backoff.reset()
        self._poke.set()

    def stop(self) -> None:
        """End :meth:`run` before its next fetch (a wait in progress ends at once)."""
        self._stopped = True
        self._poke.set()

    async def run(self) -> PollEnd:
        """Poll until done, fatal or stopped; cancelling the task running it also ends it."""
        wait: float | None = self.backoff.interval if self._wait_first else 0.0
        while not self._stopped:
            if wait:
                if self._on_wait is not None:
                    self._on_wait(wait)
                await self._wait(wait)
                if self._stopped:
                    break
            wait = await self.poll_once()
            if wait is None:
                assert self._end is not None
                return self._end
        return PollEnd("stopped")

    async def poll_once(self) -> float | None:
        """One fetch, judged: the seconds until the next one, or None when polling ends."""
        self.polls += 1
        try:
            result = await self._fetch()
        except BlahError as error:
            wait = self.backoff.after_error(error)
            if wait is None:
                self._end = PollEnd("fatal", error)
            if self._on_error is not None:
                self._on_error(error, wait)
            return wait
        step = self._judge(result)
        if step == "done":
            self._end = PollEnd("done")
            return None
        return self.backoff.after_poll(progress=step == "progress")

    async def _wait(self, seconds: float) -> None:
        """Sleep ``seconds`` unless poked (or stopped) first; a poke during the last fetch
        skips the wait altogether."""
        if self._poke.is_set():
            self._poke.clear()
            return
        sleeper = asyncio.ensure_future(self._sleep(seconds))
        woken = asyncio.ensure_future(self._poke.wait())
        try:
            await asyncio.wait({sleeper, woken}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            woken.cancel()
            await asyncio.gather(sleeper, woken, return_exceptions=True)
        self._poke.clear()
