"""Watching a run to its end, and saying the end: a blah.dev run, a Blobfish benchmark run or an
errorbar bake-off, each said the same way (:class:`RunEnd`: a notification titled
``<noun> <status>``, "Run completed", "Benchmark run interrupted", "Bake-off DONE", whose text
names the run and says what happened; the terminal bell with it).

:class:`WatchScreen` is the base of the three watch screens (``tui.screens.runs.watch``,
``tui.screens.runs.bench.watch``, ``tui.screens.bakeoffs.watch``): the run it watches, following
it, and its end said through :func:`announce_end`. How each watch reads its run stays its own
(the app's ``Poller``, the server-paced ``watch_suite``, ``Reload``).

Only runs the person follows are news: the ones started, resumed or cancelled from this app,
and the ones opened in a watch screen (not every run on the platform: the simulator, like
other people, starts runs of its own). Both the runs list and a watch screen follow runs;
whichever sees a transition first announces it, the other stays quiet. One notifier per app
(kept in a weak map, so nothing has to be added to the app class). ``bell_on_run_end`` in the
session settings (default True) rings the terminal bell with the notification.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar, Literal
from weakref import WeakKeyDictionary

from textual.app import App

from application.runs.blah.watch import ACTIVE_STATUSES
from tui.base_screen import BlahScreen
from widgets.safe_text import one_line

__all__ = [
    "BAKEOFF",
    "BENCH_RUN",
    "BLAH_RUN",
    "SCREENING",
    "RunEnd",
    "RunNotifier",
    "Severity",
    "WatchScreen",
    "announce_end",
    "notifier_for",
]

Severity = Literal["information", "warning", "error"]

BLAH_RUN = "Run"
BENCH_RUN = "Benchmark run"
BAKEOFF = "Bake-off"
SCREENING = "Screening"
"""What an announcement calls each kind of run (its title, and the first words of its text)."""


@dataclass(frozen=True, slots=True)
class RunEnd:
    """A run's end (or stall) as it is announced."""

    key: str
    """The run in the notifier: a blah.dev run id, ``blobfish:<slug>:<id>``, ``errorbar:<id>``."""
    noun: str
    """What the run is called: "Run", "Benchmark run", "Bake-off", "Screening"."""
    status: str
    message: str
    """One sentence naming the run and what happened ("Run r1 completed: 38 of 38 items.")."""
    severity: Severity

    @property
    def title(self) -> str:
        return f"{self.noun} {one_line(self.status, max_len=20)}"


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

    def announce(self, app: App[object], end: RunEnd, *, bell: bool) -> bool:
        """Notify (and ring) unless this transition was already announced. True when announced."""
        key = (end.key, end.status)
        if key in self._said:
            return False
        self._said[key] = time.monotonic()
        text = one_line(end.message, max_len=300)
        self.announced.append((end.key, end.status, text))
        app.notify(text, title=end.title, severity=end.severity, markup=False, timeout=10)
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


def announce_end(app: App[object], end: RunEnd, *, bell: bool) -> bool:
    """Say ``end`` once, app-wide: the notification, and the bell when ``bell``. True when said."""
    return notifier_for(app).announce(app, end, bell=bell)


class WatchScreen(BlahScreen):
    """One run, watched to its end; subclasses name it (``NOUN``) and may key it (``end_key``)."""

    NOUN: ClassVar[str] = BLAH_RUN
    """What the announcement calls the run."""

    def __init__(self, run_id: str) -> None:
        super().__init__()
        self.run_id = run_id

    @property
    def end_key(self) -> str:
        """The run in the app's notifier (the Runs list uses the same key for the same run)."""
        return self.run_id

    def follow_end(self) -> None:
        """The person watches this run: its end is news."""
        notifier_for(self.app).follow(self.end_key)

    def run_end(self, status: str, message: str, severity: Severity, *, noun: str | None = None) -> RunEnd:
        return RunEnd(self.end_key, noun or self.NOUN, status, message, severity)

    def announce_end(self, end: RunEnd) -> bool:
        """The end said once: the notification, and the bell unless ``bell_on_run_end`` is off."""
        return announce_end(self.app, end, bell=self.ctx.settings.bell_on_run_end)
