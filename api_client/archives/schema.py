"""On-disk layout of the local log archive, and opening a file safely.

One SQLite file per (platform, model). Opening never writes to a file that is not already
a blah-tui archive: a corrupt or foreign file raises :class:`ArchiveCorruptError` and is
left exactly as it was (the caller may move it aside with ``Archive.quarantine``).

Layout (schema 3), and why:
- ``logs``: one row per LogEntry. ``id`` is the logical primary key (UNIQUE: an entry is
  never stored twice). ``seq`` is an ``INTEGER PRIMARY KEY``: the full-text index's rowid
  (a plain rowid may be renumbered by VACUUM). The call's texts (prompt, messages as JSON,
  response, error) are one zstd frame in ``texts`` (archive_texts: the user's message, in
  the prompt and again in the messages, is stored once; a dictionary trained per archive),
  the last column so the list's other columns are read without it; every other wire field
  is a column of its own.
- ``created_at``: the call's time (ms), NULL when the platform gave none (a Blobfish step of an
  evaluation without a publication time): a missing time stays missing, never 0. Such rows
  come first in the (created_at, id) order, as SQLite sorts NULL lowest (``ingest.order_key``).
- ``ord``: a dense ordinal of the (created_at, id) order, maintained at insert time (see
  archive_ingest), so the n-th row of the unfiltered list is one index probe (no OFFSET
  scan) and a filtered list is resolved once to an array of ordinals, then patched.
  NULL while a row waits to be placed (bulk loads in no time order).
- ``failed``: the error flag (``error`` is set), indexed for errors-only lists.
- ``badges``: space-separated finding kinds computed by a caller-supplied function;
  mirrored in ``log_badges`` so a badge filter reads an index instead of scanning text.
- ``logs_fts``: FTS5 over prompt/response/error, *contentless* (``content=''``: the text
  lives once, compressed, in ``logs``) with ``detail=none``: the search asks only which rows
  hold every term's tokens, in any column, never where (no ranking, no column filter,
  no highlighting from the index: ``match_spans`` finds the terms in the shown text), so
  the index keeps rowids only (natural text: 129 bytes a call against 468 with positions).
  A term of several tokens (``gpt-4``) is matched as all its tokens, then checked as a
  phrase in the row's text (archive_query). Rows are indexed by ``seq`` range inside a
  write transaction (FTS5 then flushes its terms once). ``meta.fts_seq`` is the highest
  ``seq`` indexed; rows above it are pending (``Archive.add(index_text=False)`` defers
  indexing for bulk loads). Text is never updated and rows never deleted, so the index
  cannot go stale.
- ``text_dicts``: the zstd dictionaries ``texts`` are compressed with (archive_texts).
- ``term_counts``: how many indexed rows hold each of the archive's common words (those in
  >= 2% of its first ~1,000 indexed rows, at most 256), kept in the transactions that index,
  so counting a search for one of them reads no doclist (fulltext.kept_count).
- ``meta``: key/value: schema version, tail cursor, history-complete flag, labels, and the map
  of which ``seq`` each listed row has (``seq_runs``: a few runs, kept by the writes that place
  rows), so a search puts its matches in list order without reading their rows.

Schema 1 (the texts as TEXT columns, FTS5 over them as external content with positions) is
migrated in place on first open (archive_migrate); schema 2 (``created_at`` NOT NULL, 0 stored
for a Blobfish step without a time) only has the constraint lifted and those 0s made NULL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA_VERSION = 3
APPLICATION_ID = 0x626C6168  # "blah": marks the file as ours (PRAGMA application_id)

# SQLite primary result codes that mean "the bytes on disk are not a sound database".
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

LOG_COLUMNS: tuple[str, ...] = (
    "id",
    "model_id",
    "source",
    "created_at",
    "prompt",
    "messages",
    "response",
    "error",
    "latency_ms",
    "max_tokens",
    "prompt_tokens",
    "completion_tokens",
    "finish_reason",
    "eval_id",
    "run_id",
    "result_id",
    "message_id",
)

TEXT_FIELDS: tuple[str, ...] = ("prompt", "messages", "response", "error")
"""The fields stored together, compressed, in ``logs.texts`` (archive_texts), in its order."""
STORED_COLUMNS: tuple[str, ...] = tuple(c for c in LOG_COLUMNS if c not in TEXT_FIELDS)
"""The fields stored as columns of their own, as they are."""

DDL = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS logs (
    seq               INTEGER PRIMARY KEY,
    id                TEXT NOT NULL UNIQUE,
    ord               INTEGER,
    model_id          TEXT,
    source            TEXT,
    created_at        INTEGER,
    latency_ms        INTEGER,
    max_tokens        INTEGER,
    prompt_tokens     INTEGER,
    completion_tokens INTEGER,
    finish_reason     TEXT,
    eval_id           TEXT,
    run_id            TEXT,
    result_id         TEXT,
    message_id        TEXT,
    failed            INTEGER NOT NULL DEFAULT 0,
    badges            TEXT NOT NULL DEFAULT '',
    texts             BLOB
);
CREATE UNIQUE INDEX IF NOT EXISTS logs_ord ON logs(ord);
CREATE INDEX IF NOT EXISTS logs_created ON logs(created_at, id);
CREATE INDEX IF NOT EXISTS logs_source ON logs(source, ord);
CREATE INDEX IF NOT EXISTS logs_failed ON logs(ord) WHERE failed = 1;

CREATE TABLE IF NOT EXISTS log_badges (
    kind TEXT NOT NULL,
    seq  INTEGER NOT NULL,
    PRIMARY KEY (kind, seq)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE IF NOT EXISTS logs_fts USING fts5(
    prompt, response, error,
    content = '', columnsize = 0, detail = none,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE IF NOT EXISTS text_dicts (
    id   INTEGER PRIMARY KEY,
    dict BLOB NOT NULL
);

CREATE TABLE IF NOT EXISTS term_counts (
    term TEXT PRIMARY KEY,
    rows INTEGER NOT NULL
) WITHOUT ROWID;
"""

BUSY_TIMEOUT_MS = 5000
"""How long a connection waits for another process's write lock."""
QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024
"""Files up to this size get SQLite's full ``quick_check`` on open; bigger ones a probe."""

_REQUIRED_TABLES = frozenset({"meta", "logs", "log_badges", "logs_fts"})
_REQUIRED_V2 = frozenset({"text_dicts", "term_counts"})


class ArchiveError(Exception):
    """Something is wrong with a local archive file."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{reason}: {path}")
        self.path = Path(path)
        self.reason = reason


class ArchiveCorruptError(ArchiveError):
    """The file is not a readable blah-tui archive. It was not modified."""

    def __init__(self, path: Path | str, reason: str = "archive file is corrupt") -> None:
        super().__init__(path, reason)


class ArchiveVersionError(ArchiveError):
    """The archive was written by a newer blah-tui (schema version above ours)."""


def is_corruption(exc: BaseException) -> bool:
    """True when an sqlite3 error means the file's bytes are damaged or not a database."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


@contextmanager
def corruption_raised(path: Path, what: str = "archive file is corrupt") -> Iterator[None]:
    """Inside: an sqlite3 error that means damaged bytes (:func:`is_corruption`) becomes
    ArchiveCorruptError for ``path`` (``what (the error)``); any other error passes unchanged."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if is_corruption(exc):
            raise ArchiveCorruptError(path, f"{what} ({exc})") from exc
        raise


def connect(path: Path) -> sqlite3.Connection:
    """Open ``path`` as an archive: validate before any write, create when empty.

    Raises ArchiveCorruptError (file untouched) when the file is damaged or foreign, and
    ArchiveVersionError when it comes from a newer schema. A file of an older schema is
    opened as it is (``is_outdated``: the archive migrates it first).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    try:
        _validate_or_create(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def is_outdated(conn: sqlite3.Connection) -> bool:
    """An archive of an older layout (archive_migrate rewrites it; nothing else may write to it)."""
    version = schema_version(conn)
    return version is not None and version < SCHEMA_VERSION


def schema_version(conn: sqlite3.Connection) -> int | None:
    """The file's schema version (None when it holds none or no ``meta`` table)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else None
    except (sqlite3.Error, TypeError, ValueError):
        return None


def _validate_or_create(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version, once it is known to be a sound archive (created now: ours)."""
    try:
        # Read-only probes first: none of these writes to the file.
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")}
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise ArchiveCorruptError(path, f"not a readable archive ({exc})") from exc
    if not tables:
        if app_id not in (0, APPLICATION_ID):
            raise ArchiveCorruptError(path, "not a blah-tui archive (foreign SQLite file)")
        _configure(conn, path)
        script = (
            "BEGIN IMMEDIATE;\n"
            + DDL
            + f"PRAGMA application_id = {APPLICATION_ID};\n"
            + "INSERT OR IGNORE INTO meta(key, value) VALUES "
            + f"('schema_version', '{SCHEMA_VERSION}');\nCOMMIT;\n"
        )
        with corruption_raised(path, "not a readable archive"):
            conn.executescript(script)
        return SCHEMA_VERSION
    if app_id != APPLICATION_ID or not tables >= _REQUIRED_TABLES:
        raise ArchiveCorruptError(path, "not a blah-tui archive (unexpected tables)")
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        problem = check_integrity(conn, full=path.stat().st_size <= QUICK_CHECK_MAX_BYTES)
    except sqlite3.DatabaseError as exc:
        raise ArchiveCorruptError(path, f"archive file is corrupt ({exc})") from exc
    if problem is not None:
        raise ArchiveCorruptError(path, f"archive file is corrupt ({problem})")
    try:
        version = int(row[0]) if row else None
    except (TypeError, ValueError):
        version = None
    if version is None:
        raise ArchiveCorruptError(path, "archive has no schema version")
    if version > SCHEMA_VERSION:
        raise ArchiveVersionError(path, f"archive schema {version} is newer than this blah-tui ({SCHEMA_VERSION})")
    if version >= 2 and not tables >= _REQUIRED_V2:
        raise ArchiveCorruptError(path, "not a blah-tui archive (unexpected tables)")
    _configure(conn, path)
    return version


def check_integrity(conn: sqlite3.Connection, *, full: bool) -> str | None:
    """None when the file looks sound, else what is wrong. ``full`` runs SQLite's
    ``quick_check`` (reads every page: ~0.3 s per 100 MB); otherwise only the structures
    every list touches are probed (both ends of the time order, the page count against
    the file), and damage elsewhere surfaces as ArchiveCorruptError when it is read."""
    if full:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
        return None if row is not None and row[0] == "ok" else (row[0] if row else "no answer")
    for agg in ("min", "max"):
        conn.execute(f"SELECT * FROM logs WHERE ord = (SELECT {agg}(ord) FROM logs)").fetchall()
        conn.execute(f"SELECT * FROM logs WHERE seq = (SELECT {agg}(seq) FROM logs)").fetchall()
    conn.execute("SELECT * FROM log_badges LIMIT 1").fetchall()
    conn.execute("SELECT * FROM logs_fts WHERE logs_fts MATCH 'x' LIMIT 1").fetchall()
    return None


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    """Per-connection settings: WAL + synchronous=NORMAL (durable at checkpoints, fast)."""
    with corruption_raised(path, "not a readable archive"):
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -32768")  # 32 MiB page cache
        conn.execute("PRAGMA wal_autocheckpoint = 4096")  # checkpoint every ~16 MiB, not 4
        conn.execute("PRAGMA journal_size_limit = 67108864")  # trim the WAL back to 64 MiB
