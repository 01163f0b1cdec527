"""Where archive files live, and moving a damaged one aside (never deleting it)."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from urllib.parse import urlsplit


def _slug(text: str, limit: int = 40) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")[:limit] or "x"


def archive_path(data_dir: Path | str, base_url: str, model_id: str) -> Path:
    """``<data_dir>/archives/<host>__<model>__<hash>.sqlite3``: readable host and model id
    (sanitised, so no id can reach outside the folder), plus a hash of the exact
    normalised base URL and model id so that distinct ones never share a file."""
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "local").lower()
    port = f":{parts.port}" if parts.port else ""
    norm = f"{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"
    digest = hashlib.sha256(f"{norm}\n{model_id}".encode("utf-8", "surrogatepass")).hexdigest()[:12]
    where = host + (f"-{parts.port}" if parts.port else "")
    return Path(data_dir) / "archives" / f"{_slug(where)}__{_slug(model_id)}__{digest}.sqlite3"


def move_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal``/``-shm`` companions) to ``<name>.corrupt-<time>``;
    returns the new path of the main file."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    moved = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while moved.exists():
        moved = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(moved.with_name(moved.name + suffix))
    if path.exists():
        path.rename(moved)
    return moved
