"""Inserting log entries into an archive, keeping ``ord`` dense and ordered.

``ord`` numbers the rows in (created_at, id) order without gaps, so the n-th row of the
whole list is ``min(ord) + n``. Almost every batch lands entirely after the newest row
(the live tail) or entirely before the oldest (backfill, dump loading, which read newest
first): those just take the next numbers and no existing row changes. A batch that lands
in the middle (entries sharing a millisecond with the edge, a gap filled after a restart)
renumbers only the shorter side of the insertion point, which in practice is a handful of
rows. Runs inside the caller's write transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from api_client.models import LogEntry

BadgesFn = Callable[[LogEntry], Iterable[str]]
Placement = Literal["empty", "append", "prepend", "middle"]

_INSERT_SQL = (
    "INSERT INTO logs(seq, id, ord, model_id, source, created_at, prompt, messages, response,"
    " error, latency_ms, max_tokens, prompt_tokens, completion_tokens, finish_reason,"
    " eval_id, run_id, result_id, message_id, failed, badges)"
    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_ID_CHUNK = 500


@dataclass(frozen=True, slots=True)
class InsertOutcome:
    placement: Placement
    min_ord: int
    max_ord: int


def is_failed(entry: LogEntry) -> bool:
    """The archive's error flag: the call reported an error (what errors-only lists)."""
    return entry.error is not None


def badge_text(entry: LogEntry, badges_fn: BadgesFn | None) -> str:
    """Space-separated, de-duplicated finding kinds for one entry ('' without a function)."""
    if badges_fn is None:
        return ""
    kinds = dict.fromkeys(str(k).strip() for k in badges_fn(entry))
    return " ".join(k.replace(" ", "_") for k in kinds if k)


def _messages_json(entry: LogEntry) -> str | None:
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


def _edge(conn: sqlite3.Connection, agg: str) -> tuple[int, str, int] | None:
    row = conn.execute(
        f"SELECT created_at, id, ord FROM logs WHERE ord = (SELECT {agg}(ord) FROM logs)"
    ).fetchone()
    return (row[0], row[1], row[2]) if row else None


def insert_sorted(
    conn: sqlite3.Connection, new: Sequence[LogEntry], badges_fn: BadgesFn | None
) -> InsertOutcome:
    """Insert entries that are not yet stored, sorted by (created_at, id). Caller holds
    a write transaction; ``new`` must be non-empty and contain no stored id."""
    first = _edge(conn, "min")
    last = _edge(conn, "max")
    lo = (new[0].created_at, new[0].id)
    hi = (new[-1].created_at, new[-1].id)
    n = len(new)
    (max_seq,) = conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()

    if first is None or last is None:
        _write(conn, *_rows(new, badges_fn, max_seq, 0))
        return InsertOutcome("empty", 0, n - 1)
    if lo > (last[0], last[1]):
        _write(conn, *_rows(new, badges_fn, max_seq, last[2] + 1))
        return InsertOutcome("append", first[2], last[2] + n)
    if hi < (first[0], first[1]):
        _write(conn, *_rows(new, badges_fn, max_seq, first[2] - n))
        return InsertOutcome("prepend", first[2] - n, last[2])
    return _insert_middle(conn, new, badges_fn, max_seq, first[2], last[2], lo, hi)


def _rows(
    new: Sequence[LogEntry], badges_fn: BadgesFn | None, max_seq: int, ord0: int | None
) -> tuple[list[tuple[Any, ...]], list[tuple[str, int]]]:
    rows: list[tuple[Any, ...]] = []
    badge_rows: list[tuple[str, int]] = []
    for i, e in enumerate(new):
        seq = max_seq + 1 + i
        badges = badge_text(e, badges_fn)
        if badges:
            badge_rows.extend((kind, seq) for kind in badges.split())
        rows.append(
            (
                seq, e.id, None if ord0 is None else ord0 + i, e.model_id, e.source,
                e.created_at, e.prompt, _messages_json(e), e.response, e.error,
                e.latency_ms, e.max_tokens, e.prompt_tokens, e.completion_tokens,
                e.finish_reason, e.eval_id, e.run_id, e.result_id, e.message_id,
                1 if is_failed(e) else 0, badges,
            )
        )  # fmt: skip
    return rows, badge_rows


def _write(conn: sqlite3.Connection, rows: list[tuple[Any, ...]], badge_rows: list[tuple[str, int]]) -> None:
    conn.executemany(_INSERT_SQL, rows)
    if badge_rows:
        conn.executemany("INSERT OR IGNORE INTO log_badges(kind, seq) VALUES (?, ?)", badge_rows)


def _insert_middle(
    conn: sqlite3.Connection,
    new: Sequence[LogEntry],
    badges_fn: BadgesFn | None,
    max_seq: int,
    min_ord: int,
    max_ord: int,
    lo: tuple[int, str],
    hi: tuple[int, str],
) -> InsertOutcome:
    pred = conn.execute(
        "SELECT ord FROM logs WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 1",
        lo,
    ).fetchone()
    succ = conn.execute(
        "SELECT ord FROM logs WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 1", hi
    ).fetchone()
    suffix_len = max_ord - pred[0] if pred else max_ord - min_ord + 1
    prefix_len = succ[0] - min_ord if succ else max_ord - min_ord + 1
    rows, badge_rows = _rows(new, badges_fn, max_seq, None)
    n = len(new)
    # Unnumber the shorter side first (NULLs never collide in a UNIQUE index), insert the
    # new rows unnumbered, then number everything unnumbered in (created_at, id) order.
    if suffix_len <= prefix_len:
        base = pred[0] if pred else min_ord - 1
        conn.execute("UPDATE logs SET ord = NULL WHERE ord > ?", (base,))
        _write(conn, rows, badge_rows)
        _number_unnumbered(conn, base + 1)
        return InsertOutcome("middle", min(min_ord, base + 1), base + suffix_len + n)
    top = succ[0] if succ else max_ord + 1
    conn.execute("UPDATE logs SET ord = NULL WHERE ord < ?", (top,))
    _write(conn, rows, badge_rows)
    start = top - (prefix_len + n)
    _number_unnumbered(conn, start)
    return InsertOutcome("middle", start, max(max_ord, top - 1))


def _number_unnumbered(conn: sqlite3.Connection, start: int) -> None:
    conn.execute(
        "WITH r AS (SELECT seq, row_number() OVER (ORDER BY created_at, id) AS rn"
        " FROM logs WHERE ord IS NULL)"
        " UPDATE logs SET ord = ? + r.rn - 1 FROM r WHERE logs.seq = r.seq",
        (start,),
    )
