"""The order the workers take test files in (a pytest plugin, registered by tests/conftest.py):
the files holding a ``slow`` test first, then the others by their number of tests, most first.

The workers take whole files in collection order (``--dist loadfile --no-loadscope-reorder`` in
pyproject's addopts). xdist's own reordering puts the files with most tests first, which sent the
25-second soak (one test) last: measured on 5 workers, the run ended 26 s after every other file
had. The longest files now start first and run beside the rest; after them xdist's rule is kept.
The order within a file is pytest's, and the order is the same on every worker, as xdist requires.
"""

from __future__ import annotations

from collections import Counter

import pytest


def long_files_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the files holding a ``slow``-marked test first, then the files with the
    most tests; stable, so each file's tests stay together and in their order."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    tests_in = Counter(item.path for item in items)
    return sorted(items, key=lambda item: (item.path not in slow_files, -tests_in[item.path]))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = long_files_first(items)
