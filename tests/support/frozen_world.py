"""The frozen world the snapshot tests draw: one simulator per test session (per xdist worker),
built at a fixed instant with nothing live, so every absolute time on screen is the same on
every run.

Shared, so READ ONLY: a test that writes to the platform (an infer, a webhook registration)
changes what every later snapshot of the session shows, and the order tests run in is not
fixed under xdist. Such a test starts its own with ``start_frozen_sim`` (tests/support/chatroom.py).

``frozen_sim`` is registered as a fixture in tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api_client.blahdev.shapes import LogEntry
from diagnosis import classify
from simulator.server import SimulatorServer


@pytest.fixture(scope="session")
def frozen_sim() -> Iterator[SimulatorServer]:
    """The session's frozen simulator (seed 7, anchored at ``FROZEN_MS``); never write to it."""
    from tests.support.chatroom import start_frozen_sim

    server = start_frozen_sim()
    try:
        yield server
    finally:
        server.stop()


def looping_chatroom_call(dump: Path) -> str:
    """The id of the newest short looping chatroom call in a dump of the seeded world: the call
    the inspector snapshots show (template tokens in the prompt, the loop marked in the reply)."""
    for line in reversed(dump.read_text(encoding="utf-8").splitlines()):
        entry = LogEntry.model_validate_json(line)
        kinds = {f.kind for f in classify(entry, trained_template="chatml")}
        if entry.source == "chatroom" and "loop" in kinds and len(entry.response or "") < 600:
            return entry.id
    raise AssertionError("the seeded world has a looping chatroom call")
