"""The archive's full-text index: which rows are in it, adding the rest, counting and finding
matches (and the kept counts of common words).

Rows get ``seq`` values in insertion order, so "indexed" is one watermark,
``meta.fts_seq``: rows above it are pending. Indexing reads a ``seq`` range's texts (one
compressed frame a row: archive_texts) and inserts them into the contentless index inside a
write transaction (FTS5 then flushes its terms once, which is what makes bulk indexing fast).
The lists read from the index (a search's rows in time order) are ``text_lists``.
"""

from __future__ import annotations

import sqlite3

from api_client.archives.texts import TextCodec


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


HASH_BYTES = 64 * 1024 * 1024
"""FTS5's memory for the terms a transaction indexes before it writes them out as a segment
(its ``hashsize``). Its default, 1 MiB, holds ~4,000 rows of natural text: a transaction of
20,000 rows wrote five segments, each merged again later (~15% of the index's CPU)."""


def prepare_bulk(conn: sqlite3.Connection) -> None:
    """Let the next transactions index many rows as one segment (``HASH_BYTES``; kept in the
    index's own settings, so written once per archive). Caller holds a write transaction."""
    row = conn.execute("SELECT v FROM logs_fts_config WHERE k = 'hashsize'").fetchone()
    if row is None or row[0] != HASH_BYTES:
        conn.execute("INSERT INTO logs_fts(logs_fts, rank) VALUES ('hashsize', ?)", (HASH_BYTES,))


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
        map(tuple.__add__, zip(range(first_seq, first_seq + len(texts))), texts),  # (C-level: no Python a row)
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
