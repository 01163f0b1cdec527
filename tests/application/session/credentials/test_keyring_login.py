"""`blah-tui login` uses the system keyring where one works, the private file where none
does, and never hangs on a keyring that does not answer; the key's source is named, never
the key."""

from __future__ import annotations

import io
import stat
import threading
from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from keyring.backends import fail

from application.session.credentials.keyring_store import SERVICE, USERNAME
from application.session.credentials.stored_key import credentials_file, load_stored, login_key, resolve_key
from cli.main import main
from tests.support.keyrings import MemoryKeyring
from tests.support.notify_log import NotificationLog

KEY = "blah_keyring_test_5e1d0c9b8a7f"


class HangingKeyring(MemoryKeyring):
    """A keyring that never answers (a locked Secret Service waiting on a prompt nobody sees)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def get_password(self, service: str, username: str) -> str | None:
        self.calls += 1
        self.release.wait(60)
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls += 1
        self.release.wait(60)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def hanging_keyring() -> Iterator[HangingKeyring]:
    previous = keyring.get_keyring()
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    yield backend
    backend.release.set()
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def _login(monkeypatch: pytest.MonkeyPatch, *flags: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(KEY + "\n"))
    return main(["login", *flags])


def test_login_puts_the_key_in_a_working_keyring_and_only_a_pointer_in_the_file(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    assert _login(monkeypatch) == 0
    said = capsys.readouterr().out
    assert "system keyring" in said and KEY not in said
    assert memory_keyring.items[(SERVICE, USERNAME)] == KEY
    path = credentials_file()
    assert KEY not in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    found = resolve_key(None)
    assert (found.key, found.source, found.problem) == (KEY, "keyring", None)

    assert main(["status"]) == 0
    status = capsys.readouterr().out
    assert "source: the system keyring" in status and KEY not in status and KEY[-8:] not in status

    assert main(["logout"]) == 0
    assert (SERVICE, USERNAME) not in memory_keyring.items and not path.exists()
    assert resolve_key(None).key is None


def test_the_environment_wins_and_the_keyring_is_not_even_asked(
    hanging_keyring: HangingKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    credentials_file().parent.mkdir(parents=True, exist_ok=True)
    credentials_file().write_text('store = "keyring"\n', encoding="utf-8")
    monkeypatch.setenv("EVALS_BLAH_API_KEY", "from-env")
    assert (resolve_key(None).key, resolve_key(None).source) == ("from-env", "env")
    assert (resolve_key("from-flag").key, resolve_key("from-flag").source) == ("from-flag", "flag")
    assert hanging_keyring.calls == 0


def test_without_a_keyring_login_writes_the_private_file_and_says_why(
    no_keyring: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    assert _login(monkeypatch, "--keyring") == 2  # asked for the keyring only: nothing written
    assert "no system keyring" in capsys.readouterr().err and not credentials_file().exists()
    assert _login(monkeypatch) == 0
    said = capsys.readouterr().out
    assert str(credentials_file()) in said and "no system keyring" in said
    assert stat.S_IMODE(credentials_file().stat().st_mode) == 0o600
    assert (resolve_key(None).key, resolve_key(None).source) == (KEY, "config")


def test_a_hanging_keyring_costs_a_bounded_wait_then_the_file(hanging_keyring: HangingKeyring) -> None:
    stored = login_key(KEY, timeout=0.3)
    assert stored.kind == "config" and "did not answer within 0.3 s" in (stored.fallback or "")
    assert load_stored(timeout=0.3).key == KEY  # the file is read; the keyring not asked


def test_a_key_in_a_keyring_that_stops_answering_is_a_problem_not_a_hang(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert login_key(KEY).kind == "keyring"
    hanging = HangingKeyring()
    keyring.set_keyring(hanging)
    try:
        found = load_stored(timeout=0.3)
    finally:
        hanging.release.set()
    assert found.key is None and found.source == "none"
    assert found.problem is not None and "did not answer within 0.3 s" in found.problem


def test_login_to_the_file_removes_the_copy_in_the_keyring(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    assert _login(monkeypatch) == 0 and (SERVICE, USERNAME) in memory_keyring.items
    assert _login(monkeypatch, "--file") == 0
    assert (SERVICE, USERNAME) not in memory_keyring.items
    assert resolve_key(None).source == "config"


def test_the_app_starts_when_the_keyring_hangs_and_says_why(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, sim: Any, notifications: NotificationLog
) -> None:
    """The key went to the keyring, which then stops answering: the app still opens (after a
    bounded wait), says there is no key and why, and the palette names the source."""
    from tests.support.palette import run_hit
    from tests.support.palette_config import launch
    from tests.support.runs import wait_for

    monkeypatch.delenv("EVALS_BLAH_API_KEY", raising=False)
    assert login_key(KEY).kind == "keyring"
    hanging = HangingKeyring()
    keyring.set_keyring(hanging)
    monkeypatch.setattr("application.session.credentials.stored_key.TIMEOUT_S", 0.3)
    monkeypatch.setattr("application.session.credentials.stored_key.load_stored.__kwdefaults__", {"timeout": 0.3})
    seen: dict[str, Any] = {}

    async def inspect(app: Any, pilot: Any) -> None:
        def said() -> list[str]:
            return notifications.messages(app)

        await wait_for(pilot, lambda: any("did not answer" in m for m in said()), what="the keyring problem")
        seen["source"] = app.ctx.key_source
        await run_hit(pilot, "API key", lambda text: text.startswith("API key: where it comes from"))
        await wait_for(pilot, lambda: any(m.startswith("no API key; source: none") for m in said()), what="the source")
        seen["said"] = said()

    try:
        launch(monkeypatch, ["--base-url", sim.base_url, "--model", sim.person_model_id], inspect)
    finally:
        hanging.release.set()
    assert seen["source"] == "none"
    assert all(KEY not in m for m in seen["said"])
