"""The stored API key: ``blah-tui login`` writes it to a file only its owner can read.

The file lives beside the config (``credentials.toml``), mode 0600; looser bits on an existing
file are tightened. The key itself is never printed: callers get ``(key, "config")``.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import tomli_w

from tui.paths import config_dir


def credentials_file() -> Path:
    return config_dir() / "credentials.toml"


def _tighten(path: Path) -> None:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        path.chmod(0o600)


def store_key(key: str, path: Path | None = None) -> Path:
    if not key.strip():
        raise ValueError("the key is empty")
    path = path or credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        _tighten(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(tomli_w.dumps({"api_key": key.strip()}))
    _tighten(path)
    return path


def load_stored_key(path: Path | None = None) -> tuple[str, str] | None:
    """``(key, "config")`` when a key is stored, else None. Tightens loose permissions."""
    path = path or credentials_file()
    if not path.exists():
        return None
    _tighten(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
        return None
    key = data.get("api_key")
    return (key, "config") if isinstance(key, str) and key else None


def forget_key(path: Path | None = None) -> bool:
    path = path or credentials_file()
    if path.exists():
        path.unlink()
        return True
    return False
