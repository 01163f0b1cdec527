"""Shared fixtures.

- Every test gets its own config and data directories (never the user's real ones).
- ``sim`` is one real simulator per test session (uvicorn on loopback, live activity off so
  tests are deterministic); ``fresh_sim`` starts a private one for tests that change the world.
- ``frozen_sim`` is one frozen simulator per test session for the snapshot tests, read only
  (``tests.support.frozen_world``).
- ``client`` is a real ``BlahClient`` talking to ``sim`` over HTTP with the council key.
- ``notifications`` records every notification the test's apps show (through the public
  ``App.notify``), toasts that have already timed out included.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings
from textual.app import App

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support import gc_tuning, long_first
from tests.support.frozen_world import frozen_sim  # noqa: F401  (a session fixture)
from tests.support.notify_log import NotificationLog, recording_notify
from tests.support.staggered_collection import pytest_collection  # noqa: F401  (a hook: workers import in turn)

# No per-example deadline: it is a timed assert, and a 2-core CI machine running four workers
# is several times slower than a laptop (a property test failed with DeadlineExceeded there).
hypothesis_settings.register_profile("blah-tui", deadline=None)
hypothesis_settings.load_profile("blah-tui")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(gc_tuning, "blah-tui-gc-tuning")
    config.pluginmanager.register(long_first, "blah-tui-long-first")


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLAH_TUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("BLAH_TUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("BLAH_TUI_CONFIG", raising=False)
    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    for name in list(__import__("os").environ):
        if name.startswith("BLAH_") and name not in ("BLAH_TUI_CONFIG_DIR", "BLAH_TUI_DATA_DIR"):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _no_system_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches the machine's keyring, nor sees one a previous test installed: "no
    keyring" unless the test installs its own (tests/application/session/credentials/test_keyring_login.py)."""
    import keyring
    from keyring.backends import fail

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")  # subprocesses too
    keyring.set_keyring(fail.Keyring())


@pytest.fixture(scope="session")
def sim() -> Iterator[SimulatorServer]:
    server = SimulatorServer(seed=7, speed=1.0, live=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh_sim() -> Iterator[SimulatorServer]:
    server = SimulatorServer(seed=11, speed=50.0, live=False)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def client(sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(sim.base_url, api_key=sim.council_key) as c:
        yield c


@pytest.fixture(autouse=True)
def record_notifications(monkeypatch: pytest.MonkeyPatch) -> Iterator[NotificationLog]:
    """Every test records what its apps notify (``tests.support.notify_log``)."""
    log = NotificationLog()
    monkeypatch.setattr(App, "notify", recording_notify(log))
    NotificationLog.current = log
    try:
        yield log
    finally:
        NotificationLog.current = None


@pytest.fixture
def notifications(record_notifications: NotificationLog) -> NotificationLog:
    """What the test's apps were asked to notify, timed-out toasts included."""
    return record_notifications
