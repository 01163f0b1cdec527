"""Rows read by seq or ord on several read-only connections at once, for lists of many
scattered rows whose pages are not in the page cache.

A rare word's first search (or the Logs list filtered by it) reads up to a few thousand rows
spread over the whole file, one page each. On a cold page cache every page is one read from
the disk, and one SQLite connection issues them one after another: measured on a 1M-call
archive (1.4 GB), 1,250 rows took 145-160 ms on one connection, 43-45 ms split over eight
connections in threads (Python's sqlite3 releases the GIL while SQLite reads, so the disk
sees eight reads in flight; sixteen were slower again). Rows already cached gain nothing
from threads (each row then costs a GIL hand-over), so a sample of the rows is read first on
the archive's own connection, and only when it took disk reads are the rest fanned out.

The connections are opened at the first such read and closed with the archive. They read
what is committed (the archive commits every write before releasing its lock, and callers
hold that lock), so they see what the archive's own connection sees. Anything that keeps
them from opening (an in-memory path, a read-only folder without the WAL index) leaves the
reading to the archive's own connection: the answer is the same, only slower.
"""

from __future__ import annotations

import sqlite3
import time
from array import array
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from api_client.archives.fulltext import match_count

READERS = 8
PARALLEL_MIN = 256
"""Rows below which one connection reads them (cold, 256 rows take ~30 ms on one)."""
PROBE_ROWS = 8
"""Rows sampled to tell a cold list from a cached one, one after another on the archive's own
connection: on a cold page cache each is a disk read (32 took 10-16 ms of a rare word's first
search at load 12; 8 tell the two apart as well: ~100 us a row from the disk, ~5 us cached)."""
COLD_SECONDS_PER_ROW = 20e-6
"""A sample slower than this a row came from the disk, not the page cache."""
WARM_PROBE_ROWS = 4
"""Rows a warm-up samples first (on the archive's own connection, so it waits for them)."""
COUNT_PARTS = 2
COUNT_PARALLEL_MIN = 50_000
"""Indexed rows below which a match count is not split (a small archive's counts take
microseconds)."""
_CHUNK = 500  # SQLite host parameters per statement
_READER_CACHE_PAGES = 64  # point reads: each reader keeps a small page cache of its own


def _rows_on(conn: sqlite3.Connection, keys: Sequence[int], columns: str, key: str) -> list[tuple[Any, ...]]:
    """``(key, *columns)`` of the rows whose ``key`` (seq or ord) is one of ``keys``, in no
    particular order."""
    rows: list[tuple[Any, ...]] = []
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        rows.extend(conn.execute(f"SELECT {key}, {columns} FROM logs WHERE {key} IN ({marks})", chunk))
    return rows


def _timed_rows(conn: sqlite3.Connection, keys: Sequence[int], key: str) -> float:
    """Seconds to read the ids of the rows with these keys."""
    started = time.perf_counter()
    _rows_on(conn, keys, "id", key)
    return time.perf_counter() - started


class ParallelReaders:
    """Up to ``READERS`` read-only connections to one archive file, and the threads that use
    them. Not for concurrent use: the archive calls it under its lock."""

    def __init__(self, path: Path, own: sqlite3.Connection) -> None:
        self._path = path
        self._own = own
        self._conns: list[sqlite3.Connection] | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._unavailable = str(path) == ":memory:"
        self._warming: list[Future[Any]] = []

    def warm(self, match: str, limit: int) -> None:
        """Start bringing the first ``limit`` matching rows (by ``seq``) into the page cache,
        in the background on the readers past the ``COUNT_PARTS`` the count uses, while the
        archive's own connection works out the list (counts, runs). A search's first ids are
        these rows whenever the rows were stored in time order; when they are not, the
        search reads others and this read only cost the disk some reads. Measured cold over
        1M natural calls (a word in 13,894 calls): the first search's rows (80 ms) were read
        while the runs were checked (47 ms), not after."""
        if self._unavailable or self._warming:
            return
        seqs = [
            r[0]
            for r in self._own.execute(
                "SELECT rowid FROM logs_fts WHERE logs_fts MATCH ? ORDER BY rowid LIMIT ?", (match, limit)
            )
        ]
        if len(seqs) < PARALLEL_MIN or not self._looks_cold(seqs, "seq", WARM_PROBE_ROWS):
            return
        conns = self._connections()
        if not conns or len(conns) <= COUNT_PARTS:
            return
        spare = conns[COUNT_PARTS:]
        size = -(-len(seqs) // len(spare))
        assert self._pool is not None
        self._warming = [
            self._pool.submit(_rows_on, conn, seqs[i : i + size], "id", "seq")
            for conn, i in zip(spare, range(0, len(seqs), size))
        ]

    def _settle(self) -> None:
        """Wait for a background warm-up (its connections are about to be used again)."""
        warming, self._warming = self._warming, []
        for future in warming:
            try:
                future.result()
            except sqlite3.Error:
                pass  # only a cache warm-up: the read that needs the rows reads them itself

    def rows_by_seq(self, seqs: Sequence[int], columns: str, *, wide: bool = True) -> list[tuple[Any, ...]]:
        """The given columns of the rows with these ``seq`` values, in the order given
        (a seq with no row is left out). ``wide=False``: a few small columns (the ids of a
        search), taken from the readers as they are (see ``_read``)."""
        found = {r[0]: r[1:] for r in self._read(list(seqs), columns, "seq", wide=wide)}
        return [found[s] for s in seqs if s in found]

    def rows_by_ord(self, ords: Sequence[int], columns: str) -> list[tuple[Any, ...]]:
        """The given columns of the rows with these (ascending) ordinals, in that order."""
        found = {r[0]: r[1:] for r in self._read(list(ords), columns, "ord")}
        return [found[o] for o in ords if o in found]

    def count_and_ids(self, match: str, limit: int | None) -> tuple[int, list[str]]:
        """How many placed rows match the FTS5 expression ``match``, and the ids of the first
        ``limit`` of them in list order (oldest first). Each row is read once, ``ord`` and
        ``id`` together."""
        placed = self._placed(match, "ord, id")
        wanted = placed if limit is None else placed[:limit]
        return len(placed), [row[1] for row in wanted]

    def placed_ords(self, match: str) -> array:
        """The ascending ``ord`` of the placed rows matching the FTS5 expression ``match``.
        The windows of the list then read those rows by ``ord``: when the rows came from the
        disk, the readers also look each ord up in the ord index, so that those windows find
        its pages cached (1,250 scattered rows, cold: the Logs list's count and first two
        windows 88-95 -> 76-82 ms)."""
        return array("q", (row[0] for row in self._placed(match, "ord", then_by_ord=True)))

    def count_matches(self, match: str, mark: int) -> int:
        """How many indexed rows with ``seq <= mark`` match the FTS5 expression ``match``:
        a common word's doclist (996,000 rows of 1M) counted in ``COUNT_PARTS`` rowid ranges
        on two readers at once, each reading and decoding its half (cold 127 -> 91-94 ms,
        warm 48-51 -> 28-30 ms measured; eight parts were faster cold, 71-75 ms, but slower
        warm, 44-54 ms, with two cores decoding)."""
        conns = self._connections(COUNT_PARTS) if mark >= COUNT_PARALLEL_MIN else None
        if conns:
            step = -(-mark // COUNT_PARTS)
            ranges = [(lo, min(mark, lo + step - 1)) for lo in range(1, mark + 1, step)]
            pool = self._pool
            assert pool is not None  # made with the connections
            try:
                futures = [pool.submit(match_count, conn, match, lo, hi) for conn, (lo, hi) in zip(conns, ranges)]
                return sum(future.result() for future in futures)
            except sqlite3.Error:  # a reader could open but not read: its own connection can
                self.close()
                self._unavailable = True
        return match_count(self._own, match, None, mark)

    def _placed(self, match: str, columns: str, *, then_by_ord: bool = False) -> list[tuple[Any, ...]]:
        """``columns`` (the first is ``ord``) of the placed rows matching ``match``, in ord
        order. The matching seqs come from the index (a few pages), then the rows."""
        seqs = [r[0] for r in self._own.execute("SELECT rowid FROM logs_fts WHERE logs_fts MATCH ?", (match,))]
        rows = self._read(seqs, columns, "seq", wide=False, then_by_ord=then_by_ord)
        return sorted(row[1:] for row in rows if row[1] is not None)

    def _read(
        self, keys: list[int], columns: str, key: str, *, wide: bool = True, then_by_ord: bool = False
    ) -> list[tuple[Any, ...]]:
        """``(key, *columns)`` of the rows with these keys, in no particular order.

        Many keys whose rows are not in the page cache: the readers fetch them in parallel;
        for ``wide`` columns (whole rows) they only bring the rows' pages into the cache
        (their id, a small value) and the archive's own connection then reads the columns,
        since building thousands of wide rows in eight threads at once fights over the GIL.
        Rows already cached are read on the archive's own connection: there eight threads
        only add their hand-overs (1,250 warm rows: 1.2 ms on one connection, 3.6-6.3 ms on
        eight)."""
        self._settle()
        if len(keys) >= PARALLEL_MIN and self._looks_cold(keys, key):
            conns = self._connections()
            if conns:
                try:
                    rows = self._fan_out(conns, keys, "id" if wide else columns, key, then_by_ord)
                except sqlite3.Error:  # a reader could open but not read: its own connection can
                    self.close()
                    self._unavailable = True
                else:
                    if not wide:
                        return rows
        return _rows_on(self._own, keys, columns, key)

    def _looks_cold(self, keys: list[int], key: str, rows: int = PROBE_ROWS) -> bool:
        """Whether a sample of the rows, spread over the list, took disk reads to fetch
        (a cached row costs ~1-10 us, a row read from the disk ~100 us here): more than
        ``COLD_SECONDS_PER_ROW`` a row in all. Read one row after another, stopping as soon as
        the sample's budget is spent: on a cold page cache after one or two disk reads, not
        eight (those took 1-15 ms of a rare word's first search)."""
        probe = keys[:: max(1, len(keys) // rows)][:rows]
        budget = len(probe) * COLD_SECONDS_PER_ROW
        spent = 0.0
        for k in probe:
            spent += _timed_rows(self._own, [k], key)
            if spent > budget:
                return True
        return False

    def _fan_out(
        self, conns: list[sqlite3.Connection], keys: list[int], columns: str, key: str, then_by_ord: bool = False
    ) -> list[tuple[Any, ...]]:
        """The rows read on the readers, each its own part of the keys in order;
        ``then_by_ord`` (the first column is ``ord``): each reader then looks its rows' ords
        up in the ord index, bringing its pages into the cache too."""
        ordered = sorted(keys)
        size = -(-len(ordered) // len(conns))
        parts = [ordered[i : i + size] for i in range(0, len(ordered), size)]

        def read(conn: sqlite3.Connection, part: list[int]) -> list[tuple[Any, ...]]:
            rows = _rows_on(conn, part, columns, key)
            if then_by_ord:
                _rows_on(conn, [row[1] for row in rows if row[1] is not None], "seq", "ord")
            return rows

        assert self._pool is not None
        futures = [self._pool.submit(read, conn, part) for conn, part in zip(conns, parts)]
        return [row for future in futures for row in future.result()]

    def _connections(self, count: int = READERS) -> list[sqlite3.Connection] | None:
        """``count`` readers, opened as first needed (each ~0.3 ms: a connection and the
        schema), or None when they cannot be opened."""
        if self._unavailable:
            return None
        conns = self._conns if self._conns is not None else []
        try:
            while len(conns) < count:
                uri = f"{self._path.resolve().as_uri()}?mode=ro"
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
                conns.append(conn)
                conn.execute(f"PRAGMA cache_size = {_READER_CACHE_PAGES}")
                conn.execute("SELECT 1 FROM logs LIMIT 0").fetchall()  # the schema, read now
        except sqlite3.Error:
            for conn in conns:
                conn.close()
            self._conns = None
            self._unavailable = True
            return None
        self._conns = conns
        if self._pool is None:
            self._pool = ThreadPoolExecutor(READERS, thread_name_prefix="archive-read")
        return conns[:count]

    def close(self) -> None:
        self._settle()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        for conn in self._conns or ():
            conn.close()
        self._conns = None
