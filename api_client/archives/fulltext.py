"""The archive's full-text index: which rows are in it, adding the rest, and lists read from it.

Rows get ``seq`` values in insertion order, so "indexed" is one watermark,
``meta.fts_seq``: rows above it are pending. Indexing reads a ``seq`` range's texts (one
compressed frame a row: archive_texts) and inserts them into the contentless index inside a
write transaction (FTS5 then flushes its terms once, which is what makes bulk indexing fast).

A filter that is only a search (the search box) is listed straight from the index, never
materialised: resolving a word found in every row to sorted ordinals means a million
seq -> ord lookups and a sort (seconds at 1M rows). ``SeqRuns`` sees the archive's rows as
runs of consecutive ``ord`` with consecutive ``seq`` (rows stored in time order form one
run; each backfilled page another). Within a run rowid order is time order, so the count
is one FTS count and the n-th match a rowid-range query with an OFFSET (``TextView``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from api_client.archives.texts import TextCodec
from common.lru import BoundedLRU


def fts_seq(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'fts_seq'").fetchone()
    return int(row[0]) if row else 0


def has_pending(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM logs WHERE seq > ? LIMIT 1", (fts_seq(conn),)).fetchone() is not None


def pending_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM logs WHERE seq > ?", (fts_seq(conn),)).fetchone()[0])


def index_step(conn: sqlite3.Connection, max_rows: int | None, codec: TextCodec) -> int:
    """Index up to ``max_rows`` pending rows (all when None); returns how many. The
    caller holds a write transaction."""
    start = fts_seq(conn)
    if max_rows is None:
        (end,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
    else:
        row = conn.execute(
            "SELECT seq FROM logs WHERE seq > ? ORDER BY seq LIMIT 1 OFFSET ?", (start, max_rows - 1)
        ).fetchone()
        end = row[0] if row else conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()[0]
    if end <= start:
        return 0
    decode = codec.decode
    rows = conn.execute("SELECT seq, texts FROM logs WHERE seq > ? AND seq <= ?", (start, end)).fetchall()
    conn.executemany(
        "INSERT INTO logs_fts(rowid, prompt, response, error) VALUES (?, ?, ?, ?)",
        [(seq, t[0], t[2], t[3]) for seq, t in ((seq, decode(blob)) for seq, blob in rows)],
    )
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fts_seq', ?)", (str(end),))
    _count_terms(conn, start + 1, end)
    return len(rows)


TRACK_FROM = 1000
"""Indexed rows before the archive chooses the words whose counts it keeps."""
TRACK_SHARE = 0.02
"""A word in at least this share of those rows has its count kept (``term_counts``)."""
TRACK_MAX = 256


def _count_terms(conn: sqlite3.Connection, lo: int, hi: int) -> None:
    """Rows ``lo..hi`` were just indexed: add their matches to each kept word's count, and
    choose the words once enough rows are indexed. A word's count then answers the count of a
    search for it without reading its doclist (a word in most rows: its whole doclist)."""
    chosen = conn.execute("SELECT 1 FROM meta WHERE key = 'term_counts_from'").fetchone() is not None
    if not chosen:
        if hi < TRACK_FROM:
            return
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.logs_vocab USING fts5vocab(main, logs_fts, 'row')")
        (rows,) = conn.execute("SELECT count(*) FROM logs WHERE seq <= ?", (hi,)).fetchone()
        conn.execute(
            "INSERT INTO term_counts(term, rows) SELECT term, doc FROM temp.logs_vocab WHERE doc >= ?"
            " ORDER BY doc DESC LIMIT ?",
            (max(1, int(rows * TRACK_SHARE)), TRACK_MAX),
        )  # every indexed row counted, exactly (the index holds rows up to ``hi`` only)
        conn.execute("INSERT INTO meta(key, value) VALUES ('term_counts_from', ?)", (str(hi),))
        return
    terms = [r[0] for r in conn.execute("SELECT term FROM term_counts")]
    conn.executemany(
        "UPDATE term_counts SET rows = rows + ("
        "SELECT count(*) FROM logs_fts WHERE logs_fts MATCH ? AND rowid >= ? AND rowid <= ?) WHERE term = ?",
        [(_phrase(t), lo, hi, t) for t in terms],
    )


def _phrase(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def kept_count(conn: sqlite3.Connection, match: str) -> int | None:
    """The count of indexed rows matching ``match`` when it is one word whose count is kept
    (exact: kept in the transactions that index), else None."""
    if not (len(match) >= 2 and match[0] == match[-1] == '"') or " AND " in match:
        return None
    token = match[1:-1].replace('""', '"')
    if '"' in token.replace('""', ""):
        return None
    row = conn.execute("SELECT rows FROM term_counts WHERE term = ?", (token,)).fetchone()
    return None if row is None else int(row[0])


def index_fresh(
    conn: sqlite3.Connection, first_seq: int, texts: list[tuple[str | None, str | None, str | None]]
) -> bool:
    """Index rows just stored with ``seq`` from ``first_seq`` on, from their texts at hand
    ``(prompt, response, error)`` (not read back and decompressed), when every row before
    them is indexed; False (nothing done) otherwise: ``index_step`` then. The caller holds
    the write transaction that stored them."""
    if fts_seq(conn) != first_seq - 1:
        return False
    conn.executemany(
        "INSERT INTO logs_fts(rowid, prompt, response, error) VALUES (?, ?, ?, ?)",
        [(first_seq + i, *t) for i, t in enumerate(texts)],
    )
    end = first_seq + len(texts) - 1
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fts_seq', ?)", (str(end),))
    _count_terms(conn, first_seq, end)
    return True


# ---------------------------------------------------------------------- queries by rowid range
# Rowids are ``seq`` values. FTS5 seeks to a rowid bound through its doclist index, so a
# count or a page of matches over a ``seq`` range costs that range, not the whole doclist.


def match_count(conn: sqlite3.Connection, match: str, lo: int | None = None, hi: int | None = None) -> int:
    """How many indexed rows with ``lo <= seq <= hi`` (unbounded when None) match."""
    sql = "SELECT count(*) FROM logs_fts WHERE logs_fts MATCH ?"
    args: list[object] = [match]
    if lo is not None:
        sql += " AND rowid >= ?"
        args.append(lo)
    if hi is not None:
        sql += " AND rowid <= ?"
        args.append(hi)
    return int(conn.execute(sql, args).fetchone()[0])


def match_seqs(
    conn: sqlite3.Connection, match: str, lo: int, hi: int, *, offset: int, limit: int, descending: bool
) -> list[int]:
    """``seq`` of the matching rows in ``[lo, hi]``, ascending (or descending), skipping
    ``offset`` of them and returning at most ``limit``."""
    order = "DESC" if descending else "ASC"
    rows = conn.execute(
        "SELECT rowid FROM logs_fts WHERE logs_fts MATCH ? AND rowid >= ? AND rowid <= ?"
        f" ORDER BY rowid {order} LIMIT ? OFFSET ?",
        (match, lo, hi, limit, offset),
    )
    return [r[0] for r in rows]


def matches(conn: sqlite3.Connection, match: str, seq: int) -> bool:
    """Whether the row ``seq`` is indexed and matches."""
    row = conn.execute("SELECT 1 FROM logs_fts WHERE logs_fts MATCH ? AND rowid = ?", (match, seq)).fetchone()
    return row is not None


def has_unnumbered(conn: sqlite3.Connection) -> bool:
    """Rows stored but not placed in the list yet (a bulk load in progress)."""
    return conn.execute("SELECT 1 FROM logs INDEXED BY logs_ord WHERE ord IS NULL LIMIT 1").fetchone() is not None


# ---------------------------------------------------------------------------- text lists

RUN_CHUNK = 1 << 16
"""Ords per chunk of ``SeqRuns``; a chunk is checked (one covering-index scan) when a list
first needs it, so the first screenful at either end reads one chunk, not the archive."""

MAX_RUNS_PER_CHUNK = 1024
"""Past this many runs in a chunk (rows stored in no time order, e.g. a shuffled bulk
load), following runs costs more than the ordinal array: text lists fall back to it."""

MAX_TEXT_LISTS = 16

ARRAY_BELOW = 20_000
"""Searches with fewer matches are materialised as an ordinal array instead (archive_lists:
~5-10 us a match, so under ~0.2 s): sparse matches sit far apart in the runs, so the
first screenful would walk many chunks, while the array of a few thousand is quick."""

Run = tuple[int, int, int]  # (ord_lo, ord_hi, delta): every row with ord in [lo, hi] has seq = ord + delta


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

    def runs(self, conn: sqlite3.Connection, k: int, bounds: tuple[int, int]) -> list[Run]:
        """The runs of chunk ``k`` within the listed ``bounds``, ascending."""
        need_lo, need_hi = max(k * self.size, bounds[0]), min(k * self.size + self.size - 1, bounds[1])
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

    def blocks(self, conn: sqlite3.Connection, bounds: tuple[int, int] | None, *, descending: bool) -> Iterator[Run]:
        """Every run of the listed rows, in ord order (or reversed)."""
        if bounds is None:
            return
        first, last = bounds[0] // self.size, bounds[1] // self.size
        for k in range(last, first - 1, -1) if descending else range(first, last + 1):
            runs = self.runs(conn, k, bounds)
            yield from reversed(runs) if descending else runs

    @staticmethod
    def _check(conn: sqlite3.Connection, lo: int, hi: int) -> list[Run] | None:
        """Split ords [lo, hi] into runs: two covering-index probes per run."""
        runs: list[Run] = []
        o = lo
        while o <= hi:
            row = conn.execute(
                "SELECT ord, seq FROM logs WHERE ord >= ? AND ord <= ? ORDER BY ord LIMIT 1", (o, hi)
            ).fetchone()
            if row is None:
                break
            o, delta = row[0], row[1] - row[0]
            brk = conn.execute(
                "SELECT ord FROM logs INDEXED BY logs_ord WHERE ord > ? AND ord <= ? AND seq != ord + ?"
                " ORDER BY ord LIMIT 1",
                (o, hi, delta),
            ).fetchone()
            end = hi if brk is None else brk[0] - 1
            runs.append((o, end, delta))
            if len(runs) > MAX_RUNS_PER_CHUNK:
                return None
            o = end + 1
        return runs


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
    ) -> TextView | None:
        """The list of rows matching ``match``, or None when the ordinal array serves better:
        few matches (``ARRAY_BELOW``), or rows waiting to be placed (the FTS index then
        holds rows the list must not count). Call inside a read transaction with the index
        up to date, so the counts and the ords agree. ``count_all(match, mark)`` counts the
        matches with ``seq <= mark`` the first time (default: one query on ``conn``)."""
        if has_unnumbered(conn):
            return None
        mark = fts_seq(conn)
        lst = self._lists.peek(match)
        if lst is None or lst.mark > mark:
            total = kept_count(conn, match)
            if total is None:
                total = count_all(match, mark) if count_all is not None else match_count(conn, match, None, mark)
            lst = _TextList(total=total, mark=mark)
        elif lst.mark < mark:  # rows were added since: count the new ones only
            lst.total += match_count(conn, match, lst.mark + 1, mark)
            lst.mark = mark
        self._lists[match] = lst  # the newest; the least recently used beyond MAX_TEXT_LISTS goes
        if lst.total < ARRAY_BELOW:
            return None
        return TextView(conn, self.runs, match, lst, bounds)


class TextView:
    """One search's list at one moment: count, the n-th matches, rank of a row. Walks the
    runs from the nearer end of the list, counting matches per run (counts are cached), so
    the first and the last screenful read one chunk; a jump to the middle reads half the
    runs once. May raise ``Fragmented`` (the caller then uses the ordinal array)."""

    def __init__(
        self, conn: sqlite3.Connection, runs: SeqRuns, match: str, lst: _TextList, bounds: tuple[int, int] | None
    ) -> None:
        self._conn, self._runs, self._match, self._lst, self._bounds = conn, runs, match, lst, bounds

    @property
    def total(self) -> int:
        return self._lst.total

    def contains(self, seq: int) -> bool:
        return matches(self._conn, self._match, seq)

    def seqs(self, start: int, limit: int) -> list[int]:
        """``seq`` of matches ``start .. start+limit-1``, oldest first."""
        end = min(self.total, start + limit)
        if start >= end:
            return []
        descending = self.total - end < start
        skip, need = (self.total - end, end - start) if descending else (start, end - start)
        out: list[int] = []
        for o_lo, o_hi, delta in self._runs.blocks(self._conn, self._bounds, descending=descending):
            lo, hi = o_lo + delta, min(o_hi + delta, self._lst.mark)
            if hi < lo:
                continue
            if skip:
                n = self._count(lo, hi)
                if skip >= n:
                    skip -= n
                    continue
            got = match_seqs(self._conn, self._match, lo, hi, offset=skip, limit=need, descending=descending)
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
        for o_lo, o_hi, delta in self._runs.blocks(self._conn, self._bounds, descending=descending):
            if (o_hi < ord_) if not descending else (o_lo >= ord_):
                counted += self._count(o_lo + delta, min(o_hi + delta, self._lst.mark))
                continue
            if not descending and o_lo < ord_:
                counted += match_count(self._conn, self._match, o_lo + delta, min(ord_ - 1 + delta, self._lst.mark))
            elif descending and o_hi >= ord_:
                counted += match_count(self._conn, self._match, ord_ + delta, min(o_hi + delta, self._lst.mark))
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
            n = known[1] + match_count(self._conn, self._match, known[0] + 1, hi)
        else:
            n = match_count(self._conn, self._match, lo, hi)
        self._lst.counts[lo] = (hi, n)
        return n
