"""The API key in the system keyring (macOS Keychain, Windows Credential Locker, Secret
Service on Linux desktops), through the ``keyring`` library, never waited on for long.

A keyring can hang: a locked Secret Service waiting for an unlock prompt no one sees, a D-Bus
session that never answers over SSH. Every call here runs in a daemon thread and is given
``timeout`` seconds; past that the caller gets :class:`KeyringUnavailable` with the reason
and goes on (the thread is left to finish or hang on its own). ``keyring`` itself is imported
only here, only when a keyring is actually used, so start-up does not pay for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "SERVICE",
    "TIMEOUT_S",
    "USERNAME",
    "KeyringUnavailable",
    "delete_from_keyring",
    "keyring_problem",
    "load_from_keyring",
    "store_in_keyring",
]

SERVICE = "blah-tui"
USERNAME = "api_key"
TIMEOUT_S = 3.0

T = TypeVar("T")


class KeyringUnavailable(Exception):
    """No usable keyring, or it failed or did not answer in time (the message says which)."""


def _bounded(call: Callable[[], T], timeout: float, what: str) -> T:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as error:
            box["error"] = error

    thread = threading.Thread(target=run, name=f"keyring-{what}", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise KeyringUnavailable(f"the system keyring did not answer within {timeout:g} s ({what})")
    if "error" in box:
        error = box["error"]
        if isinstance(error, KeyringUnavailable):
            raise error
        # the type only: a backend's message could quote what it was given
        raise KeyringUnavailable(f"the system keyring failed ({what}): {type(error).__name__}") from None
    return box["value"]


def _backend() -> Any:
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    chained = getattr(backend, "backends", None)
    if isinstance(backend, fail.Keyring) or (chained is not None and not chained):
        raise KeyringUnavailable("no system keyring on this machine")
    return backend


def keyring_problem(timeout: float = TIMEOUT_S) -> str | None:
    """None when a keyring is there and answers; else why not, in a few words."""
    try:
        _bounded(_backend, timeout, "looking for a keyring")
    except KeyringUnavailable as problem:
        return str(problem)
    return None


def store_in_keyring(key: str, timeout: float = TIMEOUT_S, username: str = USERNAME) -> str:
    """Store the key; returns the backend's name (e.g. "SecretService Keyring"). ``username``:
    the entry (one per profile: ``application.session.credentials.stored_key.keyring_username``)."""

    def store() -> str:
        backend = _backend()
        backend.set_password(SERVICE, username, key)
        if backend.get_password(SERVICE, username) != key:
            raise KeyringUnavailable("the keyring did not keep the key")
        return str(getattr(backend, "name", type(backend).__name__))

    return _bounded(store, timeout, "storing the key")


def load_from_keyring(timeout: float = TIMEOUT_S, username: str = USERNAME) -> str | None:
    """The stored key, or None when the keyring holds none."""
    value = _bounded(lambda: _backend().get_password(SERVICE, username), timeout, "reading the key")
    return value if isinstance(value, str) and value else None


def delete_from_keyring(timeout: float = TIMEOUT_S, username: str = USERNAME) -> bool:
    """Remove the key; True when there was one."""

    def delete() -> bool:
        from keyring.errors import PasswordDeleteError

        backend = _backend()
        try:
            backend.delete_password(SERVICE, username)
        except PasswordDeleteError:
            return False
        return True

    return _bounded(delete, timeout, "removing the key")
