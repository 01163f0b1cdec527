"""Full garbage collections while the person is idle, not between a key and its frame.

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
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

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
