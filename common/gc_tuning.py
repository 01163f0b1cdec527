"""Cyclic garbage collection on an export's own terms (``blah-tui export``, ``blah-tui blobfish
export``), shared so that both keep a caller's frozen objects frozen.

An export allocates millions of short-lived containers (each page's dicts and lists, the
archive's row tuples, each request's futures and buffers), freed by reference counting; they
only trigger automatic collections, thousands of them, the older generations walking
everything still alive (the imported modules' objects among them): 0.3-0.6 s of CPU per 100k
blah.dev calls, measured. While the export runs, the objects alive at its start (imports) are
frozen out of every collection, automatic collection is off, and the young generations are
collected every ``every`` pages or documents: the HTTP client's per-request cycles (each
holding its body) are freed as before, so memory stays as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["few_cycle_collections"]


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
