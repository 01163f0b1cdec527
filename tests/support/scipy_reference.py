"""scipy, the reference some tests check the app's statistics against, imported when a test
first asks for it rather than when its file is collected: every xdist worker collects every
file, and ``import scipy.stats`` costs ~0.7 s of CPU, paid by six workers for files one runs."""

from __future__ import annotations

import functools
from typing import Any


@functools.cache
def scipy_stats() -> Any:
    """The ``scipy.stats`` module."""
    import scipy.stats

    return scipy.stats
