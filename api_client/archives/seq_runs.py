"""Which ``seq`` each listed row has, kept in the archive as runs (``meta.seq_runs``), so a
search knows the list order of its matches from the index's rowids alone.

A search's matches come from the full-text index as ``seq`` values (its rowids); the list is
in ``ord`` order. Without this map, a rare word's first search read every match's row, one
scattered page each on a cold page cache, only to learn its ``ord`` (2,029 rows for a word in
0.2% of 1M calls, to answer with the first 1,000), and a mid-frequency word's checked the
ord index chunk by chunk (``text_lists.SeqRuns``). Rows are stored in batches that each take
consecutive ``seq`` and ``ord`` in the same order (the live tail, a newest-first export, a
backfill), so the whole map is a few runs ``(ord_lo, ord_hi, delta)``: every row with ``ord``
in ``[ord_lo, ord_hi]`` has ``seq = ord + delta``.

The writes keep it (``note``, in the transaction that places rows): a batch's placement says
which ``ord`` range changed (``ingest.InsertOutcome``); outside it every row kept its ``ord``,
so only that range is read again from the ord index (the new rows: as many index entries as
the batch). The record names the ``max(seq)`` and list bounds it describes: a writer that did
not keep it (an older blah-tui) leaves a record that no longer matches, which reads ignore
(``valid_runs``) and the next write rebuilds. Rows in no time order (a shuffled bulk load)
make more runs than ``MAX_KEPT``: then none are kept and reads do as before.
"""

from __future__ import annotations

import sqlite3
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import pairwise

import orjson

KEY = "seq_runs"
MAX_KEPT = 4096
"""Runs kept at most (~100 KB of JSON); more: the rows are in no useful order, none kept."""

Run = tuple[int, int, int]  # (ord_lo, ord_hi, delta): every row with ord in [lo, hi] has seq = ord + delta
Bounds = tuple[int, int]


def scan(conn: sqlite3.Connection, lo: int, hi: int, most: int = MAX_KEPT) -> list[Run] | None:
    """The runs of the rows with ``ord`` in ``[lo, hi]``, from the ord index: two probes a
    run, the second a C-level pass over the run's index entries (1M rows in one run: ~0.1 s
    warm); None past ``most`` runs. Relies on ``ord`` being dense there, as the list does."""
    runs: list[Run] = []
    o = lo
    while o <= hi:
        row = conn.execute(
            "SELECT ord, seq FROM logs INDEXED BY logs_ord WHERE ord >= ? AND ord <= ? ORDER BY ord LIMIT 1", (o, hi)
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
        if len(runs) > most:
            return None
        o = end + 1
    return runs


def _outside(runs: Iterable[Run], lo: int, hi: int) -> list[Run]:
    """The parts of ``runs`` outside ``[lo, hi]``."""
    kept: list[Run] = []
    for a, b, d in runs:
        if a < lo:
            kept.append((a, min(b, lo - 1), d))
        if b > hi:
            kept.append((max(a, hi + 1), b, d))
    return kept


def _joined(runs: list[Run]) -> list[Run]:
    """Sorted by ``ord``, adjacent runs of the same delta made one."""
    out: list[Run] = []
    for a, b, d in sorted(runs):
        if out and out[-1][1] + 1 == a and out[-1][2] == d:
            out[-1] = (out[-1][0], b, d)
        else:
            out.append((a, b, d))
    return out


def _covers(runs: Sequence[Run], bounds: Bounds) -> bool:
    """Whether the runs tile ``bounds`` exactly (ords are dense: every listed row is in one)."""
    if not runs or runs[0][0] != bounds[0] or runs[-1][1] != bounds[1]:
        return False
    return all(prev[1] + 1 == nxt[0] for prev, nxt in pairwise(runs))


def _load(conn: sqlite3.Connection) -> dict[str, object] | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (KEY,)).fetchone()
    if row is None:
        return None
    try:
        rec = orjson.loads(row[0])
    except orjson.JSONDecodeError:
        return None
    return rec if isinstance(rec, dict) else None


def _max_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM logs").fetchone()[0])


def _bounds_value(bounds: Bounds | None) -> list[int] | None:
    return None if bounds is None else [bounds[0], bounds[1]]


def _store(conn: sqlite3.Connection, seq: int, bounds: Bounds | None, runs: list[Run] | None) -> None:
    if runs is not None and (len(runs) > MAX_KEPT or (bounds is not None and not _covers(runs, bounds))):
        runs = None
    value = orjson.dumps({"seq": seq, "bounds": _bounds_value(bounds), "runs": runs}).decode()
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (KEY, value))


def note(
    conn: sqlite3.Connection,
    seq_before: int,
    bounds_before: Bounds | None,
    bounds: Bounds | None,
    changed: Bounds | None,
) -> None:
    """Rows were just placed (or stored unplaced): keep the map true. ``seq_before`` and
    ``bounds_before``: the archive before the write; ``bounds`` and ``changed``: its
    ``InsertOutcome``. Caller holds the write transaction."""
    rec = _load(conn)
    seq = _max_seq(conn)
    if bounds is None:
        _store(conn, seq, None, [])
        return
    runs: list[Run] | None
    kept = None if rec is None else rec.get("runs")
    if rec is None or rec.get("seq") != seq_before or rec.get("bounds") != _bounds_value(bounds_before):
        runs = scan(conn, *bounds)  # missing or written by a writer that did not keep it: all again
    elif changed is None:
        runs = None if kept is None else [(a, b, d) for a, b, d in kept]  # type: ignore[attr-defined]
    elif kept is None and changed != bounds:
        runs = None  # too fragmented before, and only a part changed
    else:
        old = [] if kept is None else [(a, b, d) for a, b, d in kept]  # type: ignore[attr-defined]
        fresh = scan(conn, *changed)
        runs = None if fresh is None else _joined(_outside(old, *changed) + fresh)
    _store(conn, seq, bounds, runs)


def build(conn: sqlite3.Connection, bounds: Bounds | None) -> None:
    """Make the map of an archive that has none (written before it was kept). Caller holds
    the write transaction."""
    _store(conn, _max_seq(conn), bounds, [] if bounds is None else scan(conn, *bounds))


def has_record(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM meta WHERE key = ?", (KEY,)).fetchone() is not None


def valid_runs(conn: sqlite3.Connection, bounds: Bounds | None) -> list[Run] | None:
    """The runs of the listed rows, ascending by ``ord``, when the kept map describes the
    archive as it is (same ``max(seq)`` and list bounds), else None. Call inside the read
    transaction the rest of the answer is read in."""
    rec = _load(conn)
    if rec is None or bounds is None or rec.get("bounds") != _bounds_value(bounds):
        return None
    runs = rec.get("runs")
    if not isinstance(runs, list) or rec.get("seq") != _max_seq(conn):
        return None
    return [(a, b, d) for a, b, d in runs]


def in_list_order(seqs: Iterable[int], runs: Sequence[Run]) -> list[tuple[int, int]]:
    """``(ord, seq)`` of the listed rows among ``seqs``, ascending by ``ord`` (a seq in no run
    is a row not placed in the list: left out)."""
    by_seq = sorted((a + d, b + d, d) for a, b, d in runs)
    starts = [r[0] for r in by_seq]
    out: list[tuple[int, int]] = []
    for s in seqs:
        i = bisect_right(starts, s) - 1
        if i >= 0 and s <= by_seq[i][1]:
            out.append((s - by_seq[i][2], s))
    out.sort()
    return out


def within(runs: Sequence[Run], lo: int, hi: int) -> list[Run]:
    """The runs clipped to the ords ``[lo, hi]``, ascending."""
    i = max(0, bisect_right(runs, (lo, lo, 0)) - 1) if runs else 0
    out: list[Run] = []
    for a, b, d in runs[i:]:
        if a > hi:
            break
        if b >= lo:
            out.append((max(a, lo), min(b, hi), d))
    return out


def seqs_of(ords: Sequence[int], runs: Sequence[Run]) -> list[int] | None:
    """The ``seq`` of each listed row of ``ords``; None when one is in no run."""
    starts = [r[0] for r in runs]
    out: list[int] = []
    for o in ords:
        i = bisect_right(starts, o) - 1
        if i < 0 or o > runs[i][1]:
            return None
        out.append(o + runs[i][2])
    return out
