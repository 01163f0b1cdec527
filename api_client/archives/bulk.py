"""Reading an archive in bulk for diagnosis: only the columns it needs, a range of rows at a time.

Diagnosis reads the whole history once, so this reads on a connection of its own, opened
read-only (any number of worker processes may read one file side by side while the app writes
to it), ``fetchmany`` in batches over a range of the dense time ordinal ``ord`` (see
archive_schema). Each row is the product's ``Call`` by position (``base.call_from_row``, the
archive's one row type: nothing validated again, the rows were validated when they were
stored). Columns diagnosis does not read (latency, token counts of the prompt, run and message
ids) are left out of ``read_range``'s rows: their calls say ``None`` for them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from api_client.archives.base import FULL_SELECT, call_from_row, log_values
from api_client.archives.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    STORED_COLUMNS,
    ArchiveCorruptError,
    ArchiveError,
    corruption_raised,
    schema_version,
)
from api_client.archives.texts import TextCodec
from common.records import Call

__all__ = [
    "DIAGNOSIS_COLUMNS",
    "ArchiveSpan",
    "archive_span",
    "call_from_bulk_row",
    "entries_with_ids",
    "newest_entries",
    "read_range",
]

#: The columns diagnosis reads; the others come back as NULL without being read from disk.
DIAGNOSIS_COLUMNS: tuple[str, ...] = (
    "id",
    "model_id",
    "source",
    "created_at",
    "prompt",
    "messages",
    "response",
    "error",
    "max_tokens",
    "completion_tokens",
    "finish_reason",
    "eval_id",
)
# Every stored column, then the texts: ``log_values`` makes a row LOG_COLUMNS's order (Call's
# fields), a Call by position.
_SELECT = ", ".join((*(c if c in DIAGNOSIS_COLUMNS else f"NULL AS {c}" for c in STORED_COLUMNS), "texts"))
_EVERY = FULL_SELECT


@dataclass(frozen=True, slots=True)
class ArchiveSpan:
    """What an archive holds: ``calls`` listed rows, ordinals ``first_ord``..``last_ord``
    (dense: every ordinal in between is a row), and their time range (ms)."""

    path: Path
    calls: int
    first_ord: int | None
    last_ord: int | None
    oldest_ms: int | None
    newest_ms: int | None
    history_complete: bool
    model_id: str | None


def _connect(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise ArchiveError(path, "no local archive")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.close()
            raise ArchiveCorruptError(path, "not a blah-tui archive")
        version = schema_version(conn)
    except sqlite3.DatabaseError as exc:
        raise ArchiveCorruptError(path, f"not a readable archive ({exc})") from exc
    if version is not None and version < SCHEMA_VERSION:  # migrated once, by opening it for writing
        conn.close()
        from api_client.archives.archive import Archive

        Archive(path).close()
        return _connect(path)
    return conn


def archive_span(path: Path | str) -> ArchiveSpan:
    """The extent of the archive at ``path``; ArchiveError when there is none or it is not one."""
    path = Path(path)
    conn = _connect(path)
    try:
        lo = conn.execute("SELECT min(ord) FROM logs").fetchone()[0]
        hi = conn.execute("SELECT max(ord) FROM logs").fetchone()[0]
        oldest = newest = None
        if lo is not None:
            oldest = conn.execute("SELECT created_at FROM logs WHERE ord = ?", (lo,)).fetchone()[0]
            newest = conn.execute("SELECT created_at FROM logs WHERE ord = ?", (hi,)).fetchone()[0]
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('history_complete', 'model_id')"))
    except sqlite3.DatabaseError as exc:
        raise ArchiveCorruptError(path, f"archive file is corrupt ({exc})") from exc
    finally:
        conn.close()
    calls = 0 if lo is None else int(hi) - int(lo) + 1
    return ArchiveSpan(path, calls, lo, hi, oldest, newest, meta.get("history_complete") == "1", meta.get("model_id"))


def read_range(
    path: Path | str,
    first_ord: int,
    last_ord: int,
    *,
    newest_first: bool = False,
    batch: int = 2000,
    every_column: bool = False,
) -> Iterator[list[tuple[Any, ...]]]:
    """The rows with ``first_ord <= ord <= last_ord`` in time order (``newest_first``: the
    platform's order), ``batch`` at a time, as tuples of ``DIAGNOSIS_COLUMNS`` (``messages``
    still JSON text: see ``call_from_bulk_row``)."""
    path = Path(path)
    conn = _connect(path)
    codec = TextCodec(conn)
    order = "DESC" if newest_first else "ASC"
    with closing(conn), corruption_raised(path):
        cursor = conn.execute(
            f"SELECT {_EVERY if every_column else _SELECT} FROM logs WHERE ord BETWEEN ? AND ? ORDER BY ord {order}",
            (first_ord, last_ord),
        )
        while rows := cursor.fetchmany(batch):
            yield [log_values(row, codec) for row in rows]


def call_from_bulk_row(row: tuple[Any, ...]) -> Call:
    """A row of ``read_range`` as a ``Call`` (``base.call_from_row``)."""
    return call_from_row(row)


def newest_entries(path: Path | str, limit: int) -> list[Call]:
    """The ``limit`` most recent calls of the archive, newest first, every column (what
    ``Archive.iter_all(newest_first=True)`` gives, read in bulk)."""
    span = archive_span(path)
    if span.first_ord is None or span.last_ord is None or limit < 1:
        return []
    first = max(span.first_ord, span.last_ord - limit + 1)
    out: list[Call] = []
    for rows in read_range(path, first, span.last_ord, newest_first=True, every_column=True):
        out.extend(map(call_from_row, rows))
    return out


def entries_with_ids(path: Path | str, ids: list[str]) -> dict[str, Call]:
    """The calls of the archive with these ids (every column), by id; ids it does not hold are
    left out. For the few calls a streamed report quotes, read again at its end."""
    path = Path(path)
    out: dict[str, Call] = {}
    conn = _connect(path)
    codec = TextCodec(conn)
    with closing(conn), corruption_raised(path):
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            for row in conn.execute(f"SELECT {_EVERY} FROM logs WHERE id IN ({marks})", chunk):
                entry = call_from_row(log_values(row, codec))
                out[entry.id] = entry
    return out
