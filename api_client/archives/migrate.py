"""Bringing an archive of an older schema to today's layout (archive_schema), in place, the
first time it is opened.

Schema 2 -> 3 changes no row's layout: ``created_at`` loses its NOT NULL (SQLite's documented
way for that change: the table's stored SQL is edited under ``writable_schema``, no row is
rewritten, so it is instant at any size) and the 0 that schema 2 stored for a Blobfish step
without a time becomes NULL, all in one transaction.

Schema 1 (texts as TEXT columns, a positional full-text index over them) is rewritten:

Nothing is lost and an interruption is safe: the old file is only read (its writers are held
off by a write lock for the duration) while the new one is built beside it as
``<name>.migrating``; only once that file is complete and on disk does it replace the old one
(one ``os.replace``). Killed at any point before, the old file is as it was and the next open
starts over (the half-built file is removed). Every row keeps its ``seq``, ``ord``, badges and
fields; ``meta`` and the badge table are copied as they are.

How long it takes is reported to ``on_progress(done, total)`` (rows), or to the process's
hook (common.migration_progress: the CLI draws a bar on stderr, the app a notification) when the
caller gives none.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import orjson

from api_client.archives import fulltext
from api_client.archives.ingest import JSON_BYTES, number_unnumbered
from api_client.archives.schema import (
    APPLICATION_ID,
    DDL,
    SCHEMA_VERSION,
    STORED_COLUMNS,
    ArchiveCorruptError,
    corruption_raised,
)
from api_client.archives.texts import TextCodec
from common.migration_progress import OnProgress, current_hook

BATCH = 5000
PART_SUFFIX = ".migrating"


_V1_SELECT = (
    "SELECT seq, ord, failed, badges, prompt, messages, response, error, "
    + ", ".join(STORED_COLUMNS)
    + " FROM logs WHERE seq > ? ORDER BY seq LIMIT ?"
)
_V2_INSERT = (
    f"INSERT INTO logs(seq, ord, failed, badges, texts, {', '.join(STORED_COLUMNS)})"
    f" VALUES ({', '.join('?' * (len(STORED_COLUMNS) + 5))})"
)


MISSING_TIMES = "UPDATE logs SET created_at = NULL WHERE source = 'blobfish' AND created_at = 0"
"""Schema 1 and 2 stored 0 for a Blobfish step without a time (the column required one):
nothing else of that platform has time 0, so those rows become what they are, without a time."""
_NOT_NULL_TIME = re.compile(r"(created_at\s+INTEGER)\s+NOT\s+NULL", re.IGNORECASE)


def _lift_time_constraint(conn: sqlite3.Connection) -> None:
    """Drop ``NOT NULL`` from ``logs.created_at`` inside the caller's write transaction
    (https://sqlite.org/lang_altertable.html#otheralter: removing a NOT NULL constraint
    changes nothing on disk, so the schema text is edited and its version bumped)."""
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'logs'").fetchone()
    lifted = _NOT_NULL_TIME.sub(r"\1", sql, count=1)
    if lifted == sql:
        return
    (version,) = conn.execute("PRAGMA schema_version").fetchone()
    conn.execute("PRAGMA writable_schema = ON")
    try:
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'logs'", (lifted,))
        conn.execute(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        conn.execute("PRAGMA writable_schema = OFF")


def _forget_invented_times(conn: sqlite3.Connection) -> None:
    """:data:`MISSING_TIMES`, then the rows numbered again when any changed (a row without a
    time sorts first: only a steps archive holds such rows, so only it is renumbered)."""
    if conn.execute(MISSING_TIMES).rowcount:
        conn.execute("UPDATE logs SET ord = NULL")
        number_unnumbered(conn)


def part_path(path: Path) -> Path:
    return path.with_name(path.name + PART_SUFFIX)


def migrate(path: Path, on_progress: OnProgress | None = None) -> None:
    """Bring the schema 1 or 2 archive at ``path`` to today's layout (see the module docstring)."""
    report = on_progress or current_hook() or (lambda done, total: None)
    part = part_path(path)
    for leftover in (part, *(part.with_name(part.name + s) for s in ("-wal", "-shm", "-journal"))):
        leftover.unlink(missing_ok=True)  # an earlier, interrupted attempt
    old = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    try:
        with corruption_raised(path):
            old.execute("PRAGMA busy_timeout = 5000")
            old.execute("BEGIN IMMEDIATE")  # other writers wait: nothing written while we copy is lost
            old_version = old.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if old_version is None or int(old_version[0]) >= SCHEMA_VERSION:
                old.execute("ROLLBACK")
                return  # another process migrated it meanwhile
            if int(old_version[0]) == 2:
                _lift_time_constraint(old)
                _forget_invented_times(old)
                old.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
                old.execute("COMMIT")
                old.close()
                return
            _build(old, part, report)
            old.execute("ROLLBACK")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            old.close()
        part.unlink(missing_ok=True)
        raise
    old.close()  # the last connection: SQLite folds its WAL into it and removes -wal and -shm
    for side in ("-wal", "-shm"):
        stale = path.with_name(path.name + side)
        if stale.exists() and stale.stat().st_size == 0:
            stale.unlink(missing_ok=True)
    os.replace(part, path)
    _fsync_dir(path.parent)


def _build(old: sqlite3.Connection, part: Path, report: OnProgress) -> None:
    (total,) = old.execute("SELECT count(*) FROM logs").fetchone()
    new = sqlite3.connect(str(part), isolation_level=None)
    try:
        new.execute("PRAGMA journal_mode = OFF")  # the file is not in use until complete: no journal needed
        new.execute("PRAGMA synchronous = OFF")
        new.execute("PRAGMA cache_size = -32768")
        new.executescript("BEGIN;\n" + DDL + f"PRAGMA application_id = {APPLICATION_ID};\n")
        meta = [(k, v) for k, v in old.execute("SELECT key, value FROM meta") if k not in ("schema_version", "fts_seq")]
        new.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", meta)
        new.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        badges = old.execute("SELECT kind, seq FROM log_badges")
        new.executemany("INSERT INTO log_badges(kind, seq) VALUES (?, ?)", badges)
        codec = TextCodec(new)
        done = last = json_bytes = 0
        report(0, total)
        while True:
            rows = old.execute(_V1_SELECT, (last, BATCH)).fetchall()
            if not rows:
                break
            texts = codec.encode_many([r[4:8] for r in rows])
            json_bytes += sum(_json_size(r) for r in rows)
            new.executemany(_V2_INSERT, [(*r[:4], t, *r[8:]) for r, t in zip(rows, texts, strict=True)])
            fulltext.index_step(new, None, codec)
            last = rows[-1][0]
            done += len(rows)
            report(done, total)
        new.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (JSON_BYTES, str(json_bytes)))
        _forget_invented_times(new)
        new.execute("COMMIT")
        new.execute("PRAGMA journal_mode = DELETE")
        new.execute("PRAGMA user_version = 0")
    except sqlite3.DatabaseError as exc:
        new.close()
        raise ArchiveCorruptError(part, f"could not migrate the archive ({exc})") from exc
    new.close()
    with open(part, "rb+") as fh:
        os.fsync(fh.fileno())


def _json_size(row: tuple[Any, ...]) -> int:
    """A schema 1 row's call as a JSONL line's length (as ``export`` writes it; see ingest)."""
    fields = dict(zip(STORED_COLUMNS, row[8:], strict=True))
    fields.update(prompt=row[4], messages=None, response=row[6], error=row[7])
    raw = row[5]
    return len(orjson.dumps(fields)) + 1 + (0 if raw is None else len(raw.encode()) - 4)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
