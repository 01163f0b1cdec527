"""Every tuning of CPython's cyclic garbage collector, in one place (no Textual, no product
import): who turns it off, freezes what, and collects when.

1. The app's start (:func:`collector_off_for_startup`, then :func:`startup_done`). The app's
   imports and the session it opens make some 50,000 objects that live as long as the process
   and next to no garbage, yet the collector ran ~120 times over them: 50-65 ms before the
   first frame. It is off from the command line's start until the app runs, which freezes what
   is alive (every later full collection skips it: the Logs screen's first frame over a million
   calls came ~45 ms sooner, CPU, loaded machine) and turns it on again.

2. Full collections only while the person is idle (:class:`IdleCollector`).
   CPython's cyclic collector now and then collects its oldest generation: a walk over every
   object the process holds (the app's widgets, a loaded 2,000-step rollout, the lists' caches).
   In the app that walk took 45-72 ms, and whichever key arrived during it waited: 3 of 60 ``n``
   presses on a replay took 30-52 ms to their frame against a median of 5 ms (measured with
   ``gc.callbacks``; bench_replay.py). The young generations are cheap (well under a millisecond)
   and keep running as before; only the oldest generation's automatic collection is switched off,
   and the app collects it itself once no key, click or scroll has come for ``IDLE_SECONDS``.
   Someone who never pauses still gets one after ``OVERDUE`` young-generation passes (ten times
   the interpreter's own cadence), so cyclic garbage cannot pile up without bound.

   No Textual here: the app (``tui.app.BlahApp.run``, after its start-up ``gc.freeze``) installs it,
   ticks it on a timer and tells it of every input event; tests that use ``run_test`` keep
   their process's own collector settings unless they install it.

3. An export's own terms (:func:`few_cycle_collections`).
   An export allocates millions of short-lived containers (each page's dicts and lists, the
   archive's row tuples, each request's futures and buffers), freed by reference counting; they
   only trigger automatic collections, thousands of them, the older generations walking
   everything still alive (the imported modules' objects among them): 0.3-0.6 s of CPU per 100k
   blah.dev calls, measured. While the export runs, the objects alive at its start (imports) are
   frozen out of every collection, automatic collection is off, and the young generations are
   collected every ``every`` pages or documents: the HTTP client's per-request cycles (each
   holding its body) are freed as before, so memory stays as it was.

4. Digesting a whole history (:func:`collector_off`, :func:`worker_without_collector`): millions
   of short-lived objects and a growing digest, none in a cycle; reference counting frees them,
   and the collector's passes over the digest were ~2% of a worker's CPU (0.78 s in 356 passes
   over 500k calls, measured).

5. The program's exit (:func:`exit_without_collection`).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

__all__ = [
    "CHECK_SECONDS",
    "IdleCollector",
    "collector_off",
    "collector_off_for_startup",
    "exit_without_collection",
    "few_cycle_collections",
    "startup_done",
    "worker_without_collector",
]


# ---------------------------------------------------------------------------- 1. the app's start


@contextmanager
def collector_off_for_startup() -> Iterator[None]:
    """The collector off while the app's modules are imported and its session is built; on
    again afterwards (the app itself turns it on earlier, in :func:`startup_done`)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def startup_done() -> None:
    """The app is about to run: freeze what the start left alive, and collect again."""
    gc.freeze()
    gc.enable()


# ---------------------------------------------------------------------------- 2. idle collections

IDLE_SECONDS = 1.0
CHECK_SECONDS = 0.5
DUE = 10
"""Middle-generation passes since the last full collection after which one is worth doing
(the interpreter's default threshold for the oldest generation)."""
OVERDUE = 100
_NEVER = 2**30  # an oldest-generation threshold no count reaches


class IdleCollector:
    """Owns the oldest generation's collections while installed (one per process)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_input = clock()
        self._saved: tuple[int, int, int] | None = None
        self.collections = 0

    @property
    def installed(self) -> bool:
        return self._saved is not None

    def install(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            young, middle, _ = self._saved
            gc.set_threshold(young, middle, _NEVER)

    def uninstall(self) -> None:
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def input_seen(self) -> None:
        self._last_input = self._clock()

    def tick(self) -> bool:
        """Collect the oldest generation when it is due and the person is idle, or when it is
        overdue; whether it collected."""
        if self._saved is None or not gc.isenabled():
            return False
        passes = gc.get_count()[2]
        idle = self._clock() - self._last_input >= IDLE_SECONDS
        if (passes >= DUE and idle) or passes >= OVERDUE:
            gc.collect()
            self.collections += 1
            return True
        return False


# ---------------------------------------------------------------------------- 3. an export


@contextmanager
def few_cycle_collections(every: int) -> Iterator[Callable[[], None]]:
    """Yields what to call after each page (or document): every ``every``-th call collects the
    young generations. Collection is as it was afterwards (on if it was on)."""
    done = 0

    def after_page() -> None:
        nonlocal done
        done += 1
        if done % every == 0:
            gc.collect(1)

    was_enabled = gc.isenabled()
    # What is alive now (imports) is never garbage: frozen, no collection walks it. A caller
    # that froze its own objects already (a test worker, an embedding program) keeps them
    # frozen: unfreezing would thaw everything, theirs too.
    freeze_here = gc.get_freeze_count() == 0
    if freeze_here:
        gc.freeze()
    gc.disable()
    try:
        yield after_page
    finally:
        if was_enabled:
            gc.enable()
        if freeze_here:
            gc.unfreeze()


# ---------------------------------------------------------------------------- 4. digesting


@contextmanager
def collector_off() -> Iterator[None]:
    """The collector off for a digest in this process; as it was afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def worker_without_collector() -> None:
    """A process pool's initializer: its workers digest without the collector."""
    gc.disable()


# ---------------------------------------------------------------------------- 5. the exit


def exit_without_collection(code: int) -> NoReturn:
    """End the program with ``code``, without the interpreter's last full collection.

    At exit CPython collects every generation once more, walking every object still alive
    (tens of thousands after a command's imports and work): 40-60 ms after a Blobfish export's
    last byte was written, measured, when nothing of ours is left to collect (files are
    closed and archives committed before ``main`` returns). Freezing what is alive moves it
    out of that walk; objects are still released as the interpreter tears its modules down, and
    standard output and atexit handlers are flushed and run as before. Only for the program
    itself: a program or test that calls ``cli.main.main`` in its own process keeps its
    collector as it was."""
    gc.freeze()
    raise SystemExit(code)
