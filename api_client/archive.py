"""The local archive: every log entry ever seen for one model, in one SQLite file.

The logs screen reads it as a list of maybe a million rows, a window of ~100 at a time:
``count(filter)`` then ``window(filter, offset, limit)``, oldest first. Both are cheap at
any offset (see archive_schema / archive_ingest for the ``ord`` column that makes them so;
a filtered list is resolved once to an array of ordinals, then extended as rows arrive).
Text search is FTS5 over prompt/response/error with user input taken literally
(archive_query). Thread-safe (one connection behind a lock) so async callers may run
``add`` in a worker thread. Entries are never stored twice: ``id`` decides.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
import tempfile
import threading
import time
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from api_client.archive_ingest import BadgesFn, badge_text, existing_ids, insert_sorted
from api_client.archive_query import (
    ALL,
    ROW_SELECT,
    ArchivedRow,
    LogFilter,
    SearchResult,
    compile_text,
    match_spans,
    where_clause,
)
from api_client.archive_schema import (
    LOG_COLUMNS,
    ArchiveCorruptError,
    ArchiveError,
    ArchiveVersionError,
    connect,
    is_corruption,
)
from api_client.models import LogEntry

__all__ = [
    "ALL",
    "Archive",
    "ArchiveCorruptError",
    "ArchiveError",
    "ArchiveVersionError",
    "ArchivedRow",
    "LogFilter",
    "SearchResult",
    "match_spans",
]

_FULL_SELECT = ", ".join(LOG_COLUMNS)
_CACHE_FILTERS = 8
_CHUNK = 500


@dataclass(slots=True)
class _Ords:
    """The ordinals of the rows a filter keeps, ascending; valid for one epoch and the
    ``[lo, hi]`` ord range it was resolved over (extended as rows are added at the ends)."""

    epoch: int
    lo: int
    hi: int
    ords: array


def _slug(text: str, limit: int = 40) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-")[:limit] or "x"


class Archive:
    """One archive file. ``Archive(path)`` opens (or creates) it; see module docstring."""

    def __init__(self, path: Path | str, *, _temp_dir: Path | None = None) -> None:
        self._path = Path(path)
        self._temp_dir = _temp_dir
        self._conn = connect(self._path)
        self._lock = threading.RLock()
        self._epoch = 0
        self._bounds: tuple[int, int] | None = None
        self._cache: OrderedDict[LogFilter, _Ords] = OrderedDict()
        with self._lock, self._guard():
            self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            self._load_bounds()

    # ------------------------------------------------------------------ opening / files

    @staticmethod
    def path_for(data_dir: Path | str, base_url: str, model_id: str) -> Path:
        """The archive file of a model on a platform: readable host and model id, plus a
        hash of the exact (normalised base URL, model id) so distinct ones never collide."""
        parts = urlsplit(base_url.strip())
        host = (parts.hostname or "local").lower()
        port = f":{parts.port}" if parts.port else ""
        norm = f"{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"
        digest = hashlib.sha256(f"{norm}\n{model_id}".encode()).hexdigest()[:12]
        name = f"{_slug(host + ('-' + str(parts.port) if parts.port else ''))}__{_slug(model_id)}__{digest}.sqlite3"
        return Path(data_dir) / "archives" / name

    @classmethod
    def for_model(cls, data_dir: Path | str, platform: str, base_url: str, model_id: str) -> Archive:
        """Open the archive of ``model_id`` on the platform at ``base_url``. The file is
        chosen by base URL and model id; ``platform`` is a display label kept in meta."""
        archive = cls(cls.path_for(data_dir, base_url, model_id))
        if archive.get_meta("model_id") is None:
            archive.set_meta("platform", platform)
            archive.set_meta("base_url", base_url)
            archive.set_meta("model_id", model_id)
        return archive

    @classmethod
    def create_temporary(cls, prefix: str = "blah-tui-archive-") -> Archive:
        """A fresh archive in a private temporary directory, removed by ``close()``."""
        temp_dir = Path(tempfile.mkdtemp(prefix=prefix))
        return cls(temp_dir / "archive.sqlite3", _temp_dir=temp_dir)

    @classmethod
    def quarantine(cls, path: Path | str) -> tuple[Archive, Path]:
        """Move a (corrupt) archive file aside to ``<name>.corrupt-<ts>``, with its WAL and
        shared-memory files, and open a fresh empty archive at ``path``. Nothing is deleted.
        Returns the new archive and where the old file now is."""
        path = Path(path)
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
        return cls(path), moved

    @property
    def path(self) -> Path:
        return self._path

    @property
    def model_id(self) -> str | None:
        """The model this archive is about (set by ``for_model`` or a dump load), if known."""
        return self.get_meta("model_id")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._temp_dir is not None:
                shutil.rmtree(self._temp_dir, ignore_errors=True)
                self._temp_dir = None

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Archive({str(self._path)!r})"

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if is_corruption(exc):
                raise ArchiveCorruptError(self._path, f"archive file is corrupt ({exc})") from exc
            raise

    # ------------------------------------------------------------------ writing

    def add(
        self, entries: Iterable[LogEntry], badges_fn: BadgesFn | None = None, *, index_text: bool = True
    ) -> int:
        """Store the entries not stored yet (one transaction); return how many were new.

        ``index_text=False`` leaves the new rows out of the full-text index for now (a bulk
        load is ~3x faster that way); they are indexed by the next ``add`` that indexes, by
        ``index_pending()``, or at the latest before any text search, so search results
        are always complete.
        """
        return len(self.add_new(entries, badges_fn, index_text=index_text))

    def add_new(
        self, entries: Iterable[LogEntry], badges_fn: BadgesFn | None = None, *, index_text: bool = True
    ) -> list[LogEntry]:
        """Like ``add``, returning the entries that were new, in the order given."""
        batch: dict[str, LogEntry] = {}
        for entry in entries:
            batch.setdefault(entry.id, entry)
        if not batch:
            return []
        with self._lock, self._guard():
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._sync_external()  # inside the write lock: sees every other writer
                known = existing_ids(conn, list(batch))
                new = [e for i, e in batch.items() if i not in known]
                if new:
                    outcome = insert_sorted(conn, sorted(new, key=lambda e: (e.created_at, e.id)), badges_fn)
                    if index_text:
                        self._index_step(None)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            self._data_version = conn.execute("PRAGMA data_version").fetchone()[0]
            if new:
                if outcome.placement == "middle":
                    self._epoch += 1
                self._bounds = (outcome.min_ord, outcome.max_ord)
        return new

    def pending_text_index(self) -> int:
        """How many stored entries are not in the full-text index yet."""
        with self._lock, self._guard():
            return self._conn.execute(
                "SELECT count(*) FROM logs WHERE seq > ?", (self._fts_seq(),)
            ).fetchone()[0]

    def index_pending(self, max_rows: int | None = None, chunk: int = 5000) -> int:
        """Add pending entries to the full-text index, ``chunk`` rows per transaction (the
        lock is released between chunks, so readers interleave). Returns rows indexed."""
        done = 0
        while max_rows is None or done < max_rows:
            step = chunk if max_rows is None else min(chunk, max_rows - done)
            with self._lock, self._guard():
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    n = self._index_step(step)
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if n == 0:
                break
            done += n
        return done

    def _fts_seq(self) -> int:
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'fts_seq'").fetchone()
        return int(row[0]) if row else 0

    def _index_step(self, max_rows: int | None) -> int:
        """Index up to ``max_rows`` pending rows (all when None). Caller holds a write txn."""
        start = self._fts_seq()
        if max_rows is None:
            (end,) = self._conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
        else:
            row = self._conn.execute(
                "SELECT seq FROM logs WHERE seq > ? ORDER BY seq LIMIT 1 OFFSET ?", (start, max_rows - 1)
            ).fetchone()
            end = row[0] if row else self._conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()[0]
        if end <= start:
            return 0
        cur = self._conn.execute(
            "INSERT INTO logs_fts(rowid, prompt, response, error)"
            " SELECT seq, prompt, response, error FROM logs WHERE seq > ? AND seq <= ?",
            (start, end),
        )
        self._conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fts_seq', ?)", (str(end),))
        return cur.rowcount

    def _ensure_indexed(self, flt: LogFilter) -> None:
        """Text filters read the FTS index: bring it up to date first (never partial)."""
        if flt.text and compile_text(flt.text).match is not None:
            if self._conn.execute("SELECT 1 FROM logs WHERE seq > ? LIMIT 1", (self._fts_seq(),)).fetchone():
                self.index_pending()

    def recompute_badges(self, badges_fn: BadgesFn, batch_size: int = 2000) -> int:
        """Re-run the badge function over every stored entry (e.g. after the diagnosis
        rules changed); returns how many rows changed badges."""
        changed = 0
        last = -1
        while True:
            with self._lock, self._guard():
                rows = self._conn.execute(
                    f"SELECT seq, badges, {_FULL_SELECT} FROM logs WHERE seq > ? ORDER BY seq LIMIT ?",
                    (last, batch_size),
                ).fetchall()
                if not rows:
                    break
                last = rows[-1][0]
                updates = []
                for seq, old, *cols in rows:
                    new = badge_text(_entry(cols), badges_fn)
                    if new != old:
                        updates.append((new, seq))
                if updates:
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        for new, seq in updates:
                            self._conn.execute("UPDATE logs SET badges = ? WHERE seq = ?", (new, seq))
                            self._conn.execute("DELETE FROM log_badges WHERE seq = ?", (seq,))
                            self._conn.executemany(
                                "INSERT OR IGNORE INTO log_badges(kind, seq) VALUES (?, ?)",
                                [(k, seq) for k in new.split()],
                            )
                        self._conn.execute("COMMIT")
                    except BaseException:
                        self._conn.execute("ROLLBACK")
                        raise
                    changed += len(updates)
                    self._epoch += 1
                    self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        return changed

    # ------------------------------------------------------------------ reading: lists

    def count(self, flt: LogFilter = ALL) -> int:
        """How many stored entries the filter keeps (exact)."""
        with self._lock, self._guard():
            self._sync_external()
            if flt.is_empty:
                return 0 if self._bounds is None else self._bounds[1] - self._bounds[0] + 1
            return len(self._ords(flt).ords)

    def window(self, flt: LogFilter = ALL, offset: int = 0, limit: int = 100) -> list[ArchivedRow]:
        """Rows ``offset .. offset+limit-1`` of the filtered list, oldest first."""
        if limit <= 0 or offset < 0:
            return []
        with self._lock, self._guard():
            self._sync_external()
            if flt.is_empty:
                if self._bounds is None:
                    return []
                start = self._bounds[0] + offset
                rows = self._conn.execute(
                    f"SELECT {ROW_SELECT} FROM logs WHERE ord >= ? AND ord < ? ORDER BY ord",
                    (start, start + limit),
                ).fetchall()
            else:
                wanted = self._ords(flt).ords[offset : offset + limit].tolist()
                rows = self._rows_by_ord(wanted, ROW_SELECT)
            return [ArchivedRow.from_sql(r) for r in rows]

    def position(self, log_id: str, flt: LogFilter = ALL) -> int | None:
        """Offset of an entry in the filtered list, or None when the filter drops it."""
        with self._lock, self._guard():
            self._sync_external()
            row = self._conn.execute("SELECT ord FROM logs WHERE id = ?", (log_id,)).fetchone()
            if row is None or self._bounds is None:
                return None
            if flt.is_empty:
                return int(row[0]) - self._bounds[0]
            ords = self._ords(flt).ords
            i = bisect_left(ords, row[0])
            return i if i < len(ords) and ords[i] == row[0] else None

    def neighbours(self, log_id: str, flt: LogFilter = ALL) -> tuple[str | None, str | None]:
        """Ids of the entries just older and just newer than ``log_id`` in the filtered
        list (None at either end). When the filter drops ``log_id`` itself, the nearest
        kept entries on each side of it."""
        with self._lock, self._guard():
            self._sync_external()
            row = self._conn.execute("SELECT ord FROM logs WHERE id = ?", (log_id,)).fetchone()
            if row is None:
                return None, None
            here = int(row[0])
            if flt.is_empty:
                before, after = here - 1, here + 1
            else:
                ords = self._ords(flt).ords
                i = bisect_left(ords, here)
                before = ords[i - 1] if i > 0 else None
                j = i + 1 if i < len(ords) and ords[i] == here else i
                after = ords[j] if j < len(ords) else None
            ids = {o: i for o, i in self._conn.execute(
                "SELECT ord, id FROM logs WHERE ord IN (?, ?)", (before, after)
            )}  # fmt: skip
            return ids.get(before), ids.get(after)

    def search(self, query: str, flt: LogFilter = ALL, *, limit: int | None = 1000) -> SearchResult:
        """Entries matching ``query`` (literal terms, all required) within ``flt``: the
        exact count, the first ``limit`` ids oldest first, and the terms to highlight."""
        text = " ".join(t for t in (flt.text, query) if t and t.strip())
        tq = compile_text(text)
        if tq.is_empty:
            return SearchResult(count=0, ids=[], terms=())
        combined = replace(flt, text=text)
        with self._lock, self._guard():
            self._sync_external()
            ords = self._ords(combined).ords
            head = ords.tolist() if limit is None else ords[:limit].tolist()
            ids = [r[0] for r in self._rows_by_ord(head, "id, ord")]
            return SearchResult(count=len(ords), ids=ids, terms=tq.terms)

    def iter_all(
        self, flt: LogFilter = ALL, *, newest_first: bool = False, batch_size: int = 1000
    ) -> Iterator[LogEntry]:
        """Every entry the filter keeps, as LogEntry, in time order (read in batches)."""
        with self._lock, self._guard():
            self._ensure_indexed(flt)
        where, params = where_clause(flt)
        op, order = ("<", "DESC") if newest_first else (">", "ASC")
        last: int | None = None
        while True:
            with self._lock, self._guard():
                bound = "" if last is None else f"ord {op} ? AND "
                args = ([] if last is None else [last]) + params + [batch_size]
                rows = self._conn.execute(
                    f"SELECT ord, {_FULL_SELECT} FROM logs WHERE ord IS NOT NULL AND {bound}({where})"
                    f" ORDER BY ord {order} LIMIT ?",
                    args,
                ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            for row in rows:
                yield _entry(row[1:])

    # ------------------------------------------------------------------ reading: one entry

    def get(self, log_id: str) -> LogEntry:
        """The full entry; KeyError when it is not stored."""
        entry = self.find(log_id)
        if entry is None:
            raise KeyError(log_id)
        return entry

    def find(self, log_id: str) -> LogEntry | None:
        with self._lock, self._guard():
            row = self._conn.execute(f"SELECT {_FULL_SELECT} FROM logs WHERE id = ?", (log_id,)).fetchone()
        return None if row is None else _entry(row)

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
            self._data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]

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
        with self._lock, self._guard():
            return self._conn.execute("SELECT min(created_at) FROM logs").fetchone()[0]

    def newest_ms(self) -> int | None:
        with self._lock, self._guard():
            return self._conn.execute("SELECT max(created_at) FROM logs").fetchone()[0]

    # ------------------------------------------------------------------ internals

    def _load_bounds(self) -> None:
        lo, hi = self._conn.execute("SELECT min(ord), max(ord) FROM logs").fetchone()
        self._bounds = None if lo is None else (int(lo), int(hi))

    def _sync_external(self) -> None:
        """Another connection (another blah-tui process) wrote: drop what we cached."""
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._data_version = version
            self._epoch += 1
            self._cache.clear()
            self._load_bounds()

    def _ords(self, flt: LogFilter) -> _Ords:
        self._ensure_indexed(flt)
        cached = self._cache.get(flt)
        bounds = self._bounds
        if bounds is None:
            return _Ords(self._epoch, 0, -1, array("q"))
        if cached is None or cached.epoch != self._epoch:
            cached = _Ords(self._epoch, bounds[0], bounds[1], self._select_ords(flt, bounds[0], bounds[1]))
        else:
            if bounds[0] < cached.lo:
                cached.ords = self._select_ords(flt, bounds[0], cached.lo - 1) + cached.ords
                cached.lo = bounds[0]
            if bounds[1] > cached.hi:
                cached.ords.extend(self._select_ords(flt, cached.hi + 1, bounds[1]))
                cached.hi = bounds[1]
        self._cache[flt] = cached
        self._cache.move_to_end(flt)
        while len(self._cache) > _CACHE_FILTERS:
            self._cache.popitem(last=False)
        return cached

    def _select_ords(self, flt: LogFilter, lo: int, hi: int) -> array:
        where, params = where_clause(flt)
        cur = self._conn.execute(
            f"SELECT ord FROM logs WHERE ord BETWEEN ? AND ? AND ({where}) ORDER BY ord",
            [lo, hi, *params],
        )
        out = array("q")
        while chunk := cur.fetchmany(50_000):
            out.extend(r[0] for r in chunk)
        return out

    def _rows_by_ord(self, ords: list[int], columns: str) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(ords), _CHUNK):
            chunk = ords[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows.extend(
                self._conn.execute(f"SELECT {columns} FROM logs WHERE ord IN ({marks}) ORDER BY ord", chunk)
            )
        return rows


def _entry(cols: Iterable[Any]) -> LogEntry:
    data = dict(zip(LOG_COLUMNS, cols, strict=True))
    if data["messages"] is not None:
        data["messages"] = orjson.loads(data["messages"])
    return LogEntry.model_validate(data)
