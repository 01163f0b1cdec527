"""A search's rows in time order, read straight from the full-text index (``fulltext``).

A filter that is only a search (the search box) is listed straight from the index, never
materialised: resolving a word found in every row to sorted ordinals means a million
seq -> ord lookups and a sort (seconds at 1M rows). ``SeqRuns`` sees the archive's rows as
runs of consecutive ``ord`` with consecutive ``seq`` (rows stored in time order form one
run; each backfilled page another). Within a run rowid order is time order, so the count
is one FTS count and the n-th match a rowid-range query with an OFFSET (``TextView``).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from api_client.archives import fulltext, seq_runs
from common.lru import BoundedLRU

RUN_CHUNK = 1 << 12
"""Ords per chunk of ``SeqRuns``; a chunk is checked (one covering-index scan) when a list
first needs it, so the first screenful at either end reads one chunk, not the archive.
4,096 ords are ~10 index pages: a common word's first search on a cold page cache read
~160 pages for the 65,536 of an earlier chunk (1M natural calls, 'model': the check was
the biggest part of its first search after the rows themselves)."""

MAX_RUNS_PER_CHUNK = 64
"""Past this many runs in a chunk (runs of fewer than ~64 rows on average: rows stored in
no time order, e.g. a shuffled bulk load), following runs costs more than the ordinal
array: text lists fall back to it."""

MAX_TEXT_LISTS = 16

ARRAY_BELOW = 5_000
"""Searches with fewer matches are materialised as an ordinal array instead (archive_lists):
sparse matches sit far apart in the runs, so the first screenful would walk many chunks,
while the array of a few thousand is quick. Not more: the array reads every match's row,
one disk read each on a cold page cache; over 1M natural calls, the Logs list's count of a
word in 13,894 calls took 450-575 ms by the array (20,000 here before) and 40-80 ms from
the index (its first screenful then 16-42 ms). The count + newest 128 + newest 2,000 rows (the
plot's, drawn after the first frame) varied 167-1,430 ms at 20,000 and 316-633 ms at 5,000 over
three bench runs each (bench_search, load 5-12)."""


def search_array_below(limit: int, rows: int) -> int:
    """Matches below which a search's first ``limit`` ids come from the ordinal array (every
    match's row read) rather than the index's list (the runs walked until ``limit`` matches,
    ``limit`` rows read). The walk covers ~``limit * rows / matches`` ords, checking each
    chunk of them; the array reads every match's row, scattered, in parallel. Measured on a
    cold page cache over 1M natural calls (limit 1,000, load 15): a word in 2,029 calls took
    160 ms by the array and 540 ms by the walk (118 chunks); one in 13,894 calls 530 ms by
    the array and 140-260 ms by the walk. They cost alike near ``sqrt(limit * rows / 100)``."""
    return min(ARRAY_BELOW, max(limit + 1, math.isqrt(limit * rows // 100)))


Run = seq_runs.Run  # (ord_lo, ord_hi, delta): every row with ord in [lo, hi] has seq = ord + delta


class Fragmented(Exception):
    """The rows' ord order and seq order differ too often here to follow runs."""


@dataclass(slots=True)
class _Chunk:
    lo: int  # the ord range checked
    hi: int
    runs: list[Run] | None  # None: fragmented


class SeqRuns:
    """The seq of each ord, as runs, checked chunk by chunk on demand.

    Relies on ``ord`` being dense (archive_ingest keeps it so): when every ord in [lo, hi]
    has seq = ord + delta, the rows with seq in [lo + delta, hi + delta] are exactly those.
    ``seq`` never changes; ``ord`` changes only in the ranges writes report (``record``),
    so only the chunks those touch are checked again. Another process's write drops all.
    """

    def __init__(self) -> None:
        self.size = RUN_CHUNK
        self._chunks: dict[int, _Chunk] = {}

    def invalidate(self) -> None:
        self._chunks.clear()

    def record(self, changed: tuple[int, int] | None) -> None:
        """Rows with ord in ``changed`` were added or renumbered."""
        if changed is None:
            return
        lo, hi = changed
        for k in [k for k, c in self._chunks.items() if c.lo <= hi and lo <= c.hi]:
            del self._chunks[k]  # (chunks the range only extends keep what they checked)

    def runs(
        self, conn: sqlite3.Connection, k: int, bounds: tuple[int, int], known: list[Run] | None = None
    ) -> list[Run]:
        """The runs of chunk ``k`` within the listed ``bounds``, ascending; from ``known`` (the
        archive's kept map, ``seq_runs``: no index read) when given."""
        need_lo, need_hi = max(k * self.size, bounds[0]), min(k * self.size + self.size - 1, bounds[1])
        if known is not None:
            clipped = seq_runs.within(known, need_lo, need_hi)
            if len(clipped) > MAX_RUNS_PER_CHUNK:
                raise Fragmented(k)
            return clipped
        chunk = self._chunks.get(k)
        if chunk is None or chunk.lo < need_lo or chunk.hi > need_hi:
            chunk = _Chunk(need_lo, need_hi, self._check(conn, need_lo, need_hi))
            self._chunks[k] = chunk
        elif chunk.runs is not None and (need_lo < chunk.lo or need_hi > chunk.hi):
            below = self._check(conn, need_lo, chunk.lo - 1) if need_lo < chunk.lo else []
            above = self._check(conn, chunk.hi + 1, need_hi) if need_hi > chunk.hi else []
            joined = None if below is None or above is None else _join(_join(below, chunk.runs), above)
            if joined is not None and len(joined) > MAX_RUNS_PER_CHUNK:
                joined = None
            chunk.lo, chunk.hi, chunk.runs = need_lo, need_hi, joined
        if chunk.runs is None:
            raise Fragmented(k)
        return chunk.runs

    def blocks(
        self,
        conn: sqlite3.Connection,
        bounds: tuple[int, int] | None,
        *,
        descending: bool,
        known: list[Run] | None = None,
    ) -> Iterator[Run]:
        """Every run of the listed rows, in ord order (or reversed)."""
        if bounds is None:
            return
        first, last = bounds[0] // self.size, bounds[1] // self.size
        for k in range(last, first - 1, -1) if descending else range(first, last + 1):
            runs = self.runs(conn, k, bounds, known)
            yield from reversed(runs) if descending else runs

    @staticmethod
    def _check(conn: sqlite3.Connection, lo: int, hi: int) -> list[Run] | None:
        """Split ords [lo, hi] into runs: two covering-index probes per run."""
        return seq_runs.scan(conn, lo, hi, most=MAX_RUNS_PER_CHUNK)


def _join(a: list[Run] | None, b: list[Run] | None) -> list[Run] | None:
    """Runs ``a`` then ``b`` (adjacent ord ranges), merging the two at the seam if they continue."""
    if a is None or b is None:
        return None
    if a and b and a[-1][1] + 1 == b[0][0] and a[-1][2] == b[0][2]:
        return [*a[:-1], (a[-1][0], b[0][1], b[0][2]), *b[1:]]
    return [*a, *b]


@dataclass(slots=True)
class _TextList:
    """What is known of one search's matches. Membership depends only on a row's text,
    which never changes, so these are facts about ``seq`` ranges and never go stale."""

    total: int = 0
    mark: int = 0  # ``total`` counts the matches with seq <= mark
    counts: dict[int, tuple[int, int]] = field(default_factory=dict)  # seq_lo -> (seq_hi, matches)


class TextLists:
    """Lists of search-only filters, keyed by FTS5 match expression (caller holds the lock)."""

    def __init__(self) -> None:
        self.runs = SeqRuns()
        self._lists: BoundedLRU[str, _TextList] = BoundedLRU(MAX_TEXT_LISTS)

    def invalidate(self) -> None:
        """Another process wrote: ords may have moved (the match counts stay true)."""
        self.runs.invalidate()

    def record(self, changed: tuple[int, int] | None) -> None:
        self.runs.record(changed)

    def view(
        self,
        conn: sqlite3.Connection,
        match: str,
        bounds: tuple[int, int] | None,
        count_all: Callable[[str, int], int] | None = None,
        *,
        array_below: int | None = None,
        known: list[Run] | None = None,
    ) -> TextView | None:
        """The list of rows matching ``match``, or None when the ordinal array serves better:
        fewer matches than ``array_below`` (default ``ARRAY_BELOW``), or rows waiting to be
        placed (the FTS index then holds rows the list must not count). Call inside a read
        transaction with the index up to date, so the counts and the ords agree.
        ``count_all(match, mark)`` counts the matches with ``seq <= mark`` the first time
        (default: one query on ``conn``). ``known``: the archive's kept map of seq runs, when it
        describes the archive as it is (``seq_runs.valid_runs``)."""
        if fulltext.has_unnumbered(conn):
            return None
        mark = fulltext.fts_seq(conn)
        lst = self._lists.peek(match)
        if lst is None or lst.mark > mark:
            total = fulltext.kept_count(conn, match)
            if total is None:
                total = (
                    count_all(match, mark) if count_all is not None else fulltext.match_count(conn, match, None, mark)
                )
            lst = _TextList(total=total, mark=mark)
        elif lst.mark < mark:  # rows were added since: count the new ones only
            lst.total += fulltext.match_count(conn, match, lst.mark + 1, mark)
            lst.mark = mark
        self._lists[match] = lst  # the newest; the least recently used beyond MAX_TEXT_LISTS goes
        if lst.total < (ARRAY_BELOW if array_below is None else min(array_below, ARRAY_BELOW)):
            return None
        return TextView(conn, self.runs, match, lst, bounds, known)


class TextView:
    """One search's list at one moment: count, the n-th matches, rank of a row. Walks the
    runs from the nearer end of the list, counting matches per run (counts are cached), so
    the first and the last screenful read one chunk; a jump to the middle reads half the
    runs once. May raise ``Fragmented`` (the caller then uses the ordinal array)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        runs: SeqRuns,
        match: str,
        lst: _TextList,
        bounds: tuple[int, int] | None,
        known: list[Run] | None = None,
    ) -> None:
        self._conn, self._runs, self._match, self._lst, self._bounds = conn, runs, match, lst, bounds
        self._known = known

    def _blocks(self, *, descending: bool) -> Iterator[Run]:
        return self._runs.blocks(self._conn, self._bounds, descending=descending, known=self._known)

    @property
    def total(self) -> int:
        return self._lst.total

    def contains(self, seq: int) -> bool:
        return fulltext.matches(self._conn, self._match, seq)

    def seqs(self, start: int, limit: int) -> list[int]:
        """``seq`` of matches ``start .. start+limit-1``, oldest first."""
        end = min(self.total, start + limit)
        if start >= end:
            return []
        descending = self.total - end < start
        skip, need = (self.total - end, end - start) if descending else (start, end - start)
        out: list[int] = []
        for o_lo, o_hi, delta in self._blocks(descending=descending):
            lo, hi = o_lo + delta, min(o_hi + delta, self._lst.mark)
            if hi < lo:
                continue
            if skip:
                n = self._count(lo, hi)
                if skip >= n:
                    skip -= n
                    continue
            got = fulltext.match_seqs(self._conn, self._match, lo, hi, offset=skip, limit=need, descending=descending)
            out.extend(got)
            skip, need = 0, need - len(got)
            if need <= 0:
                break
        if descending:
            out.reverse()
        return out

    def position(self, log_id: str) -> int | None:
        """Offset of the entry in the list, None when it does not match (or is not listed)."""
        row = self._row(log_id)
        return None if row is None or not self.contains(row[1]) else self.rank(row[0])

    def neighbours(self, log_id: str) -> tuple[int | None, int | None]:
        """``seq`` of the matches just older and just newer than the entry (None at the ends)."""
        row = self._row(log_id)
        if row is None:
            return None, None
        i = self.rank(row[0])
        j = i + 1 if self.contains(row[1]) else i
        before = self.seqs(i - 1, 1) if i > 0 else []
        after = self.seqs(j, 1) if j < self.total else []
        return (before[0] if before else None), (after[0] if after else None)

    def _row(self, log_id: str) -> tuple[int, int] | None:
        row = self._conn.execute("SELECT ord, seq FROM logs WHERE id = ?", (log_id,)).fetchone()
        return None if row is None or row[0] is None else (int(row[0]), int(row[1]))

    def rank(self, ord_: int) -> int:
        """How many matches are older than the row at ``ord_`` (its position if it matches)."""
        if self._bounds is None:
            return 0
        descending = ord_ - self._bounds[0] > self._bounds[1] - ord_
        counted = 0  # matches below ord_ (ascending) or at/above it (descending)
        for o_lo, o_hi, delta in self._blocks(descending=descending):
            if (o_hi < ord_) if not descending else (o_lo >= ord_):
                counted += self._count(o_lo + delta, min(o_hi + delta, self._lst.mark))
                continue
            if not descending and o_lo < ord_:
                counted += fulltext.match_count(
                    self._conn, self._match, o_lo + delta, min(ord_ - 1 + delta, self._lst.mark)
                )
            elif descending and o_hi >= ord_:
                counted += fulltext.match_count(
                    self._conn, self._match, ord_ + delta, min(o_hi + delta, self._lst.mark)
                )
            break
        return self.total - counted if descending else counted

    def _count(self, lo: int, hi: int) -> int:
        """Matches with seq in [lo, hi], cached per run start; a grown run counts its new part."""
        if hi < lo:
            return 0
        known = self._lst.counts.get(lo)
        if known is not None and known[0] == hi:
            return known[1]
        if known is not None and known[0] < hi:
            n = known[1] + fulltext.match_count(self._conn, self._match, known[0] + 1, hi)
        else:
            n = fulltext.match_count(self._conn, self._match, lo, hi)
        self._lst.counts[lo] = (hi, n)
        return n
