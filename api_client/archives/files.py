"""Where archive files live, what each one holds (for ``blah-tui archives``), deleting the
ones a person names, and moving a damaged one aside (never deleting it unasked)."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ARCHIVE_SUFFIX = ".sqlite3"
COMPANIONS = ("-wal", "-shm")


def _slug(text: str, limit: int = 40) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")[:limit] or "x"


PROFILES_FOLDER = "profiles"
"""``<data_dir>/archives/profiles/<NAME>/``: the archives of the profile ``[profiles.NAME]``."""


def profile_archives_dir(data_dir: Path | str, profile: str = "") -> Path:
    """The folder of a profile's archives: ``<data_dir>/archives`` itself for today's implicit
    blah.dev profile (``""``, so archives made before profiles keep working), else
    ``<data_dir>/archives/profiles/<NAME>`` (sanitised: no name reaches outside the folder)."""
    folder = archives_dir(data_dir)
    return folder / PROFILES_FOLDER / _slug(profile, limit=64) if profile else folder


def archive_path(data_dir: Path | str, base_url: str, model_id: str, profile: str = "") -> Path:
    """``<profile folder>/<host>__<model>__<hash>.sqlite3``: readable host and model id
    (sanitised, so no id can reach outside the folder), plus a hash of the exact
    normalised base URL and model id so that distinct ones never share a file. The folder is
    the profile's (:func:`profile_archives_dir`): two profiles never share an archive."""
    import hashlib  # once per session, when the Logs screen looks for the model's archive: not at import

    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "local").lower()
    port = f":{parts.port}" if parts.port else ""
    norm = f"{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"
    digest = hashlib.sha256(f"{norm}\n{model_id}".encode("utf-8", "surrogatepass")).hexdigest()[:12]
    where = host + (f"-{parts.port}" if parts.port else "")
    return profile_archives_dir(data_dir, profile) / f"{_slug(where)}__{_slug(model_id)}__{digest}.sqlite3"


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


def archives_dir(data_dir: Path | str) -> Path:
    return Path(data_dir) / "archives"


def mark_used(path: Path) -> None:
    """Record that the archive was opened now (its file's modification time): ``blah-tui
    archives`` reads "last used" from it, and only reading an archive would not change it."""
    with contextlib.suppress(OSError):
        os.utime(path)


@dataclass(frozen=True)
class ArchiveInfo:
    """One archive file as ``blah-tui archives`` lists it. ``model_id`` / ``platform`` /
    ``calls`` are None when the file cannot be read (``problem`` says why)."""

    path: Path
    size: int  # bytes, with the -wal and -shm files
    last_used: float  # seconds since the epoch
    model_id: str | None = None
    platform: str | None = None
    base_url: str | None = None
    calls: int | None = None
    problem: str | None = None
    profile: str = ""  # the profile whose folder holds it; "" for today's implicit blah.dev profile
    json_bytes: int | None = None  # its calls as JSON lines (what ``export`` writes); None: not known

    @property
    def to_json(self) -> float | None:
        """The file's size over its calls' JSON (None when not known or no call is held)."""
        return self.size / self.json_bytes if self.json_bytes else None

    def files(self) -> list[Path]:
        """The archive's files on disk: the database and its companions, when present."""
        return [p for p in (self.path, *(self.path.with_name(self.path.name + s) for s in COMPANIONS)) if p.exists()]


def list_archives(data_dir: Path | str) -> list[ArchiveInfo]:
    """Every archive under ``<data_dir>/archives``, each profile's folder included, most
    recently used first. Reading one never changes it (nor its "last used" time)."""
    folder = archives_dir(data_dir)
    if not folder.is_dir():
        return []
    found = [describe_archive(path) for path in folder.glob(f"*{ARCHIVE_SUFFIX}") if path.is_file()]
    profiles = folder / PROFILES_FOLDER
    if profiles.is_dir():
        for profile_folder in sorted(p for p in profiles.iterdir() if p.is_dir()):
            found += [
                describe_archive(path, profile=profile_folder.name)
                for path in profile_folder.glob(f"*{ARCHIVE_SUFFIX}")
                if path.is_file()
            ]
    return sorted(found, key=lambda info: info.last_used, reverse=True)


def describe_archive(path: Path, profile: str = "") -> ArchiveInfo:
    stat = path.stat()
    size = stat.st_size + sum(
        side.stat().st_size for side in (path.with_name(path.name + s) for s in COMPANIONS) if side.exists()
    )
    try:
        meta, calls = _read_meta(path)
    except sqlite3.Error as error:
        return ArchiveInfo(path, size, stat.st_mtime, problem=f"cannot be read ({error})", profile=profile)
    json_bytes = meta.get("json_bytes")
    return ArchiveInfo(
        path,
        size,
        stat.st_mtime,
        model_id=meta.get("model_id"),
        platform=meta.get("platform"),
        base_url=meta.get("base_url"),
        calls=calls,
        profile=profile,
        json_bytes=int(json_bytes) if json_bytes and json_bytes.isdigit() else None,
    )


def _read_meta(path: Path) -> tuple[dict[str, str], int]:
    # A plain connection (not mode=ro): a read-only one leaves -wal/-shm files behind.
    conn = sqlite3.connect(path, timeout=2.0)
    try:
        meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta WHERE value IS NOT NULL")}
        calls = int(conn.execute("SELECT count(*) FROM logs").fetchone()[0])
    finally:
        conn.close()
    return meta, calls


def delete_archive(info: ArchiveInfo) -> int:
    """Delete the archive's files; returns the bytes freed."""
    freed = 0
    for path in info.files():
        size = path.stat().st_size
        path.unlink()
        freed += size
    return freed
