"""Shared fixtures.

- Every test gets its own config and data directories (never the user's real ones).
- ``sim`` is one real simulator per test session (uvicorn on loopback, live activity off so
  tests are deterministic); ``fresh_sim`` starts a private one for tests that change the world.
- ``client`` is a real ``BlahClient`` talking to ``sim`` over HTTP with the council key.
- ``notifications`` records every notification the test's apps show (through the public
  ``App.notify``), toasts that have already timed out included.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from api_client.client import BlahClient
from simulator.server import SimulatorServer


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
    keyring" unless the test installs its own (tests/test_keyring_login.py)."""
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


@dataclass(frozen=True)
class Shown:
    """One notification as the app was asked to show it."""

    app: App[Any]
    message: str
    title: str
    severity: str


class NotificationLog:
    """Every ``App.notify`` call of the test, oldest first; ``messages(app)`` for one app's."""

    def __init__(self) -> None:
        self.shown: list[Shown] = []

    def messages(self, app: App[Any] | None = None) -> list[str]:
        return [n.message for n in self.shown if app is None or n.app is app]

    def titled(self, app: App[Any] | None = None) -> list[tuple[str, str]]:
        return [(n.title, n.message) for n in self.shown if app is None or n.app is app]


@pytest.fixture
def notifications(monkeypatch: pytest.MonkeyPatch) -> NotificationLog:
    """Wraps ``App.notify`` (widgets and screens notify through it), so a test reads what was
    said without Textual's private toast list, and also sees a toast that has timed out."""
    log = NotificationLog()
    real = App.notify
    signature = inspect.signature(real)

    def notify(self: App[Any], *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        given = bound.arguments
        log.shown.append(Shown(self, str(given["message"]), str(given["title"]), str(given["severity"])))
        real(self, *args, **kwargs)

    monkeypatch.setattr(App, "notify", notify)
    return log
