"""Python's garbage collector, tuned for a test worker (a pytest plugin, registered by
tests/conftest.py).

A worker holds half a million long-lived objects (Textual, hypothesis, schemathesis, the collected
tests, the simulators' worlds) and every test makes and drops a Textual app. With the default
thresholds the collector ran a full pass over all of them every few seconds: measured on five
app-heavy test files, 20 s of 69 s of CPU was garbage collection, 17 s of it in 36 full passes of
about half a second each. Freezing what exists once the tests are collected (``gc.freeze``: it is
never garbage) and collecting the young generations less often brought that to 5 s, and the
files' CPU to 53 s; the app and its tests behave the same, since only the timing of collection
changes. A worker's peak memory stayed under 1 GB (5 workers, the whole suite).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

# (young objects between collections, young collections per middle one, middle per full one)
TEST_WORKER_THRESHOLDS = (10_000, 50, 100)


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(*TEST_WORKER_THRESHOLDS)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _collector_thresholds_as_they_were() -> Iterator[None]:
    """A test that runs the app the person's way (``BlahApp.run`` with ``App.run`` stubbed,
    so the app never unmounts) leaves the worker's thresholds as they were: the app's idle
    collection switches the oldest generation's automatic collections off."""
    saved = gc.get_threshold()
    yield
    if gc.get_threshold() != saved:
        gc.set_threshold(*saved)
