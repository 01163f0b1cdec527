"""The local archive: every log entry ever seen for one model, in one SQLite file.

The logs screen reads it as a list of maybe a million rows, a window of ~100 at a time:
``count(filter)`` then ``window(filter, offset, limit)``, oldest first. Both are cheap at
any offset (archive_ingest keeps a dense ``ord`` column in time order; archive_lists
resolves a filtered list once to an array of ordinals and patches it as rows arrive).
Text search is FTS5 over prompt/response/error with user input taken literally
(archive_query); a list that is only a search is read from the FTS index as needed,
never materialised (text_lists.TextView), so a word found in every row answers about
as fast as a rare one. Thread-safe (one connection behind a lock) so async callers may
run ``add`` in a worker thread. Entries are never stored twice: ``id`` decides.
"""

from __future__ import annotations

import tempfile
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack

from api_client.archives import fulltext as text_index
from api_client.archives import seq_runs, text_lists
from api_client.archives.base import FULL_SELECT, ArchiveBase, call_from_row, log_values
from api_client.archives.files import archive_path, mark_used, move_aside
from api_client.archives.ingest import (
    BadgesFn,
    Encoded,
    InsertOutcome,
    badge_text,
    encode_sorted,
    existing_ids,
    insert_sorted,
    number_unnumbered,
    set_badges,
)
from api_client.archives.lists import OrdinalLists, select_ords
from api_client.archives.query import (
    ALL,
    ROW_SELECT,
    ArchivedRow,
    LogFilter,
    SearchResult,
    compile_text,
    match_spans,
    search_only_match,
    where_clause,
)
from api_client.archives.schema import (
    ArchiveCorruptError,
    ArchiveError,
    ArchiveVersionError,
)
from api_client.archives.text_backlog import TextBacklog, index_backlog
from api_client.archives.text_lists import Fragmented, TextLists, TextView, search_array_below
from common.records import order_key

if TYPE_CHECKING:
    from common.records import Call

T = TypeVar("T")
WARM_FROM = 100_000
"""Listed rows from which a search warms its likely first rows in the background
(``ParallelReaders.warm``): a smaller archive's rows are read in a few milliseconds anyway."""
_id_of = attrgetter("id")
_texts_of = attrgetter("prompt", "response", "error")
_time_key = attrgetter("created_at", "id")
"""The archive's order, (created_at, id), as one C-level key (when every entry has a time)."""


def _order_of(entry: Call) -> tuple[int, str]:
    return order_key(entry.created_at, entry.id)


def _first_of_each(entries: Iterable[Call]) -> list[Call]:
    """The entries, the first of each id only (a C-level check first: rarely any twice)."""
    batch = list(entries)
    if len(set(map(_id_of, batch))) == len(batch):
        return batch
    firsts: dict[str, Call] = {}
    for entry in batch:
        firsts.setdefault(entry.id, entry)
    return list(firsts.values())


__all__ = [
    "ALL",
    "Archive",
    "ArchiveCorruptError",
    "ArchiveError",
    "ArchiveVersionError",
    "ArchivedRow",
    "LogFilter",
    "SearchResult",
    "match_spans",
]


class StoreOptions(TypedDict, total=False):
    """How :meth:`Archive.add` / :meth:`Archive.add_new` store a batch (see ``add``)."""

    index_text: bool
    number: bool


class Archive(ArchiveBase):
    """One archive file. ``Archive(path)`` opens (or creates) it; see module docstring."""

    def __init__(self, path: Path | str, *, _temp_dir: Path | None = None) -> None:
        self._lists = OrdinalLists()
        self._texts = TextLists()
        self._backlog: TextBacklog | None = None
        """Rows ``add_encoded`` stored that wait for the full-text index, with their texts."""
        super().__init__(path, _temp_dir=_temp_dir)

    # ------------------------------------------------------------------ opening / files

    @staticmethod
    def path_for(data_dir: Path | str, base_url: str, model_id: str, profile: str = "") -> Path:
        """The archive file of a model on a platform, in the profile's folder (see
        archive_files.archive_path; ``""``: today's implicit blah.dev profile)."""
        return archive_path(data_dir, base_url, model_id, profile)

    @classmethod
    def for_model(cls, data_dir: Path | str, platform: str, base_url: str, model_id: str, profile: str = "") -> Archive:
        """Open the archive of ``model_id`` on the platform at ``base_url`` for ``profile``.
        The file is chosen by profile, base URL and model id; ``platform`` is a display label
        kept in meta."""
        archive = cls(cls.path_for(data_dir, base_url, model_id, profile))
        mark_used(archive.path)
        if archive.get_meta("model_id") is None:
            archive.set_meta("platform", platform)
            archive.set_meta("base_url", base_url)
            archive.set_meta("model_id", model_id)
        return archive

    @classmethod
    def create_temporary(cls, prefix: str = "blah-tui-archive-") -> Archive:
        """A fresh archive in a private temporary directory, removed by ``close()``."""
        temp_dir = Path(tempfile.mkdtemp(prefix=prefix))
        return cls(temp_dir / "archive.sqlite3", _temp_dir=temp_dir)

    @classmethod
    def quarantine(cls, path: Path | str) -> tuple[Archive, Path]:
        """Move a (corrupt) archive file aside to ``<name>.corrupt-<ts>``, with its WAL and
        shared-memory files, and open a fresh empty archive at ``path``. Nothing is deleted.
        Returns the new archive and where the old file now is."""
        path = Path(path)
        moved = move_aside(path)
        return cls(path), moved

    # ------------------------------------------------------------------ writing

    def add(self, entries: Iterable[Call], badges_fn: BadgesFn | None = None, **options: Unpack[StoreOptions]) -> int:
        """Store the entries not stored yet (one transaction); return how many were new.

        ``index_text=False`` leaves the new rows out of the full-text index for now (a bulk
        load is much faster that way); they are indexed by the next ``add`` that indexes,
        by ``index_pending()``, or at the latest before any text search, so search results
        are always complete.

        ``number=False`` (bulk loads in no particular time order) stores the rows without
        placing them in the time-ordered list: they are not counted or listed until the
        next ``add`` with ``number=True`` or ``number_pending()``, which places all of
        them at once. Batches that land before or after everything held (the live tail,
        backfill, a newest-first export) need no such care.
        """
        return len(self.add_new(entries, badges_fn, **options))

    def add_new(
        self,
        entries: Iterable[Call],
        badges_fn: BadgesFn | None = None,
        *,
        index_text: bool = True,
        number: bool = True,
    ) -> list[Call]:
        """Like ``add``, returning the entries that were new, in the order given."""
        batch = _first_of_each(entries)
        ids = list(map(_id_of, batch))
        if not batch:
            return []
        outcome: InsertOutcome | None = None
        with self._transaction() as conn:
            self._sync_external()  # inside the write lock: sees every other writer
            known = existing_ids(conn, ids)
            new = [e for e in batch if e.id not in known] if known else batch
            if new:
                timed = all(entry.created_at is not None for entry in new)
                ordered = sorted(new, key=_time_key if timed else _order_of)
                (first_seq,) = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM logs").fetchone()
                outcome = insert_sorted(conn, ordered, badges_fn, self._codec, number=number)
                if index_text and not text_index.index_fresh(conn, first_seq, list(map(_texts_of, ordered))):
                    text_index.index_step(conn, None, self._codec)
        with self._lock:
            self._after_write(outcome)
        return new

    def encode(self, entries: Iterable[Call]) -> Encoded:
        """A batch for ``add_encoded``, made ready without the archive's connection or lock
        (the first of each id, in time order, its texts compressed when the archive has a
        dictionary at hand): a thread encodes the next batch while another stores the last."""
        return encode_sorted(_first_of_each(entries), self._codec)

    def add_encoded(self, batch: Encoded, *, index_after: int = 0) -> int:
        """Store a batch from ``encode``: the entries not stored yet, in one transaction, as
        ``add`` does; returns how many were new. Their text joins the full-text index once at
        least ``index_after`` rows wait for it (kept at hand until then: ``text_backlog``), or
        by ``index_pending()``, or at the latest before any text search."""
        if not batch.entries:
            return 0
        outcome: InsertOutcome | None = None
        with self._transaction() as conn:
            self._sync_external()  # inside the write lock: sees every other writer
            backlog = self._backlog
            known = existing_ids(conn, list(map(_id_of, batch.entries)))
            new = batch.without(known) if known else batch
            if new.entries:
                if new.ahead is not None and not self._codec.holds(new.ahead):
                    new = new.uncompressed()  # its dictionary is gone (rolled back): compressed here
                (first_seq,) = conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM logs").fetchone()
                outcome = insert_sorted(conn, new, None, self._codec)
                texts = new.text_fields()
                backlog = TextBacklog(first_seq, texts) if backlog is None else backlog.then(first_seq, texts)
                if backlog is None or backlog.rows >= index_after:
                    index_backlog(conn, backlog, self._codec)
                    backlog = None
        with self._lock:
            self._backlog = backlog
            self._after_write(outcome)
        return len(new.entries)

    def add_sparse(self, entries: Iterable[Call], badges_fn: BadgesFn | None = None) -> list[Call] | None:
        """Store calls a filtered query found (e.g. errors only) older than the unbroken
        stretch, without letting ``oldest_ms`` claim the calls between them are held: the
        tail, backfill and export still fetch those. Returns the new entries, or None (and
        stores nothing) when the archive holds no stretch to keep apart from them."""
        if not self._hold_stretch_floor():
            return None
        return self.add_new(entries, badges_fn)

    def number_pending(self) -> int:
        """Place the rows stored with ``number=False`` in the list; returns how many rows
        were numbered or renumbered (0 when none was pending)."""
        with self._transaction() as conn:
            self._sync_external()
            outcome = number_unnumbered(conn)
        with self._lock:
            self._after_write(outcome)
        changed = outcome.changed
        return 0 if changed is None else changed[1] - changed[0] + 1

    def _after_write(self, outcome: InsertOutcome | None) -> None:
        # (PRAGMA data_version ignores this connection's own commits: nothing to note.)
        if outcome is None:
            return
        self._bounds = outcome.bounds
        self._lists.record(outcome.changed)
        self._texts.record(outcome.changed)

    def pending_text_index(self) -> int:
        """How many stored entries are not in the full-text index yet."""
        with self._lock, self._guard():
            return text_index.pending_count(self._conn)

    def index_pending(self, max_rows: int | None = None, chunk: int = 5000) -> int:
        """Add pending entries to the full-text index, ``chunk`` rows per transaction (the
        lock is released between chunks, so readers interleave). Returns rows indexed."""
        done = 0
        if self._backlog is not None:  # the texts at hand first, in one transaction
            with self._transaction() as conn:
                done = index_backlog(conn, self._backlog, self._codec)
                self._backlog = None
        while max_rows is None or done < max_rows:
            step = chunk if max_rows is None else min(chunk, max_rows - done)
            with self._transaction() as conn:
                n = text_index.index_step(conn, step, self._codec)
            if n == 0:
                break
            done += n
        return done

    def _ensure_indexed(self, flt: LogFilter) -> None:
        """Text filters read the FTS index: bring it up to date first (never partial)."""
        if flt.text and compile_text(flt.text).match is not None and text_index.has_pending(self._conn):
            self.index_pending()

    def recompute_badges(self, badges_fn: BadgesFn, batch_size: int = 2000) -> int:
        """Re-run the badge function over every stored entry (e.g. after the diagnosis
        rules changed); returns how many rows changed badges."""
        changed = 0
        last = -1
        while True:
            with self._lock, self._guard():
                rows = self._conn.execute(
                    f"SELECT seq, badges, {FULL_SELECT} FROM logs WHERE seq > ? ORDER BY seq LIMIT ?",
                    (last, batch_size),
                ).fetchall()
                if not rows:
                    return changed
                last = rows[-1][0]
                updates = [
                    (new, seq)
                    for seq, old, *cols in rows
                    if (new := badge_text(call_from_row(log_values(tuple(cols), self._codec)), badges_fn)) != old
                ]
                if updates:
                    with self._transaction() as conn:
                        set_badges(conn, updates)
                    changed += len(updates)
                    self._lists.invalidate()  # badge filters keep other rows now

    # ------------------------------------------------------------------ reading: lists

    def count(self, flt: LogFilter = ALL) -> int:
        """How many stored entries the filter keeps (exact)."""
        with self._lock, self._guard():
            self._sync_external()
            if flt.is_empty:
                return 0 if self._bounds is None else self._bounds[1] - self._bounds[0] + 1
            lazy = self._from_text_list(flt, lambda view: view.total)
            return lazy[0] if lazy is not None else len(self._ords(flt))

    def window(self, flt: LogFilter = ALL, offset: int = 0, limit: int = 100) -> list[ArchivedRow]:
        """Rows ``offset .. offset+limit-1`` of the filtered list, oldest first."""
        if limit <= 0 or offset < 0:
            return []
        with self._lock, self._guard():
            self._sync_external()
            if flt.is_empty:
                if self._bounds is None:
                    return []
                start = self._bounds[0] + offset
                rows = self._conn.execute(
                    f"SELECT {ROW_SELECT} FROM logs WHERE ord >= ? AND ord < ? ORDER BY ord",
                    (start, start + limit),
                ).fetchall()
            else:
                lazy = self._from_text_list(flt, lambda view: view.seqs(offset, limit))
                if lazy is not None:
                    rows = self._readers.rows_by_seq(lazy[0], ROW_SELECT)
                else:
                    wanted = self._ords(flt)[offset : offset + limit].tolist()
                    rows = self._rows_by_ord(wanted, ROW_SELECT)
            return [ArchivedRow.from_sql(r, self._codec) for r in rows]

    def position(self, log_id: str, flt: LogFilter = ALL) -> int | None:
        """Offset of an entry in the filtered list, or None when the filter drops it."""
        with self._lock, self._guard():
            self._sync_external()
            row = self._conn.execute("SELECT ord FROM logs WHERE id = ?", (log_id,)).fetchone()
            if row is None or row[0] is None or self._bounds is None:
                return None
            if flt.is_empty:
                return int(row[0]) - self._bounds[0]
            lazy = self._from_text_list(flt, lambda view: view.position(log_id))
            if lazy is not None:
                return lazy[0]
            ords = self._ords(flt)
            i = bisect_left(ords, row[0])
            return i if i < len(ords) and ords[i] == row[0] else None

    def neighbours(self, log_id: str, flt: LogFilter = ALL) -> tuple[str | None, str | None]:
        """Ids of the entries just older and just newer than ``log_id`` in the filtered
        list (None at either end). When the filter drops ``log_id`` itself, the nearest
        kept entries on each side of it."""
        with self._lock, self._guard():
            self._sync_external()
            row = self._conn.execute("SELECT ord FROM logs WHERE id = ?", (log_id,)).fetchone()
            if row is None or row[0] is None:
                return None, None
            here = int(row[0])
            before: int | None
            after: int | None
            if flt.is_empty:
                before, after = here - 1, here + 1
            else:
                lazy = self._from_text_list(flt, lambda view: view.neighbours(log_id))
                if lazy is not None:
                    pair = lazy[0]
                    by_seq = dict(self._readers.rows_by_seq([s for s in pair if s is not None], "seq, id"))
                    return by_seq.get(pair[0]), by_seq.get(pair[1])
                ords = self._ords(flt)
                i = bisect_left(ords, here)
                before = ords[i - 1] if i > 0 else None
                j = i + 1 if i < len(ords) and ords[i] == here else i
                after = ords[j] if j < len(ords) else None
            ids = dict(self._conn.execute("SELECT ord, id FROM logs WHERE ord IN (?, ?)", (before, after)))
            return ids.get(before), ids.get(after)

    def search(self, query: str, flt: LogFilter = ALL, *, limit: int | None = 1000) -> SearchResult:
        """Entries matching ``query`` (literal terms, all required) within ``flt``: the
        exact count, the first ``limit`` ids oldest first, and the terms to highlight."""
        text = " ".join(t for t in (flt.text, query) if t and t.strip())
        tq = compile_text(text)
        if tq.is_empty:
            return SearchResult(count=0, ids=[], terms=())
        combined = replace(flt, text=text)
        with self._lock, self._guard():
            self._sync_external()
            # Many more matches than ``limit``: read from the index's list, only the first
            # ``limit`` rows (a word in 1-2% of a million calls: 1,000 rows, not all 10,000-20,000
            # of them, each one disk read on a cold page cache). Fewer: the ordinal array, which
            # reads each match's row once (text_lists.search_array_below).
            rows = 0 if self._bounds is None else self._bounds[1] - self._bounds[0] + 1
            match = search_only_match(combined)

            def first(view: TextView) -> tuple[int, list[int]]:
                if match is not None and limit is not None and rows >= WARM_FROM:
                    self._readers.warm(match, limit)  # the likely first rows, read while the runs are checked
                return view.total, view.seqs(0, view.total if limit is None else limit)

            below = None if limit is None else search_array_below(limit, rows)
            listed = None
            if match is not None:
                self._ensure_indexed(combined)
                listed = self._listed_matches(match, text_lists.ARRAY_BELOW if below is None else below)
            if listed is not None:  # few matches, placed by the kept seq runs: only the rows shown are read
                shown = listed if limit is None else listed[:limit]
                ids = [r[0] for r in self._readers.rows_by_seq([seq for _, seq in shown], "id", wide=False)]
                return SearchResult(count=len(listed), ids=ids, terms=tq.terms)
            lazy = self._from_text_list(combined, first, array_below=below)
            if lazy is not None:
                total, seqs = lazy[0]
                ids = [r[0] for r in self._readers.rows_by_seq(seqs, "id", wide=False)]
                return SearchResult(count=total, ids=ids, terms=tq.terms)
            if match is not None:  # few matches: their ords and ids in one read of their rows
                total, ids = self._readers.count_and_ids(match, limit)
                return SearchResult(count=total, ids=ids, terms=tq.terms)
            ords = self._ords(combined)
            head = ords.tolist() if limit is None else ords[:limit].tolist()
            ids = [r[0] for r in self._readers.rows_by_ord(head, "id, ord")]
            return SearchResult(count=len(ords), ids=ids, terms=tq.terms)

    def iter_all(self, flt: LogFilter = ALL, *, newest_first: bool = False, batch_size: int = 1000) -> Iterator[Call]:
        """Every entry the filter keeps, as Call, in time order (read in batches)."""
        with self._lock, self._guard():
            self._ensure_indexed(flt)
        where, params = where_clause(flt)
        op, order = ("<", "DESC") if newest_first else (">", "ASC")
        last: int | None = None
        while True:
            with self._lock, self._guard():
                bound = "" if last is None else f"ord {op} ? AND "
                args = ([] if last is None else [last]) + params + [batch_size]
                rows = self._conn.execute(
                    f"SELECT ord, {FULL_SELECT} FROM logs WHERE ord IS NOT NULL AND {bound}({where})"
                    f" ORDER BY ord {order} LIMIT ?",
                    args,
                ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            for row in rows:
                yield call_from_row(log_values(row[1:], self._codec))

    # ------------------------------------------------------------------ internals

    def _sync_external(self) -> None:
        """Another connection (another blah-tui process) wrote: drop what we cached."""
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._data_version = version
            self._lists.invalidate()  # we cannot know which rows the other writer touched
            self._texts.invalidate()
            self._load_bounds()

    def _ords(self, flt: LogFilter) -> array:
        self._ensure_indexed(flt)
        return self._lists.ords(self._conn, flt, self._all_ords)

    def _all_ords(self, flt: LogFilter) -> array:
        """Every ``ord`` the filter keeps; a search alone reads its scattered rows on the
        parallel readers (a cold page cache: one disk read a row)."""
        match = search_only_match(flt)
        if match is not None:
            listed = self._listed_matches(match)
            if listed is not None:  # placed by the kept seq runs: no row read
                return array("q", (o for o, _ in listed))
            return self._readers.placed_ords(match)
        return select_ords(self._conn, flt, None)

    def _listed_matches(self, match: str, below: int | None = None) -> list[tuple[int, int]] | None:
        """``(ord, seq)`` of the listed rows matching the FTS5 expression ``match``, in list
        order, from the index's rowids and the archive's kept seq runs (``seq_runs``) in one read
        snapshot, reading no row; None when the map does not describe the archive as it is, or
        when the index holds ``below`` matches or more (a word whose count is kept is not read).
        Caller holds the lock, with the index up to date."""
        with self._snapshot():
            self._sync_external()
            runs = seq_runs.valid_runs(self._conn, self._bounds)
            if runs is None:
                return None
            sql = "SELECT rowid FROM logs_fts WHERE logs_fts MATCH ?"
            args: list[object] = [match]
            if below is not None:
                kept = text_index.kept_count(self._conn, match)
                if kept is not None and kept >= below:
                    return None
                sql, args = sql + " LIMIT ?", [match, below]
            seqs = [r[0] for r in self._conn.execute(sql, args)]
        if below is not None and len(seqs) >= below:
            return None
        return seq_runs.in_list_order(seqs, runs)

    def _rows_by_ord(self, ords: list[int], columns: str) -> list[tuple[Any, ...]]:
        """The rows of these (ascending) ordinals, in that order: read by ``seq`` when the kept
        seq runs say which (a scattered row is then one read, not an ord index read and a row
        read), else by ``ord``."""
        with self._snapshot():
            runs = seq_runs.valid_runs(self._conn, self._bounds) if ords else None
        seqs = None if runs is None else seq_runs.seqs_of(ords, runs)
        if seqs is None:
            return self._readers.rows_by_ord(ords, columns)
        return self._readers.rows_by_seq(seqs, columns)

    def _from_text_list(
        self, flt: LogFilter, read: Callable[[TextView], T], *, array_below: int | None = None
    ) -> tuple[T] | None:
        """``(read(view),)`` for a search-only filter, read from the FTS index in one read
        snapshot; None when the filter needs the ordinal array (other conditions or
        substring terms, rows waiting to be placed, or rows so out of time order that
        following runs costs more). Caller holds the lock."""
        match = search_only_match(flt)
        if match is None:
            return None
        self._ensure_indexed(flt)  # (writes: must come before the read transaction)
        with self._snapshot():
            self._sync_external()
            view = self._texts.view(
                self._conn,
                match,
                self._bounds,
                self._readers.count_matches,
                array_below=array_below,
                known=seq_runs.valid_runs(self._conn, self._bounds),
            )
            if view is None:
                return None
            try:
                return (read(view),)
            except Fragmented:
                return None

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """A read transaction: the FTS counts and the ords read in it agree even while
        another process writes."""
        self._conn.execute("BEGIN")
        try:
            self._conn.execute("SELECT 1 FROM meta LIMIT 1").fetchall()  # BEGIN is deferred: take the snapshot
            yield
        finally:
            self._conn.execute("COMMIT")
