"""The file side of an archive: the connection, transactions, meta, one entry at a time.

``Archive`` (archive.py) adds writing and the lists on top. Thread-safe: one SQLite
connection behind an RLock, so async callers may use the archive from worker threads.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Self

import orjson

from api_client.archives import seq_runs
from api_client.archives.query import register_text_functions
from api_client.archives.readers import ParallelReaders
from api_client.archives.schema import (
    BUSY_TIMEOUT_MS,
    LOG_COLUMNS,
    STORED_COLUMNS,
    TEXT_FIELDS,
    check_integrity,
    connect,
    corruption_raised,
    is_outdated,
)
from api_client.archives.texts import TextCodec
from common.records import CALL_FIELDS, Call, ChatTurn

FULL_SELECT = ", ".join((*STORED_COLUMNS, "texts"))
"""A whole entry's stored columns; ``log_values`` makes them the entry's fields."""
_HEAD = LOG_COLUMNS.index(TEXT_FIELDS[0])
assert (*STORED_COLUMNS[:_HEAD], *TEXT_FIELDS, *STORED_COLUMNS[_HEAD:]) == LOG_COLUMNS


def log_values(row: tuple[Any, ...], codec: TextCodec) -> tuple[Any, ...]:
    """A row of ``FULL_SELECT`` as the entry's fields in ``LOG_COLUMNS`` order (``messages``
    still JSON text)."""
    return (*row[:_HEAD], *codec.decode(row[-1]), *row[_HEAD:-1])


_STRETCH_FLOOR = "stretch_floor_ms"
"""Meta key: where the unbroken stretch ends once calls older than it are held (see oldest_ms)."""


class ArchiveBase:
    """Opening, closing, meta values, the tail cursor and single-entry reads."""

    def __init__(self, path: Path | str, *, _temp_dir: Path | None = None) -> None:
        self._path = Path(path)
        self._temp_dir = _temp_dir
        self._conn = connect(self._path)
        if is_outdated(self._conn):  # an older layout: rewritten in place first
            self._conn.close()
            from api_client.archives.migrate import migrate  # once per archive: not on every start's path

            migrate(self._path)
            self._conn = connect(self._path)
        self._codec = TextCodec(self._conn)
        register_text_functions(self._conn, self._codec)
        self._readers = ParallelReaders(self._path, self._conn)  # many scattered rows at once
        self._lock = threading.RLock()
        self._bounds: tuple[int, int] | None = None  # (min, max) ord of the listed rows
        with self._lock, self._guard():
            self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            self._load_bounds()
            if self._bounds is not None and not seq_runs.has_record(self._conn):
                self._build_seq_runs()

    def _build_seq_runs(self) -> None:
        """An archive written before the map of seq runs was kept gets it once (one pass over
        the ord index: 0.13-0.27 s warm, ~0.5 s cold at 1M rows in one run); left for the next
        write when another process is writing (no wait) or the file is read-only: reads do
        without it meanwhile."""
        self._conn.execute("PRAGMA busy_timeout = 0")
        try:
            with self._transaction() as conn:
                if not seq_runs.has_record(conn):
                    self._load_bounds()
                    seq_runs.build(conn, self._bounds)
        except sqlite3.OperationalError:
            pass
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def verify(self) -> str | None:
        """SQLite's ``quick_check`` over the whole file (slow on a big archive: opening
        only probes those): None when sound, else what is wrong."""
        with self._lock:
            try:
                return check_integrity(self._conn, full=True)
            except sqlite3.DatabaseError as exc:
                return str(exc)

    @property
    def path(self) -> Path:
        return self._path

    @property
    def model_id(self) -> str | None:
        """The model this archive is about (set by ``for_model`` or a dump load), if known."""
        return self.get_meta("model_id")

    def close(self) -> None:
        with self._lock:
            self._readers.close()
            self._conn.close()
            if self._temp_dir is not None:
                shutil.rmtree(self._temp_dir, ignore_errors=True)
                self._temp_dir = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Archive({str(self._path)!r})"

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (taking SQLite's write lock at once) under our lock."""
        with self._lock, self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def _guard(self) -> AbstractContextManager[None]:
        return corruption_raised(self._path)

    # ------------------------------------------------------------------ reading: one entry

    def get(self, log_id: str) -> Call:
        """The full entry; KeyError when it is not stored."""
        entry = self.find(log_id)
        if entry is None:
            raise KeyError(log_id)
        return entry

    def find(self, log_id: str) -> Call | None:
        with self._lock, self._guard():
            row = self._conn.execute(f"SELECT {FULL_SELECT} FROM logs WHERE id = ?", (log_id,)).fetchone()
        return None if row is None else call_from_row(log_values(row, self._codec))

    def badges_of(self, log_id: str) -> tuple[str, ...]:
        with self._lock, self._guard():
            row = self._conn.execute("SELECT badges FROM logs WHERE id = ?", (log_id,)).fetchone()
        return tuple(row[0].split()) if row and row[0] else ()

    # ------------------------------------------------------------------ meta / cursor

    def get_meta(self, key: str) -> str | None:
        with self._lock, self._guard():
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str | None) -> None:
        with self._lock, self._guard():
            if value is None:
                self._conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def get_cursor(self) -> int | None:
        """The live tail's position (ms): everything up to it has been fetched once."""
        value = self.get_meta("cursor_ms")
        return None if value is None else int(value)

    def set_cursor(self, ms: int | None) -> None:
        self.set_meta("cursor_ms", None if ms is None else str(int(ms)))

    @property
    def history_complete(self) -> bool:
        """True once a backfill reached the platform's oldest entry."""
        return self.get_meta("history_complete") == "1"

    @history_complete.setter
    def history_complete(self, value: bool) -> None:
        self.set_meta("history_complete", "1" if value else None)

    def oldest_ms(self) -> int | None:
        """The oldest ``created_at`` of the unbroken stretch of history held: every call from
        there up to the newest stored is here. Older calls may be held too when a filtered
        query fetched them (``Archive.add_sparse``), but not every call older than this."""
        with self._lock, self._guard():
            lowest = self._conn.execute("SELECT min(created_at) FROM logs").fetchone()[0]
            floor = self._conn.execute("SELECT value FROM meta WHERE key = ?", (_STRETCH_FLOOR,)).fetchone()
        if floor is None or lowest is None:
            return lowest
        return max(int(floor[0]), int(lowest))

    def extend_stretch(self, oldest_ms: int) -> None:
        """Every call down to ``oldest_ms`` is now held (a page of unfiltered history was
        stored just below the stretch): the unbroken stretch reaches there."""
        with self._lock, self._guard():
            floor = self._conn.execute("SELECT value FROM meta WHERE key = ?", (_STRETCH_FLOOR,)).fetchone()
            if floor is None or int(oldest_ms) >= int(floor[0]):
                return
            lowest = self._conn.execute("SELECT min(created_at) FROM logs").fetchone()[0]
            if lowest is not None and int(oldest_ms) <= int(lowest):  # no call below it: one stretch again
                self._conn.execute("DELETE FROM meta WHERE key = ?", (_STRETCH_FLOOR,))
            else:
                self._conn.execute("UPDATE meta SET value = ? WHERE key = ?", (str(int(oldest_ms)), _STRETCH_FLOOR))

    def has_sparse(self) -> bool:
        """True when calls older than the unbroken stretch may be held (see ``oldest_ms``)."""
        return self.get_meta(_STRETCH_FLOOR) is not None

    def _hold_stretch_floor(self) -> bool:
        """Before calls are stored below the stretch out of order: remember where the
        stretch ends (False when nothing is held, so there is no stretch to keep)."""
        with self._lock, self._guard():
            if self._conn.execute("SELECT 1 FROM meta WHERE key = ?", (_STRETCH_FLOOR,)).fetchone():
                return True
            lowest = self._conn.execute("SELECT min(created_at) FROM logs").fetchone()[0]
            if lowest is None:
                return False
            self._conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (_STRETCH_FLOOR, str(int(lowest))))
            return True

    def newest_ms(self) -> int | None:
        with self._lock, self._guard():
            return self._conn.execute("SELECT max(created_at) FROM logs").fetchone()[0]

    def _load_bounds(self) -> None:
        # Two queries: SQLite answers a lone min() or max() from the index in O(log n), but
        # scans the whole index for both in one SELECT (170 ms warm at 1M rows, ~1 s cold).
        lo = self._conn.execute("SELECT min(ord) FROM logs").fetchone()[0]
        hi = self._conn.execute("SELECT max(ord) FROM logs").fetchone()[0]
        self._bounds = None if lo is None else (int(lo), int(hi))


_MESSAGES_AT = LOG_COLUMNS.index("messages")
if LOG_COLUMNS != CALL_FIELDS:  # a row is a Call by position (tests/api_client/archives/test_call_rows.py)
    raise ImportError(f"the archive's columns {LOG_COLUMNS} are not Call's fields {CALL_FIELDS}")


def call_from_row(row: Sequence[Any]) -> Call:
    """A stored row (``LOG_COLUMNS``, ``messages`` as its JSON text) as the product's ``Call``:
    the archive's one row type. Nothing is validated again (every row was a validated call
    when it was stored): a row without chat messages is ``Call(*row)``, one C-level call
    (~1 us; a validated ``LogEntry`` cost ~6.5 us a row, a million rows 5 s)."""
    raw = row[_MESSAGES_AT]
    if raw is None:
        return Call(*row)
    turns = tuple(ChatTurn(m["role"], m.get("content")) for m in orjson.loads(raw))
    values = list(row)
    values[_MESSAGES_AT] = turns
    return Call(*values)
