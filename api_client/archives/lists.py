"""Filtered lists of an archive as arrays of ordinals, patched as rows arrive.

A filter (source, errors only, badge, since, or a search combined with those) is resolved
once to the ascending ``ord`` values of the rows it keeps: an ``array('q')``, 8 bytes a
row. Then ``count`` is its length and the n-th row is one index probe, at any offset. Each
write reports the range of ``ord`` values it touched (see archive_ingest); a cached array
only re-reads that range, so the live tail costs a few rows per poll, not a rescan of a
million. (A search alone is listed straight from the FTS index: text_lists.)
"""

from __future__ import annotations

import sqlite3
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace

from api_client.archives.query import LogFilter, where_clause
from common.lru import BoundedLRU

MAX_FILTERS = 8  # arrays kept (least recently used dropped)
MAX_CHANGES = 256  # write ranges remembered; an array older than that is rebuilt


@dataclass(slots=True)
class _Ords:
    version: int
    ords: array


class OrdinalLists:
    """The cache of filtered ordinal arrays for one connection (caller holds its lock)."""

    def __init__(self) -> None:
        self._version = 0
        self._changes: list[tuple[int, int, int]] = []  # (version, lo, hi)
        self._cache: BoundedLRU[LogFilter, _Ords] = BoundedLRU(MAX_FILTERS)

    def record(self, changed: tuple[int, int] | None) -> None:
        """A write touched the rows with ``ord`` in ``changed`` (inclusive)."""
        if changed is not None:
            self._version += 1
            self._changes.append((self._version, *changed))
            del self._changes[:-MAX_CHANGES]

    def invalidate(self) -> None:
        """Forget every array (another process wrote, or badges were recomputed)."""
        self._cache.clear()

    def ords(
        self, conn: sqlite3.Connection, flt: LogFilter, build: Callable[[LogFilter], array] | None = None
    ) -> array:
        """The filter's ordinals, cached; ``build`` makes a whole array (default: one query on
        ``conn``), a cached one is patched on ``conn`` where writes touched it."""
        cached = self._cache.peek(flt)
        oldest_known = self._changes[0][0] - 1 if self._changes else self._version
        if cached is None or cached.version < oldest_known:
            cached = _Ords(self._version, build(flt) if build is not None else select_ords(conn, flt, None))
        elif cached.version < self._version:
            ords = cached.ords
            for version, lo, hi in self._changes:
                if version > cached.version:  # replace that ord range by what it holds now
                    i, j = bisect_left(ords, lo), bisect_right(ords, hi)
                    ords[i:j] = select_ords(conn, flt, (lo, hi))
            cached.version = self._version
        self._cache[flt] = cached  # the newest; the least recently used beyond MAX_FILTERS goes
        return cached.ords


def select_ords(conn: sqlite3.Connection, flt: LogFilter, span: tuple[int, int] | None) -> array:
    """Ascending ``ord`` of the rows ``flt`` keeps, all or within ``span``."""
    # "newer than" becomes an ord bound below (time order is ord order), so the rows'
    # times need not be read; the other conditions stay in SQL.
    where, params = where_clause(replace(flt, since_ms=None))
    lo, hi = span if span is not None else (None, None)
    if flt.since_ms is not None:
        row = conn.execute(
            "SELECT ord FROM logs WHERE created_at > ? AND ord IS NOT NULL ORDER BY created_at, id LIMIT 1",
            (flt.since_ms,),
        ).fetchone()
        if row is None:
            return array("q")
        lo = row[0] if lo is None else max(lo, row[0])
    bounds = "ord IS NOT NULL" if lo is None else "ord >= ?"
    if hi is not None:
        bounds += " AND ord <= ?"
    args = [v for v in (lo, hi) if v is not None] + params
    cur = conn.execute(f"SELECT ord FROM logs WHERE {bounds} AND ({where}) ORDER BY ord", args)
    out = array("q")
    while chunk := cur.fetchmany(50_000):
        out.extend(r[0] for r in chunk)
    return out
