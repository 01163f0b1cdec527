"""The one reload scheduler of the screens: when to read a list (or a run) again.

Every screen that refreshes on a timer holds a :class:`Reload`: after a read that worked it
says whether anything is still moving (and whether this read brought anything new), after a
read that failed it passes the error. The pace is :class:`api_client.transport.polling.Backoff`'s, the
same as the log tail's and :class:`application.poller.Poller`'s: back to ``interval`` on
progress, doubling up to ``max_interval`` while nothing changes or errors repeat, a 429's
``Retry-After`` honoured, the server's own poll hint (``hint``) never undercut, and no timer
at all after an error that reading again cannot fix (the key refused, the thing gone): the
person presses r.

Only one timer is ever armed: a new schedule replaces the last.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.message_pump import MessagePump
from textual.timer import Timer

from api_client.transport.polling import Backoff

__all__ = ["Reload", "retry_note"]


def retry_note(delay: float | None) -> str:
    """What follows a failed read's message: when it is tried again, or that r does it."""
    return "r tries again" if delay is None else f"trying again in {delay:.0f} s"


class Reload:
    """One refresh timer on ``host`` calling ``reload``, paced by a :class:`Backoff`.

    ``idle``: the wait when nothing is moving (a setting read at each use, as the person may
    change it), or None to stop refreshing then.
    """

    def __init__(
        self,
        host: MessagePump,
        reload: Callable[[], Any],
        *,
        interval: float,
        max_interval: float,
        idle: Callable[[], float] | None = None,
    ) -> None:
        self.backoff = Backoff(interval=interval, max_interval=max(max_interval, interval))
        self._host = host
        self._reload = reload
        self._idle = idle
        self._timer: Timer | None = None

    def now(self) -> None:
        """The person asked for a read now: back to the normal pace."""
        self.backoff.reset()

    def after_read(self, *, active: bool, progress: bool = True, hint: float | None = None) -> float | None:
        """A read worked. ``active``: something is still moving (read again at the backoff's
        pace, never sooner than ``hint``); else the idle wait, or no timer. The wait, if any."""
        if active:
            delay: float | None = self.backoff.after_poll(progress=progress, hint=hint)
        else:
            self.backoff.reset()
            delay = self._idle() if self._idle is not None else None
        self.arm(delay)
        return delay

    def after_error(self, error: BaseException, *, hint: float | None = None) -> float | None:
        """A read failed: the wait before the next one, or None (fatal: no timer, r asks)."""
        delay = self.backoff.after_error(error, hint=hint)
        self.arm(delay)
        return delay

    def arm(self, delay: float | None) -> None:
        """Read again in ``delay`` seconds (None: not at all), replacing any armed timer."""
        self.stop()
        if delay is not None:
            self._timer = self._host.set_timer(delay, self._reload)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
