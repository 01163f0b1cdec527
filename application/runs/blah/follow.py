"""Following one eval run to its end from a script: poll ``GET /runs/{id}`` by the app's
polling rules, estimate the ETA, and end on the run's outcome (no Textual; `blah-tui runs
watch` uses it; the Runs watch screen polls through its own worker with the same pieces:
:class:`~application.runs.eta.EtaEstimator` and :class:`~api_client.transport.polling.Backoff`).

The end: ``completed``, ``failed``, ``stalled`` or ``cancelled`` as the platform says; a fatal
error (the key refused, the run unknown) ends it at once; transient errors are retried, and
after ``max_errors`` in a row the platform is taken as unreachable. A status the contract does
not name is shown as it is and followed while the count moves.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from api_client.blahdev.shapes import Run
from api_client.errors import BlahError
from application.poller import Poller, PollStep
from application.runs.eta import Eta, EtaEstimator

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["ENDED", "FollowEnd", "FollowUpdate", "follow_run"]

ENDED = frozenset({"completed", "failed", "stalled", "cancelled"})
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class FollowUpdate:
    """One poll: the run as read (or the error), the ETA, and the wait before the next poll."""

    run: Run | None
    eta: Eta | None
    error: BlahError | None
    wait: float | None


@dataclass(frozen=True, slots=True)
class FollowEnd:
    kind: Literal["ended", "error"]
    run: Run | None
    error: BlahError | None = None


async def follow_run(
    client: BlahClient,
    run_id: str,
    *,
    on_update: Callable[[FollowUpdate], None],
    interval: float = 2.0,
    max_interval: float = 15.0,
    max_errors: int = 5,
    sleep: Sleep = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    first: Run | None = None,
    read: Callable[[], Awaitable[Run]] | None = None,
) -> FollowEnd:
    """Poll until the run ends or a fatal error; ``first``: a record already read (no extra GET);
    ``read``: how to read the run (default ``GET /runs/{id}``). The loop is the app's one
    :class:`~application.poller.Poller` (the Runs watch screen's, too); what is this verb's own
    is the ETA on each update and giving up after ``max_errors`` failed reads in a row."""
    read_run = read or (lambda: client.get_run(run_id))
    estimator = EtaEstimator()
    seen: list[Run] = []  # the last run read (at most one)
    pending: list[FollowUpdate] = []  # a poll's update, sent once its wait is known
    failure: list[BlahError] = []
    first_record = [first] if first is not None else []

    async def fetch() -> Run:
        return first_record.pop() if first_record else await read_run()

    def judge(run: Run) -> PollStep:
        estimator.add(clock(), run.completed_count)
        eta = estimator.estimate(run.total_items)
        last = seen[-1] if seen else None
        moved = last is None or (run.status, run.completed_count) != (last.status, last.completed_count)
        seen[:] = [run]
        if run.status in ENDED:
            on_update(FollowUpdate(run, eta, None, None))
            return "done"
        pending[:] = [FollowUpdate(run, eta, None, None)]
        return "progress" if moved else "idle"

    def on_wait(wait: float) -> None:
        if pending:
            on_update(replace(pending.pop(), wait=wait))

    def on_error(error: BlahError, retry_in: float | None) -> None:
        last = seen[-1] if seen else None
        if retry_in is None or poller.backoff.errors >= max_errors:
            failure[:] = [error]
            on_update(FollowUpdate(last, None, error, None))
            poller.stop()
            return
        on_update(FollowUpdate(last, None, error, retry_in))

    poller: Poller[Run] = Poller(
        fetch,
        judge=judge,
        interval=interval,
        max_interval=max_interval,
        on_error=on_error,
        on_wait=on_wait,
        sleep=sleep,
    )
    await poller.run()
    last = seen[-1] if seen else None
    if failure:
        return FollowEnd("error", last, failure[0])
    return FollowEnd("ended", last)
