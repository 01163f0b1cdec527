"""Keyring backends for tests: the machine's own keyring is never reached (tests/conftest.py)."""

from __future__ import annotations

from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    """A working keyring, in memory."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}
        self.calls = 0

    def get_password(self, service: str, username: str) -> str | None:
        self.calls += 1
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls += 1
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.calls += 1
        from keyring.errors import PasswordDeleteError

        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError("none")
