"""The archive's full-text index: which rows are in it, and adding the rest.

Rows get ``seq`` values in insertion order, so "indexed" is one watermark,
``meta.fts_seq``: rows above it are pending. Indexing is one ``INSERT .. SELECT`` over a
``seq`` range inside a write transaction (FTS5 then flushes its terms once, which is
what makes bulk indexing fast).
"""

from __future__ import annotations

import sqlite3


def fts_seq(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'fts_seq'").fetchone()
    return int(row[0]) if row else 0


def has_pending(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM logs WHERE seq > ? LIMIT 1", (fts_seq(conn),)).fetchone() is not None


def pending_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM logs WHERE seq > ?", (fts_seq(conn),)).fetchone()[0])


def index_step(conn: sqlite3.Connection, max_rows: int | None) -> int:
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
    cur = conn.execute(
        "INSERT INTO logs_fts(rowid, prompt, response, error)"
        " SELECT seq, prompt, response, error FROM logs WHERE seq > ? AND seq <= ?",
        (start, end),
    )
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fts_seq', ?)", (str(end),))
    return int(cur.rowcount)
