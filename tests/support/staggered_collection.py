"""Each xdist worker imports the test modules starting at a different point (a pytest plugin,
registered by tests/conftest.py).

Every worker collects every test file, and on a fresh clone (CI) every one of those imports
rewrites the module's asserts and compiles it: ~12 s of CPU per worker on this suite. pytest
caches the rewritten module as soon as it is made, so when worker k of n starts its imports k/n
of the way down the list, each module is rewritten about once and the other workers load the
cached copy (CI saves ~2/3 of that work, on a warm checkout nothing changes). The modules are the
ones pytest would import next anyway, in pytest's own import mode; an import that fails is left
for pytest's collection to report as it always does.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parent.parent


def worker_order(names: list[str], worker: int, workers: int) -> list[str]:
    """``names`` rotated to start ``worker/workers`` of the way down."""
    if workers <= 1 or not names:
        return names
    start = len(names) * worker // workers
    return names[start:] + names[:start]


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    worker_id = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw2"
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    asked = [(session.config.invocation_params.dir / arg).resolve() for arg in session.config.args]
    if not worker_id.startswith("gw") or workers <= 1 or asked != [_TESTS]:
        return  # not a worker, or a run of chosen tests: pytest imports only what it needs
    paths = {path.stem: path for path in _TESTS.rglob("test_*.py") if "bench" not in path.parts}
    for name in worker_order(sorted(paths), int(worker_id[2:]), workers):
        folder = str(paths[name].parent)  # where pytest's "prepend" import mode looks for it
        if folder not in sys.path:
            sys.path.insert(0, folder)
        try:
            importlib.import_module(name)
        except Exception:
            continue
