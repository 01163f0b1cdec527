"""Inserting log entries into an archive, keeping ``ord`` dense and ordered.

``ord`` numbers the rows in (created_at, id) order without gaps, so the n-th row of the
whole list is ``min(ord) + n``. Almost every batch lands entirely after the newest row
(the live tail) or entirely before the oldest (backfill, a newest-first export or dump):
those just take the next numbers and no existing row changes. A batch that lands in the
middle (entries sharing a millisecond with the edge, a gap filled after a restart) is
stored unnumbered, then numbered together with the rows on the *shorter* side of it,
which in practice is a handful of rows. A bulk load in no time order stores everything
unnumbered (``number=False``) and places it in one pass at the end. Every outcome says
which ord range changed, so cached filtered lists are patched, not rebuilt. Runs inside
the caller's write transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, is_not
from typing import TYPE_CHECKING, Any, Literal

import orjson

from api_client.archives.schema import LOG_COLUMNS, STORED_COLUMNS
from api_client.archives.texts import TextCodec
from common.records import order_key

if TYPE_CHECKING:
    from common.records import Call

BadgesFn = Callable[["Call"], Iterable[str]]
Placement = Literal["empty", "append", "prepend", "middle", "unnumbered", "none"]

_VALUE_COLUMNS = STORED_COLUMNS
"""The columns stored as the entry's attribute of the same name, as it is."""
_INSERT_SQL = (
    f"INSERT INTO logs({', '.join(_VALUE_COLUMNS)}, seq, ord, texts, failed, badges)"
    f" VALUES ({', '.join('?' * (len(_VALUE_COLUMNS) + 5))})"
)
_values_of = attrgetter(*_VALUE_COLUMNS)
_texts_of = attrgetter("prompt", "response", "error")
_MESSAGES_JSON = "messages_json"
"""An entry type may carry its messages already as the archive's JSON text (``WireEntry``
does: cut from the platform's JSON); otherwise it is written from ``entry.messages``."""
_ID_CHUNK = 500
_LINE = "line"
"""An entry type may carry its JSONL line as ``export`` writes it (``WireEntry``, newline
excluded); otherwise its length is measured from the entry's fields."""
JSON_BYTES = "json_bytes"
"""Meta key: the stored calls' size as JSON lines (what ``export`` writes), for the ratio of
the archive's size to it (``blah-tui archives``)."""


@dataclass(frozen=True, slots=True)
class InsertOutcome:
    """What an insert did to the ordinals: the ``bounds`` (min, max ``ord``) afterwards
    (None when nothing is numbered) and the ``changed`` range of ``ord`` values in which
    rows were added or renumbered (None when no numbered row changed). Outside
    ``changed`` every row kept its ``ord``: caches only re-read that range."""

    placement: Placement
    bounds: tuple[int, int] | None
    changed: tuple[int, int] | None


def is_failed(entry: Call) -> bool:
    """The archive's error flag: the call reported an error (what errors-only lists)."""
    return entry.error is not None


def badge_text(entry: Call, badges_fn: BadgesFn | None) -> str:
    """Space-separated, de-duplicated finding kinds for one entry ('' without a function)."""
    if badges_fn is None:
        return ""
    kinds = dict.fromkeys(str(k).strip() for k in badges_fn(entry))
    return " ".join(k.replace(" ", "_") for k in kinds if k)


def set_badges(conn: sqlite3.Connection, updates: Sequence[tuple[str, int]]) -> None:
    """Store new badge texts ``(badges, seq)``, in the row and in ``log_badges``."""
    for badges, seq in updates:
        conn.execute("UPDATE logs SET badges = ? WHERE seq = ?", (badges, seq))
        conn.execute("DELETE FROM log_badges WHERE seq = ?", (seq,))
        conn.executemany(
            "INSERT OR IGNORE INTO log_badges(kind, seq) VALUES (?, ?)", [(k, seq) for k in badges.split()]
        )


def _messages_json(entry: Call) -> str | None:
    if entry.messages is None:
        return None
    return orjson.dumps([{"role": m.role, "content": m.content} for m in entry.messages]).decode()


def existing_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(ids), _ID_CHUNK):
        chunk = ids[start : start + _ID_CHUNK]
        marks = ",".join("?" * len(chunk))
        found.update(r[0] for r in conn.execute(f"SELECT id FROM logs WHERE id IN ({marks})", chunk))
    return found


def _edge(conn: sqlite3.Connection, agg: str) -> tuple[int | None, str, int] | None:
    row = conn.execute(f"SELECT created_at, id, ord FROM logs WHERE ord = (SELECT {agg}(ord) FROM logs)").fetchone()
    return (row[0], row[1], row[2]) if row else None


def _ord(conn: sqlite3.Connection, sql: str, params: tuple[object, ...] = ()) -> int | None:
    row = conn.execute(sql, params).fetchone()
    return None if row is None else int(row[0])


def _before(conn: sqlite3.Connection, at: int | None, row_id: str) -> int | None:
    """The ``ord`` of the row just before (at, id) in the archive's order (NULL times first).
    Two index probes at most: a row-value comparison with NULL is never true."""
    if at is None:
        return _ord(
            conn, "SELECT ord FROM logs WHERE created_at IS NULL AND id < ? ORDER BY id DESC LIMIT 1", (row_id,)
        )
    found = _ord(
        conn,
        "SELECT ord FROM logs WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 1",
        (at, row_id),
    )
    if found is not None:
        return found
    return _ord(conn, "SELECT ord FROM logs WHERE created_at IS NULL ORDER BY id DESC LIMIT 1")


def _after(conn: sqlite3.Connection, at: int | None, row_id: str) -> int | None:
    """The ``ord`` of the row just after (at, id) in the archive's order (NULL times first)."""
    if at is not None:
        return _ord(
            conn, "SELECT ord FROM logs WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 1", (at, row_id)
        )
    found = _ord(conn, "SELECT ord FROM logs WHERE created_at IS NULL AND id > ? ORDER BY id LIMIT 1", (row_id,))
    if found is not None:
        return found
    return _ord(conn, "SELECT ord FROM logs WHERE created_at IS NOT NULL ORDER BY created_at, id LIMIT 1")


def insert_sorted(
    conn: sqlite3.Connection,
    new: Sequence[Call],
    badges_fn: BadgesFn | None,
    codec: TextCodec,
    *,
    number: bool = True,
) -> InsertOutcome:
    """Insert entries that are not yet stored, sorted by (created_at, id). Caller holds
    a write transaction; ``new`` must be non-empty and contain no stored id.

    ``number=False`` stores them unnumbered (not in any list yet) for a later
    ``number_unnumbered``: a bulk load in no particular order then renumbers once."""
    first = _edge(conn, "min")
    last = _edge(conn, "max")
    bounds = None if first is None or last is None else (first[2], last[2])
    lo = order_key(new[0].created_at, new[0].id)
    hi = order_key(new[-1].created_at, new[-1].id)
    n = len(new)
    (max_seq,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
    pending = number and _has_unnumbered(conn)
    if not number or pending:
        _write(conn, *_rows(new, badges_fn, codec, max_seq, None))
        return number_unnumbered(conn) if pending else InsertOutcome("unnumbered", bounds, None)
    if first is None or last is None:
        _write(conn, *_rows(new, badges_fn, codec, max_seq, 0))
        return InsertOutcome("empty", (0, n - 1), (0, n - 1))
    if lo > order_key(last[0], last[1]):
        _write(conn, *_rows(new, badges_fn, codec, max_seq, last[2] + 1))
        return InsertOutcome("append", (first[2], last[2] + n), (last[2] + 1, last[2] + n))
    if hi < order_key(first[0], first[1]):
        _write(conn, *_rows(new, badges_fn, codec, max_seq, first[2] - n))
        return InsertOutcome("prepend", (first[2] - n, last[2]), (first[2] - n, first[2] - 1))
    _write(conn, *_rows(new, badges_fn, codec, max_seq, None))
    return number_unnumbered(conn)


def _has_unnumbered(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM logs INDEXED BY logs_ord WHERE ord IS NULL LIMIT 1").fetchone() is not None


def _rows(
    new: Sequence[Call], badges_fn: BadgesFn | None, codec: TextCodec, max_seq: int, ord0: int | None
) -> tuple[Iterable[tuple[Any, ...]], list[tuple[str, int]]]:
    """The rows of ``new`` in the order of ``_INSERT_SQL``, built column by column (C-level
    ``map``/``zip``: no Python per row when the entries carry their messages' JSON)."""
    n = len(new)
    columns = list(zip(*map(_values_of, new), strict=True))
    kinds = set(map(type, new))
    if len(kinds) == 1 and hasattr(next(iter(kinds)), _MESSAGES_JSON):
        messages: Iterable[str | None] = map(attrgetter(_MESSAGES_JSON), new)
    else:
        messages = map(_messages_json, new)
    messages = list(messages)
    prompts, responses, errors = zip(*map(_texts_of, new), strict=True)
    texts = codec.encode_many(zip(prompts, messages, responses, errors))
    _add_json_bytes(codec.conn, _json_bytes(new, messages))
    failed = map(int, map(is_not, errors, repeat(None)))  # is_failed, per column
    badge_rows: list[tuple[str, int]] = []
    if badges_fn is None:
        badges: Iterable[str] = repeat("")
    else:
        badges = [badge_text(e, badges_fn) for e in new]
        for i, text in enumerate(badges):
            badge_rows.extend((kind, max_seq + 1 + i) for kind in text.split())
    seqs = range(max_seq + 1, max_seq + 1 + n)
    ords: Iterable[int | None] = repeat(None) if ord0 is None else range(ord0, ord0 + n)
    return zip(*columns, seqs, ords, texts, failed, badges), badge_rows


def _json_bytes(new: Sequence[Call], messages: list[str | None]) -> int:
    """The entries' size as JSONL lines, as ``export`` writes them (fields in ``LogEntry``'s
    order, compact JSON, a newline each)."""
    if hasattr(new[0], _LINE) and all(hasattr(e, _LINE) for e in new):
        return sum(len(getattr(e, _LINE)) + 1 for e in new)
    total = 0
    for entry, raw in zip(new, messages, strict=True):
        fields = dict(zip(LOG_COLUMNS, map(entry.__getattribute__, LOG_COLUMNS)))
        fields["messages"] = None
        total += len(orjson.dumps(fields)) + 1 + (0 if raw is None else len(raw.encode()) - 4)  # "null" -> the list
    return total


def _add_json_bytes(conn: sqlite3.Connection, n: int) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value",
        (JSON_BYTES, str(n)),
    )


def _write(conn: sqlite3.Connection, rows: Iterable[tuple[Any, ...]], badge_rows: list[tuple[str, int]]) -> None:
    conn.executemany(_INSERT_SQL, rows)
    if badge_rows:
        conn.executemany("INSERT OR IGNORE INTO log_badges(kind, seq) VALUES (?, ?)", badge_rows)


def number_unnumbered(conn: sqlite3.Connection) -> InsertOutcome:
    """Give every unnumbered row its place. The rows already numbered on the shorter side
    of the new rows' span are renumbered with them (NULLs never collide in the UNIQUE
    index, so: unnumber that side, then number all unnumbered rows in key order)."""
    first = _edge(conn, "min")
    last = _edge(conn, "max")
    (n,) = conn.execute("SELECT count(*) FROM logs INDEXED BY logs_ord WHERE ord IS NULL").fetchone()
    bounds = None if first is None or last is None else (first[2], last[2])
    if n == 0:
        return InsertOutcome("none", bounds, None)
    if first is None or last is None:
        _number(conn, 0)
        return InsertOutcome("empty", (0, n - 1), (0, n - 1))
    lo = conn.execute(
        "SELECT created_at, id FROM logs INDEXED BY logs_ord WHERE ord IS NULL ORDER BY created_at, id LIMIT 1"
    ).fetchone()
    hi = conn.execute(
        "SELECT created_at, id FROM logs INDEXED BY logs_ord WHERE ord IS NULL"
        " ORDER BY created_at DESC, id DESC LIMIT 1"
    ).fetchone()
    # Rows below ``lo`` and above ``hi`` are all numbered (lo/hi bound the unnumbered).
    pred = _before(conn, lo[0], lo[1])
    succ = _after(conn, hi[0], hi[1])
    min_ord, max_ord = first[2], last[2]
    numbered = max_ord - min_ord + 1
    suffix_len = max_ord - pred if pred is not None else numbered
    prefix_len = succ - min_ord if succ is not None else numbered
    if suffix_len <= prefix_len:
        base = pred if pred is not None else min_ord - 1
        if suffix_len:
            conn.execute("UPDATE logs SET ord = NULL WHERE ord > ?", (base,))
        _number(conn, base + 1)
        top = base + suffix_len + n
        return InsertOutcome("middle", (min(min_ord, base + 1), top), (base + 1, top))
    top = succ if succ is not None else max_ord + 1
    if prefix_len:
        conn.execute("UPDATE logs SET ord = NULL WHERE ord < ?", (top,))
    start = top - (prefix_len + n)
    _number(conn, start)
    return InsertOutcome("middle", (start, max(max_ord, top - 1)), (start, top - 1))


def _number(conn: sqlite3.Connection, start: int) -> None:
    conn.execute(
        "WITH r AS (SELECT seq, row_number() OVER (ORDER BY created_at, id) AS rn"
        " FROM logs INDEXED BY logs_ord WHERE ord IS NULL)"
        " UPDATE logs SET ord = ? + r.rn - 1 FROM r WHERE logs.seq = r.seq",
        (start,),
    )
