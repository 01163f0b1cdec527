"""Retry policy: which failures are worth another attempt, and how long to wait.

A small loop (in :mod:`api_client.transport.http`) rather than ``stamina``/``tenacity``: those sleep
with their own ``asyncio.sleep`` (not injectable per client, so tests would wait) and do
not know about the per-call deadline or a server's ``Retry-After``. The pure functions
here are what the loop uses, so they are tested on their own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC
from email.utils import parsedate_to_datetime

#: Statuses that say "try again later" rather than "this request is wrong".
RETRY_STATUSES = frozenset({429, 502, 503, 504})

#: Methods that may be sent twice without changing anything on the server.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class RetryPolicy:
    """How a safe request is retried.

    ``max_attempts`` counts the first try. Waits follow exponential backoff with full
    jitter (a uniform draw in ``[0, min(max_backoff, base_backoff * 2**n)]``) unless the
    server sent ``Retry-After``, which is honoured up to ``retry_after_cap`` seconds; a
    longer wait is not slept inside a call: the error is raised with ``retry_after`` set
    so the caller (e.g. a log tail) can wait that long itself.
    """

    max_attempts: int = 4
    base_backoff: float = 0.5
    max_backoff: float = 8.0
    retry_after_cap: float = 30.0
    rng: random.Random = field(default_factory=random.Random, compare=False)

    def backoff(self, retry_number: int) -> float:
        """Full-jitter wait before retry number ``retry_number`` (1 for the first retry)."""
        ceiling = min(self.max_backoff, self.base_backoff * (2 ** max(0, retry_number - 1)))
        return self.rng.uniform(0.0, ceiling)


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP-date.

    ``now`` is the current Unix time (seconds). A date in the past means 0. Anything
    unparseable (or negative) is ignored: None, so the caller falls back to its backoff.
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        if seconds != seconds or seconds < 0 or seconds == float("inf"):  # NaN, <0, inf
            return None
        return seconds
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # "-0000": RFC 9110 dates are GMT anyway
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)
