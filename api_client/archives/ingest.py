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

from api_client.archives import seq_runs
from api_client.archives.schema import LOG_COLUMNS, STORED_COLUMNS
from api_client.archives.texts import Ahead, TextCodec
from common.records import order_key

if TYPE_CHECKING:
    from common.records import Call

BadgesFn = Callable[["Call"], Iterable[str]]
Placement = Literal["empty", "append", "prepend", "middle", "unnumbered", "none"]

_VALUE_COLUMNS = STORED_COLUMNS
"""The columns stored as the entry's attribute of the same name, as it is."""
_INSERT_SQL = (
    f"INSERT INTO logs({', '.join(_VALUE_COLUMNS)}, texts, failed, badges, seq, ord)"
    f" VALUES ({', '.join('?' * (len(_VALUE_COLUMNS) + 5))})"
)
"""A row: what the entry alone decides (``_base_rows``: may be built ahead of the write
transaction), then its place, ``seq`` and ``ord`` (decided in the transaction)."""
_values_of = attrgetter(*_VALUE_COLUMNS)
_texts_of = attrgetter("prompt", "response", "error")
_error_of = attrgetter("error")
_time_key = attrgetter("created_at", "id")
"""The archive's order, (created_at, id), as one C-level key (when every entry has a time)."""


def _order_of(entry: Call) -> tuple[int, str]:
    return order_key(entry.created_at, entry.id)


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
    before: tuple[int, int] | None = None
    """The bounds before the write."""


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
    new: Sequence[Call] | Encoded,
    badges_fn: BadgesFn | None,
    codec: TextCodec,
    *,
    number: bool = True,
) -> InsertOutcome:
    """``_insert_sorted``, then the archive's map of seq runs kept true (``seq_runs.note``)."""
    (seq_before,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
    outcome = _insert_sorted(conn, new, badges_fn, codec, number=number)
    seq_runs.note(conn, seq_before, outcome.before, outcome.bounds, outcome.changed)
    return outcome


def _insert_sorted(
    conn: sqlite3.Connection,
    new: Sequence[Call] | Encoded,
    badges_fn: BadgesFn | None,
    codec: TextCodec,
    *,
    number: bool = True,
) -> InsertOutcome:
    """Insert entries that are not yet stored, sorted by (created_at, id). Caller holds
    a write transaction; ``new`` must be non-empty and contain no stored id. ``new`` may be
    an ``Encoded`` batch, its texts compressed before the transaction (``encode_sorted``).

    ``number=False`` stores them unnumbered (not in any list yet) for a later
    ``number_unnumbered``: a bulk load in no particular order then renumbers once."""
    if not isinstance(new, Encoded):
        new = Encoded.of(new)
    first = _edge(conn, "min")
    last = _edge(conn, "max")
    bounds = None if first is None or last is None else (first[2], last[2])
    lo = order_key(new.entries[0].created_at, new.entries[0].id)
    hi = order_key(new.entries[-1].created_at, new.entries[-1].id)
    n = len(new.entries)
    (max_seq,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
    pending = number and _has_unnumbered(conn)
    if not number or pending:
        _write(conn, *_rows(new, badges_fn, codec, max_seq, None))
        return _number_unnumbered(conn) if pending else InsertOutcome("unnumbered", bounds, None, bounds)
    if first is None or last is None:
        _write(conn, *_rows(new, badges_fn, codec, max_seq, 0))
        return InsertOutcome("empty", (0, n - 1), (0, n - 1), bounds)
    if lo > order_key(last[0], last[1]):
        _write(conn, *_rows(new, badges_fn, codec, max_seq, last[2] + 1))
        return InsertOutcome("append", (first[2], last[2] + n), (last[2] + 1, last[2] + n), bounds)
    if hi < order_key(first[0], first[1]):
        _write(conn, *_rows(new, badges_fn, codec, max_seq, first[2] - n))
        return InsertOutcome("prepend", (first[2] - n, last[2]), (first[2] - n, first[2] - 1), bounds)
    _write(conn, *_rows(new, badges_fn, codec, max_seq, None))
    return _number_unnumbered(conn)


def _has_unnumbered(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM logs INDEXED BY logs_ord WHERE ord IS NULL LIMIT 1").fetchone() is not None


def _rows(
    new: Encoded, badges_fn: BadgesFn | None, codec: TextCodec, max_seq: int, ord0: int | None
) -> tuple[Iterable[tuple[Any, ...]], list[tuple[str, int]]]:
    """The rows of ``new`` in the order of ``_INSERT_SQL`` (C-level ``map``/``zip``: no Python
    per row when the entries carry their messages' JSON), and their badge rows."""
    entries = new.entries
    n = len(entries)
    _add_json_bytes(codec.conn, new.json_bytes)
    badge_rows: list[tuple[str, int]] = []
    if new.rows is not None and badges_fn is None:
        base: Iterable[tuple[Any, ...]] = new.rows
    else:
        if new.ahead is not None:
            texts = new.ahead.values
        else:
            texts = codec.encode_many(zip(*_text_columns(entries, new.messages)))
        if badges_fn is None:
            badges: Iterable[str] = repeat("")
        else:
            badges = [badge_text(e, badges_fn) for e in entries]
            for i, text in enumerate(badges):
                badge_rows.extend((kind, max_seq + 1 + i) for kind in text.split())
        base = _base_rows(entries, texts, badges)
    seqs = range(max_seq + 1, max_seq + 1 + n)
    ords: Iterable[int | None] = repeat(None) if ord0 is None else range(ord0, ord0 + n)
    return map(tuple.__add__, base, zip(seqs, ords)), badge_rows


def _base_rows(entries: Sequence[Call], texts: Iterable[bytes], badges: Iterable[str]) -> Iterable[tuple[Any, ...]]:
    """What of each row the entry alone decides: its own columns, texts, error flag, badges."""
    failed = map(int, map(is_not, map(_error_of, entries), repeat(None)))  # is_failed, per column
    return map(tuple.__add__, map(_values_of, entries), zip(texts, failed, badges))


def _text_columns(entries: Sequence[Call], messages: Sequence[str | None]) -> tuple[Iterable[str | None], ...]:
    """The stored texts' fields (``TextFields``' order) as four columns."""
    if not entries:
        return (), (), (), ()
    prompts, responses, errors = zip(*map(_texts_of, entries), strict=True)
    return prompts, messages, responses, errors


def _messages_of(entries: Sequence[Call]) -> list[str | None]:
    """The entries' messages as the archive's JSON text (carried by an entry type that has it)."""
    kinds = set(map(type, entries))
    if len(kinds) == 1 and hasattr(next(iter(kinds)), _MESSAGES_JSON):
        return list(map(attrgetter(_MESSAGES_JSON), entries))
    return list(map(_messages_json, entries))


@dataclass(frozen=True, slots=True)
class Encoded:
    """A batch as ``insert_sorted`` stores it: the entries in the archive's (created_at, id)
    order, their messages as JSON text, their size as JSON lines and, when compressed ahead
    of the write transaction (``encode_sorted``), their stored texts and rows; None: made in it."""

    entries: list[Call]
    messages: list[str | None]
    json_bytes: int
    ahead: Ahead | None = None
    rows: list[tuple[Any, ...]] | None = None
    """With ``ahead``: each row's part the entry alone decides (``_base_rows``, no badges)."""

    @classmethod
    def of(cls, entries: Sequence[Call]) -> Encoded:
        """Entries already sorted, not compressed yet."""
        listed = list(entries)
        messages = _messages_of(listed)
        return cls(listed, messages, _json_bytes(listed, messages) if listed else 0)

    def without(self, known: set[str]) -> Encoded:
        """The batch less the entries whose id is in ``known`` (stored meanwhile)."""
        keep = [i for i, e in enumerate(self.entries) if e.id not in known]
        entries = [self.entries[i] for i in keep]
        messages = [self.messages[i] for i in keep]
        ahead, rows = self.ahead, self.rows
        if ahead is not None:
            ahead = Ahead(ahead.number, ahead.dictionary, [ahead.values[i] for i in keep])
        if rows is not None:
            rows = [rows[i] for i in keep]
        return Encoded(entries, messages, _json_bytes(entries, messages) if entries else 0, ahead, rows)

    def uncompressed(self) -> Encoded:
        """The batch with its texts to be compressed in the transaction."""
        return Encoded(self.entries, self.messages, self.json_bytes)

    def text_fields(self) -> list[tuple[str | None, str | None, str | None]]:
        """``(prompt, response, error)`` of each entry: what the full-text index holds."""
        return list(map(_texts_of, self.entries))


def encode_sorted(entries: Sequence[Call], codec: TextCodec) -> Encoded:
    """``entries`` (ids unique, in any order) sorted in the archive's order and, when the
    codec has a dictionary at hand (``TextCodec.encode_ahead``), compressed: no connection is
    used, so this runs in a thread of its own while another batch is being stored."""
    timed = all(entry.created_at is not None for entry in entries)
    batch = Encoded.of(sorted(entries, key=_time_key if timed else _order_of))
    if not batch.entries:
        return batch
    ahead = codec.encode_ahead(zip(*_text_columns(batch.entries, batch.messages)))
    if ahead is None:
        return batch
    rows = list(_base_rows(batch.entries, ahead.values, repeat("")))
    return Encoded(batch.entries, batch.messages, batch.json_bytes, ahead, rows)


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
    """``_number_unnumbered``, then the archive's map of seq runs kept true (``seq_runs.note``)."""
    outcome = _number_unnumbered(conn)
    (seq,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()
    seq_runs.note(conn, seq, outcome.before, outcome.bounds, outcome.changed)
    return outcome


def _number_unnumbered(conn: sqlite3.Connection) -> InsertOutcome:
    """Give every unnumbered row its place. The rows already numbered on the shorter side
    of the new rows' span are renumbered with them (NULLs never collide in the UNIQUE
    index, so: unnumber that side, then number all unnumbered rows in key order)."""
    first = _edge(conn, "min")
    last = _edge(conn, "max")
    (n,) = conn.execute("SELECT count(*) FROM logs INDEXED BY logs_ord WHERE ord IS NULL").fetchone()
    bounds = None if first is None or last is None else (first[2], last[2])
    if n == 0:
        return InsertOutcome("none", bounds, None, bounds)
    if first is None or last is None:
        _number(conn, 0)
        return InsertOutcome("empty", (0, n - 1), (0, n - 1), bounds)
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
        return InsertOutcome("middle", (min(min_ord, base + 1), top), (base + 1, top), bounds)
    top = succ if succ is not None else max_ord + 1
    if prefix_len:
        conn.execute("UPDATE logs SET ord = NULL WHERE ord < ?", (top,))
    start = top - (prefix_len + n)
    _number(conn, start)
    return InsertOutcome("middle", (start, max(max_ord, top - 1)), (start, top - 1), bounds)


def _number(conn: sqlite3.Connection, start: int) -> None:
    conn.execute(
        "WITH r AS (SELECT seq, row_number() OVER (ORDER BY created_at, id) AS rn"
        " FROM logs INDEXED BY logs_ord WHERE ord IS NULL)"
        " UPDATE logs SET ord = ? + r.rn - 1 FROM r WHERE logs.seq = r.seq",
        (start,),
    )
