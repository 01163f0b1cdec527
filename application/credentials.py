"""The stored API key: ``blah-tui login`` puts it in the system keyring where one works,
else in a file only its owner can read.

The file lives beside the config (``credentials.toml``), mode 0600; looser bits on an existing
file are tightened. When the key went to the keyring, the file records only that
(``store = "keyring"``), so a later start asks the keyring and nothing else, and a person who
never used a keyring never waits on one. The key itself is never printed: callers get
``(key, "config")`` or ``(key, "keyring")``.
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import tomli_w

from application.keyring_store import TIMEOUT_S, KeyringUnavailable, delete_from_keyring, load_from_keyring, store_in_keyring
from application.paths import config_dir

Where = Literal["auto", "keyring", "file"]


@dataclass(frozen=True)
class Stored:
    """Where ``login`` put the key: ``kind`` "keyring" or "config"; ``detail`` the backend or file;
    ``fallback`` why the keyring was not used when it was wanted."""

    kind: str
    detail: str
    fallback: str | None = None


@dataclass(frozen=True)
class StoredKey:
    """What a start finds: the key and its source, or None and (maybe) why it is missing."""

    key: str | None
    source: str
    problem: str | None = None


def credentials_file() -> Path:
    return config_dir() / "credentials.toml"


def _tighten(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        path.chmod(0o600)


def store_key(key: str, path: Path | None = None) -> Path:
    """Store the key in the private file (mode 0600, tightened if it was looser)."""
    if not key.strip():
        raise ValueError("the key is empty")
    path = path or credentials_file()
    _write_private(path, {"api_key": key.strip()})
    return path


def _write_private(path: Path, data: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        _tighten(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(tomli_w.dumps(data))
    _tighten(path)


def login_key(key: str, *, where: Where = "auto", path: Path | None = None, timeout: float = TIMEOUT_S) -> Stored:
    """Store the key for later runs: the keyring when ``where`` allows and one works (within
    ``timeout``), else the private file. A key in the other place is removed."""
    if not key.strip():
        raise ValueError("the key is empty")
    path = path or credentials_file()
    was_in_keyring = path.exists() and _read(path).get("store") == "keyring"
    fallback: str | None = None
    if where in ("auto", "keyring"):
        try:
            backend = store_in_keyring(key.strip(), timeout)
        except KeyringUnavailable as problem:
            if where == "keyring":
                raise
            fallback = str(problem)
        else:
            _write_private(path, {"store": "keyring"})  # the file no longer holds a key
            return Stored("keyring", backend)
    store_key(key, path)
    if was_in_keyring:
        _delete_quietly(timeout)
    return Stored("config", str(path), fallback)


def _read(path: Path) -> dict[str, object]:
    _tighten(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return {}


def load_stored(path: Path | None = None, *, timeout: float = TIMEOUT_S) -> StoredKey:
    """The stored key and its source. Asks the keyring only when ``login`` put the key there,
    and waits at most ``timeout`` seconds for it; a silent keyring is a problem, not a hang."""
    path = path or credentials_file()
    if not path.exists():
        return StoredKey(None, "none")
    data = _read(path)
    key = data.get("api_key")
    if isinstance(key, str) and key:
        return StoredKey(key, "config")
    if data.get("store") == "keyring":
        try:
            from_keyring = load_from_keyring(timeout)
        except KeyringUnavailable as problem:
            return StoredKey(None, "none", f"the key is in the system keyring, but {problem}")
        if from_keyring:
            return StoredKey(from_keyring, "keyring")
        return StoredKey(None, "none", "the system keyring no longer holds the key: run `blah-tui login` again")
    return StoredKey(None, "none")


def load_stored_key(path: Path | None = None, *, timeout: float = TIMEOUT_S) -> tuple[str, str] | None:
    """``(key, "config" | "keyring")`` when a key is stored and readable, else None."""
    found = load_stored(path, timeout=timeout)
    return (found.key, found.source) if found.key else None


def _delete_quietly(timeout: float) -> None:
    """Remove the key from the keyring; an unreachable keyring no longer matters once the
    file stops pointing at it."""
    try:
        delete_from_keyring(timeout)
    except KeyringUnavailable:
        pass


def forget_key(path: Path | None = None, *, timeout: float = TIMEOUT_S) -> bool:
    """Remove the stored key, from the file and from the keyring when it was put there."""
    path = path or credentials_file()
    if not path.exists():
        return False
    in_keyring = _read(path).get("store") == "keyring"
    path.unlink()
    if in_keyring:
        _delete_quietly(timeout)
    return True


def resolve_key(flag: str | None) -> StoredKey:
    """Precedence: flag > $EVALS_BLAH_API_KEY > stored (file or keyring). The stored key is
    only looked up when neither of the others is given; a keyring that does not answer makes
    a ``problem``, not a hang."""
    if flag:
        return StoredKey(flag, "flag")
    env = os.environ.get("EVALS_BLAH_API_KEY")
    if env:
        return StoredKey(env, "env")
    return load_stored()
