"""One place that tells the person a run ended (notification + optional terminal bell).

Only runs the person follows are news: the ones started, resumed or cancelled from this app,
and the ones opened in a watch screen (not every run on the platform: the simulator, like
other people, starts runs of its own). Both the runs list and a run's watch screen follow
runs; whichever sees a transition first announces it, the other stays quiet. One notifier
per app (kept in a weak map, so nothing has to be added to the app class).
``bell_on_run_end`` in the session settings (default True) rings the terminal bell with the
notification.
"""

from __future__ import annotations

import time
from typing import Literal
from weakref import WeakKeyDictionary

from textual.app import App

from application.runs.blah.watch import ACTIVE_STATUSES
from widgets.safe_text import one_line

__all__ = ["RunNotifier", "notifier_for"]

Severity = Literal["information", "warning", "error"]


class RunNotifier:
    """Announces each (run, status) transition once; forgets a run when it becomes active again."""

    def __init__(self) -> None:
        self._said: dict[tuple[str, str], float] = {}  # (run, status) -> when announced (monotonic)
        self.announced: list[tuple[str, str, str]] = []  # (run_id, status, message), oldest first
        self._followed: set[str] = set()

    def follow(self, run_id: str) -> None:
        """The person started, resumed, cancelled or opened this run: its end is news."""
        self._followed.add(run_id)

    def follows(self, run_id: str) -> bool:
        return run_id in self._followed

    def claim(self, run_id: str, status: str | None) -> bool:
        """The person is about to be told this run is ``status`` (the answer to their own cancel
        or resume): the same transition seen by a poll is not announced again. False when a
        poll got there first (the caller then says nothing more)."""
        if status is None:
            return True
        if (run_id, status) in self._said:
            return False
        self._said[(run_id, status)] = time.monotonic()
        return True

    def note_status(self, run_id: str, status: str | None, *, seen_at: float | None = None) -> None:
        """A run was seen queued/running again: its next end is news again.

        ``seen_at`` is when the request that saw it was sent: an answer older than the
        announcement (a slow list request racing the watch screen) does not count.
        """
        if status not in ACTIVE_STATUSES:
            return
        when = time.monotonic() if seen_at is None else seen_at
        self._said = {key: at for key, at in self._said.items() if key[0] != run_id or at > when}

    def announce(
        self,
        app: App[object],
        run_id: str,
        status: str,
        message: str,
        severity: Severity,
        *,
        bell: bool,
    ) -> bool:
        """Notify (and ring) unless this transition was already announced. True when announced."""
        key = (run_id, status)
        if key in self._said:
            return False
        self._said[key] = time.monotonic()
        text = one_line(message, max_len=300)
        self.announced.append((run_id, status, text))
        app.notify(text, title=f"Run {one_line(status, max_len=20)}", severity=severity, markup=False, timeout=10)
        if bell:
            app.bell()
        return True


_NOTIFIERS: WeakKeyDictionary[App[object], RunNotifier] = WeakKeyDictionary()


def notifier_for(app: App[object]) -> RunNotifier:
    """The app's one notifier."""
    notifier = _NOTIFIERS.get(app)
    if notifier is None:
        notifier = _NOTIFIERS[app] = RunNotifier()
    return notifier
