"""The one set of rules for polling the platform: how long to wait, and when to give up.

Every poll loop of the app (the log tail, the chatroom, a run watch and the runs list, a
playground chat job, a game being played) waits by these rules; each gives only what
differs: its normal ``interval`` and its ceiling ``max_interval`` (how fresh the person
needs it), what it fetches, and what counts as progress. The loop that runs them is
:class:`application.poller.Poller`; the log tail, which lives in this package (below the
application layer), drives a :class:`Backoff` itself.

The rules
---------
- Progress (something new) -> the next poll comes after ``interval``.
- Nothing new -> the wait doubles, up to ``max_interval``.
- A transient error -> the first retry comes after ``interval``, each further error in a
  row doubles it, up to ``max_interval`` (the HTTP layer has already retried the request
  itself a few times by then). A 429 or 503 with ``Retry-After`` waits at least that long,
  honoured up to :data:`RETRY_AFTER_CAP_S` (a larger value is taken as that cap, so an absurd
  header cannot park a screen for hours; every screen also has a "poll now" key).
- A fatal error (:func:`is_fatal`) -> polling stops, with the reason shown.

Fatal errors are the ones that asking again cannot fix: the key is missing or refused
(:class:`AuthError`, 401/403), the thing polled does not exist (:class:`NotFoundError`, 404),
the request itself is rejected (:class:`BadRequestError`, 400/422) or its id cannot be put in a
path (:class:`UnsafePathError`). Everything else is transient, including 409 (a read that
conflicts with the resource's state may succeed once the state moves on), 5xx, timeouts, an
unreachable host and a garbled body (a captive portal or a proxy's error page). An exception
that is not a :class:`BlahError` at all is a bug, never retried.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from api_client.errors import AuthError, BadRequestError, BlahError, NotFoundError, RateLimitedError, UnsafePathError

__all__ = ["BACKOFF_FACTOR", "FATAL_POLL_ERRORS", "RETRY_AFTER_CAP_S", "Backoff", "is_fatal"]

#: How much the wait grows after each poll that brought nothing new, or each error in a row.
BACKOFF_FACTOR = 2.0
#: A server's ``Retry-After`` is honoured up to this many seconds.
RETRY_AFTER_CAP_S = 600.0
#: Errors after which polling again cannot help (see the module docstring).
FATAL_POLL_ERRORS: tuple[type[BlahError], ...] = (AuthError, NotFoundError, BadRequestError, UnsafePathError)


def is_fatal(error: BaseException) -> bool:
    """True when polling again cannot fix ``error``: the loop stops and says why."""
    return isinstance(error, FATAL_POLL_ERRORS) or not isinstance(error, BlahError)


@dataclass
class Backoff:
    """The waits between polls of one loop, by the rules of this module.

    ``after_poll(progress=...)`` after a poll that worked, ``after_error(error)`` after one
    that failed (None: fatal, stop), ``reset()`` when the person asks to poll now. Each
    returns the seconds until the next poll, also kept in :attr:`wait`.
    """

    interval: float
    max_interval: float
    wait: float = field(init=False)
    errors: int = field(default=0, init=False)
    """Errors in a row (0 after any poll that worked)."""
    _idle_wait: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.interval <= 0 or self.max_interval < self.interval:
            raise ValueError("need 0 < interval <= max_interval")
        self.interval = float(self.interval)
        self.max_interval = float(self.max_interval)
        self.wait = self._idle_wait = self.interval

    def reset(self) -> float:
        """Back to the normal pace (progress, or the person asked for a poll now)."""
        self.errors = 0
        self.wait = self._idle_wait = self.interval
        return self.wait

    def after_poll(self, *, progress: bool) -> float:
        """A poll worked: back to ``interval`` after progress, else the wait doubles."""
        if progress:
            return self.reset()
        self.errors = 0
        self._idle_wait = min(self._idle_wait * BACKOFF_FACTOR, self.max_interval)
        self.wait = self._idle_wait
        return self.wait

    def slowest(self) -> float:
        """A poll worked but cannot make progress (a server that ignores paging): wait the
        longest, ``max_interval``, until it is asked again."""
        self.errors = 0
        self.wait = self._idle_wait = self.max_interval
        return self.wait

    def after_error(self, error: BaseException) -> float | None:
        """A poll failed: seconds until the retry, or None when ``error`` is fatal."""
        if is_fatal(error):
            return None
        wait = min(self.interval * BACKOFF_FACTOR**self.errors, self.max_interval)
        self.errors += 1
        retry_after = error.retry_after if isinstance(error, RateLimitedError) else None
        if retry_after is not None and retry_after > 0:
            wait = max(wait, min(retry_after, RETRY_AFTER_CAP_S))
        self.wait = wait
        return wait
