"""The stored API key: ``blah-tui login`` puts it in the system keyring where one works,
else in a file only its owner can read.

The file lives beside the config (``credentials.toml``), mode 0600; looser bits on an existing
file are tightened. When the key went to the keyring, the file records only that
(``store = "keyring"``), so a later start asks the keyring and nothing else, and a person who
never used a keyring never waits on one. The key itself is never printed: callers get
``(key, "config")`` or ``(key, "keyring")``.

One key per profile (``blah-tui login --profile NAME``): the implicit profile keeps the file's
top level and the keyring entry ``api_key`` (as before profiles existed); a named profile has
``[profiles.NAME]`` in the file and the keyring entry ``api_key:NAME``. Writing one profile's
key keeps every other profile's.
"""

from __future__ import annotations

import os
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import tomli_w

from application.session.credentials.keyring_store import (
    TIMEOUT_S,
    USERNAME,
    KeyringUnavailable,
    delete_from_keyring,
    load_from_keyring,
    store_in_keyring,
)
from application.session.paths import config_dir
from application.session.profile_names import IMPLICIT_PROFILE
from common.atomic_write import write_atomic

Where = Literal["auto", "keyring", "file"]

_SLOT_KEYS = ("api_key", "store")  # what one profile's slot of the file holds


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


def keyring_username(profile: str = IMPLICIT_PROFILE) -> str:
    """The keyring entry of a profile's key: today's entry for the implicit profile."""
    return USERNAME if profile == IMPLICIT_PROFILE else f"{USERNAME}:{profile}"


def _slot(data: dict[str, Any], profile: str) -> dict[str, Any]:
    """What the file holds for ``profile``: the top level for the implicit profile (the file
    as it always was), ``[profiles.NAME]`` for the others."""
    if profile == IMPLICIT_PROFILE:
        return {k: v for k, v in data.items() if k in _SLOT_KEYS}
    profiles = data.get("profiles")
    slot = profiles.get(profile) if isinstance(profiles, dict) else None
    return dict(slot) if isinstance(slot, dict) else {}


def _with_slot(data: dict[str, Any], profile: str, slot: dict[str, str] | None) -> dict[str, Any]:
    """``data`` with ``profile``'s slot replaced (``None``: removed); every other slot kept."""
    if profile == IMPLICIT_PROFILE:
        updated = {k: v for k, v in data.items() if k not in _SLOT_KEYS}
        return {**(slot or {}), **updated}
    updated = dict(data)
    profiles = dict(updated.get("profiles") or {})
    if slot is None:
        profiles.pop(profile, None)
    else:
        profiles[profile] = slot
    if profiles:
        updated["profiles"] = profiles
    else:
        updated.pop("profiles", None)
    return updated


def _put_slot(path: Path, profile: str, slot: dict[str, str] | None) -> None:
    data = _read(path) if path.exists() else {}
    updated = _with_slot(data, profile, slot)
    if updated:
        _write_private(path, updated)
    elif path.exists():
        path.unlink()


def store_key(key: str, path: Path | None = None, profile: str = IMPLICIT_PROFILE) -> Path:
    """Store the key in the private file (mode 0600, tightened if it was looser)."""
    if not key.strip():
        raise ValueError("the key is empty")
    path = path or credentials_file()
    _put_slot(path, profile, {"api_key": key.strip()})
    return path


def _write_private(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomli_w.dumps(data), private=True)  # 0600 from the first byte


def login_key(
    key: str,
    *,
    where: Where = "auto",
    path: Path | None = None,
    timeout: float = TIMEOUT_S,
    profile: str = IMPLICIT_PROFILE,
) -> Stored:
    """Store the key of ``profile`` for later runs: the keyring when ``where`` allows and one
    works (within ``timeout``), else the private file. A key in the other place is removed;
    other profiles' keys are kept."""
    if not key.strip():
        raise ValueError("the key is empty")
    path = path or credentials_file()
    username = keyring_username(profile)
    was_in_keyring = path.exists() and _slot(_read(path), profile).get("store") == "keyring"
    fallback: str | None = None
    if where in ("auto", "keyring"):
        try:
            backend = store_in_keyring(key.strip(), timeout, username)
        except KeyringUnavailable as problem:
            if where == "keyring":
                raise
            fallback = str(problem)
        else:
            _put_slot(path, profile, {"store": "keyring"})  # the file no longer holds this key
            return Stored("keyring", backend)
    store_key(key, path, profile)
    if was_in_keyring:
        _delete_quietly(timeout, username)
    return Stored("config", str(path), fallback)


def _read(path: Path) -> dict[str, Any]:
    _tighten(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return {}


def load_stored(path: Path | None = None, profile: str = IMPLICIT_PROFILE, *, timeout: float = TIMEOUT_S) -> StoredKey:
    """The stored key of ``profile`` and its source. Asks the keyring only when ``login`` put
    the key there, and waits at most ``timeout`` seconds for it; a silent keyring is a
    problem, not a hang."""
    path = path or credentials_file()
    if not path.exists():
        return StoredKey(None, "none")
    data = _slot(_read(path), profile)
    key = data.get("api_key")
    if isinstance(key, str) and key:
        return StoredKey(key, "config")
    if data.get("store") == "keyring":
        try:
            from_keyring = load_from_keyring(timeout, keyring_username(profile))
        except KeyringUnavailable as problem:
            return StoredKey(None, "none", f"the key is in the system keyring, but {problem}")
        if from_keyring:
            return StoredKey(from_keyring, "keyring")
        again = "blah-tui login" + ("" if profile == IMPLICIT_PROFILE else f" --profile {profile}")
        return StoredKey(None, "none", f"the system keyring no longer holds the key: run `{again}` again")
    return StoredKey(None, "none")


def stored_where(path: Path | None = None, profile: str = IMPLICIT_PROFILE) -> str:
    """Where ``profile``'s key is stored, without reading it: "config", "keyring" or "none"."""
    path = path or credentials_file()
    if not path.exists():
        return "none"
    data = _slot(_read(path), profile)
    if isinstance(data.get("api_key"), str) and data["api_key"]:
        return "config"
    return "keyring" if data.get("store") == "keyring" else "none"


def load_stored_key(path: Path | None = None, *, timeout: float = TIMEOUT_S) -> tuple[str, str] | None:
    """``(key, "config" | "keyring")`` when a key is stored and readable, else None."""
    found = load_stored(path, timeout=timeout)
    return (found.key, found.source) if found.key else None


def _delete_quietly(timeout: float, username: str = USERNAME) -> None:
    """Remove the key from the keyring; an unreachable keyring no longer matters once the
    file stops pointing at it."""
    try:
        delete_from_keyring(timeout, username)
    except KeyringUnavailable:
        pass


def forget_key(path: Path | None = None, *, timeout: float = TIMEOUT_S, profile: str = IMPLICIT_PROFILE) -> bool:
    """Remove ``profile``'s stored key, from the file and from the keyring when it was put
    there; the other profiles' keys stay."""
    path = path or credentials_file()
    if not path.exists():
        return False
    slot = _slot(_read(path), profile)
    if not slot:
        return False
    _put_slot(path, profile, None)
    if slot.get("store") == "keyring":
        _delete_quietly(timeout, keyring_username(profile))
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
