"""Watch one Blobfish suite run to its end, at the pace the server asks (no Textual).

The schedule is the server's: the first wait is the 202's ``Retry-After``, then each record's
``poll_after_seconds`` (5 when absent), never less. A poll that fails with something passing
(5xx, 429, a reset, a broken body) never ends the watch: it waits the longer of the server's
last ask and the error's ``Retry-After`` (or a doubling backoff), and polls again; it never
starts anything. Only a final status, or an error polling cannot fix (the key refused, the run
gone: :func:`api_client.transport.polling.is_fatal`), ends it. ``sleep`` and ``clock`` are injected, so a
test runs a whole watch on a fake clock and a screen can run it in a worker (or swap in the
shared ``Poller`` later).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from api_client.blobfish.shapes_bench import DEFAULT_POLL_S, SuiteRun
from api_client.errors import BlahError
from api_client.transport.polling import Backoff

Sleep = Callable[[float], Awaitable[None]]
MAX_ERROR_WAIT_S = 60.0
"""The longest wait after failed polls in a row (unless the server asks for longer)."""


@dataclass
class WatchEvent:
    """One step of the watch, for a progress line: the record (None after an error), the
    error, the wait that follows (None at the end) and the estimated seconds left."""

    at: float
    record: SuiteRun | None
    error: BlahError | None
    wait: float | None
    eta_s: float | None


@dataclass
class WatchResult:
    record: SuiteRun
    polls: int
    errors: int
    waits: list[float] = field(default_factory=list)


def eta_seconds(history: list[tuple[float, int]], total: int | None) -> float | None:
    """Seconds left by the pace seen so far: (clock, tasks done) pairs; None until two tasks'
    worth of pace is known (never a made-up number)."""
    if total is None or len(history) < 2:
        return None
    first = next(((t, d) for t, d in history if d > 0), None)
    last_t, last_done = history[-1]
    if first is None or last_done <= first[1] or last_t <= first[0]:
        return None
    per_task = (last_t - first[0]) / (last_done - first[1])
    return max(0.0, (total - last_done) * per_task)


async def watch_suite(
    fetch: Callable[[], Awaitable[SuiteRun]],
    *,
    first_wait: float | None,
    first_record: SuiteRun | None = None,
    sleep: Sleep = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    on_event: Callable[[WatchEvent], None] | None = None,
) -> WatchResult:
    """Poll ``fetch`` until the suite's status is final; the last record.

    ``first_wait``: the 202's ``Retry-After`` (``DEFAULT_POLL_S`` when absent). A
    ``first_record`` already final returns at once. A fatal error is raised."""
    if first_record is not None and first_record.is_final:
        return WatchResult(first_record, 0, 0)
    asked = first_wait if first_wait is not None and first_wait > 0 else DEFAULT_POLL_S
    result_waits: list[float] = []
    history: list[tuple[float, int]] = []
    total = first_record.progress.total if first_record and first_record.progress else None
    polls = errors = 0
    wait = asked
    backoff = _error_backoff(asked)
    while True:
        result_waits.append(wait)
        await sleep(wait)
        polls += 1
        try:
            record = await fetch()
        except BlahError as error:
            # the shared rule: doubling, Retry-After capped, never below the server's last ask
            retry_in = backoff.after_error(error, hint=asked)
            if retry_in is None:
                raise
            errors += 1
            wait = retry_in
            if on_event:
                on_event(WatchEvent(clock(), None, error, wait, eta_seconds(history, total)))
            continue
        if record.progress is not None:
            total = record.progress.total if record.progress.total is not None else total
            if record.progress.done is not None:
                history.append((clock(), record.progress.done))
        if record.is_final:
            if on_event:
                on_event(WatchEvent(clock(), record, None, None, 0.0))
            return WatchResult(record, polls, errors, result_waits)
        asked = (
            record.poll_after_seconds if record.poll_after_seconds and record.poll_after_seconds > 0 else DEFAULT_POLL_S
        )
        wait = asked
        backoff = _error_backoff(asked)
        if on_event:
            on_event(WatchEvent(clock(), record, None, wait, eta_seconds(history, total)))


def _error_backoff(asked: float) -> Backoff:
    """Errors are retried by the shared rule (``api_client.transport.polling.Backoff``), from the pace
    the server last asked for."""
    return Backoff(interval=asked, max_interval=max(asked, MAX_ERROR_WAIT_S))
