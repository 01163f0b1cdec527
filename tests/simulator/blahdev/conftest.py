"""Fixtures shared by the blah.dev simulator's tests (tests/simulator/blahdev/).

- ``own``: a private simulator for the module (seed 11, fast, no live activity), for tests that
  change its world;
- ``http``: a plain httpx client on the shared ``sim``'s ``/api/v1`` (a test module that needs
  another client, e.g. one on ``own`` with a key, defines its own ``http``, which wins).
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def own() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=100.0, live=False) as server:
        yield server


@pytest.fixture
def http(sim: SimulatorServer) -> Iterator[httpx.Client]:
    with sim_http.Client(base_url=sim.base_url + "/api/v1", timeout=10) as client:
        yield client
