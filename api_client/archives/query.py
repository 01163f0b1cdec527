"""Filters, list rows and search terms for the archive: pure code, no IO.

User search text is never handed to FTS5's query language. It is split on whitespace into
literal terms; each term that has a letter or digit becomes a quoted FTS5 phrase (so
``AND(``, ``"`` or ``NEAR`` are just text), and a term made only of punctuation (``###``,
``{{``), which FTS5 cannot index, is matched as a case-sensitive substring instead, as is
a term in a script written without spaces (CJK, Thai), which the tokenizer cannot split
into words. Substring terms scan the rows the other conditions leave (slower on a big
archive). All terms must match (AND), in any of prompt, response or error.

The index keeps no token positions (archive_schema: ``detail=none``), so a term the
tokenizer splits into several tokens (``gpt-4``, ``don't``, ``e.g.``) is looked up as all of
its tokens and then checked as a phrase in each such row's text, by SQLite's own tokenizer
(``_PhraseCheck``): the answers are those of a positional index.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api_client.archives.texts import TextCodec

PREFIX_CHARS = 300

# Columns a list row needs; the texts are read back and cut to a prefix (ArchivedRow.from_sql).
ROW_SELECT = "id, created_at, source, latency_ms, finish_reason, failed, badges, texts, ord"


@dataclass(frozen=True, slots=True)
class LogFilter:
    """What the logs list shows. Every field narrows; the default shows everything.

    ``text`` is searched as literal terms (see module docstring). ``since_ms`` keeps
    entries strictly newer than it, as the platform's ``since`` does.
    """

    source: str | None = None
    errors_only: bool = False
    badge: str | None = None
    text: str | None = None
    since_ms: int | None = None

    @property
    def is_empty(self) -> bool:
        return (
            self.source is None
            and not self.errors_only
            and not self.badge
            and (not self.text or compile_text(self.text).is_empty)
            and self.since_ms is None
        )


ALL = LogFilter()


@dataclass(frozen=True, slots=True)
class ArchivedRow:
    """One line of the logs list: enough to draw it, without the full texts."""

    id: str
    created_at: int | None  # None: the platform gave no time (a Blobfish step)
    source: str | None
    latency_ms: int | None
    finish_reason: str | None
    failed: bool
    badges: tuple[str, ...]
    prompt_prefix: str | None
    response_prefix: str | None
    error_prefix: str | None

    @classmethod
    def from_sql(cls, row: tuple[Any, ...], codec: TextCodec) -> ArchivedRow:
        badges = tuple(row[6].split()) if row[6] else ()
        prompt, _, response, error = codec.decode(row[7])
        return cls(
            id=row[0],
            created_at=row[1],
            source=row[2],
            latency_ms=row[3],
            finish_reason=row[4],
            failed=bool(row[5]),
            badges=badges,
            prompt_prefix=_prefix(prompt),
            response_prefix=_prefix(response),
            error_prefix=_prefix(error),
        )


def _prefix(text: str | None) -> str | None:
    """What the list shows of a text: its first ``PREFIX_CHARS`` characters, up to a NUL (as
    SQLite's ``substr`` cut it when the texts were columns: the list's rows stay the same)."""
    if text is None:
        return None
    head = text[:PREFIX_CHARS]
    return head.partition("\x00")[0] if "\x00" in head else head


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Matches of a text search: the exact ``count``, the first ``ids`` (oldest first;
    fewer than ``count`` when a limit applied) and the literal ``terms`` to highlight."""

    count: int
    ids: list[str] = field(default_factory=list)
    terms: tuple[str, ...] = ()

    @property
    def truncated(self) -> bool:
        return len(self.ids) < self.count


@dataclass(frozen=True, slots=True)
class TextQuery:
    """A user's search text, compiled: an FTS5 MATCH string and substring terms."""

    terms: tuple[str, ...]
    match: str | None  # FTS5 expression over the indexable terms' tokens, or None
    substrings: tuple[str, ...]  # punctuation-only terms, matched with instr()
    phrases: tuple[str, ...] = ()  # FTS5 phrases of the terms of several tokens, checked per row

    @property
    def is_empty(self) -> bool:
        return not self.terms


_TOKENIZER = "unicode61 remove_diacritics 2"  # must match the logs_fts definition
_probe_lock = threading.Lock()
_probe_conn: sqlite3.Connection | None = None


@functools.lru_cache(maxsize=4096)
def _tokens(term: str) -> tuple[str, ...]:
    """The tokens the FTS5 tokenizer makes of ``term``, in order (folded: lower case, no
    diacritics).

    Asked of SQLite itself (an in-memory FTS5 table): unicode61's idea of a separator
    follows Unicode 6.1 tables, which no Python-side rule reproduces exactly.
    """
    global _probe_conn
    with _probe_lock:
        if _probe_conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            conn.execute(f"CREATE VIRTUAL TABLE probe USING fts5(t, tokenize = '{_TOKENIZER}')")
            conn.execute("CREATE VIRTUAL TABLE probe_vocab USING fts5vocab(probe, 'instance')")
            _probe_conn = conn
        conn = _probe_conn
        conn.execute("INSERT INTO probe(rowid, t) VALUES (1, ?)", (term,))
        try:
            rows = conn.execute("SELECT term FROM probe_vocab ORDER BY offset").fetchall()
        finally:
            conn.execute("DELETE FROM probe")
        return tuple(r[0] for r in rows)


def _indexable(term: str) -> bool:
    """Whether the FTS5 tokenizer produces at least one token from ``term``."""
    return bool(_tokens(term))


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class _PhraseCheck:
    """Whether a row's texts hold an FTS5 phrase, asked of a positional in-memory FTS5 table
    with the archive's tokenizer (one row at a time): exactly what a positional index of the
    archive would answer for that row."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def __call__(self, texts: tuple[str | None, str | None, str | None], phrase: str) -> bool:
        with self._lock:
            if self._conn is None:
                conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
                conn.execute(f"CREATE VIRTUAL TABLE row USING fts5(prompt, response, error, tokenize = '{_TOKENIZER}')")
                self._conn = conn
            conn = self._conn
            conn.execute("INSERT INTO row(rowid, prompt, response, error) VALUES (1, ?, ?, ?)", texts)
            try:
                return conn.execute("SELECT 1 FROM row WHERE row MATCH ?", (phrase,)).fetchone() is not None
            finally:
                conn.execute("DELETE FROM row")


_phrase_check = _PhraseCheck()


def register_text_functions(conn: sqlite3.Connection, codec: TextCodec) -> None:
    """The SQL functions ``where_clause`` uses over the compressed texts, on ``conn``:
    ``has_substring(texts, s)`` (``s`` in prompt, response or error, case-sensitive, as
    ``instr``) and ``has_phrase(texts, phrase)`` (see ``_PhraseCheck``)."""

    def has_substring(value: bytes | None, sub: str) -> int:
        prompt, _, response, error = codec.decode(value)
        return int(any(sub in t for t in (prompt, response, error) if t))

    def has_phrase(value: bytes | None, phrase: str) -> int:
        prompt, _, response, error = codec.decode(value)
        return int(_phrase_check((prompt, response, error), phrase))

    conn.create_function("has_substring", 2, has_substring, deterministic=True)
    conn.create_function("has_phrase", 2, has_phrase, deterministic=True)


# Scripts written without spaces: unicode61 makes a whole run of them one token, so a
# word inside it can only be found as a substring.
_UNSPACED_RANGES = (
    (0x0E00, 0x0E7F),
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unspaced(term: str) -> bool:
    """Whether ``term`` holds a character of those scripts. (A plain loop: the equivalent
    regex character class took 7-50 ms to compile, paid by a process's first search.)"""
    return any(lo <= ord(ch) <= hi for ch in term if ord(ch) >= 0x0E00 for lo, hi in _UNSPACED_RANGES)


def _as_substring(term: str) -> bool:
    return _unspaced(term) or not _indexable(term)


@functools.lru_cache(maxsize=256)
def compile_text(text: str | None) -> TextQuery:
    """Split user text into literal terms; see the module docstring for the rules."""
    # A lone surrogate cannot be bound to SQL; FTS5's parser stops at NUL (its strings are
    # C strings), so NUL separates terms like a space.
    clean = _SURROGATE.sub("\ufffd", text or "").replace("\x00", " ")
    terms = tuple(dict.fromkeys(t for t in clean.split() if t))
    indexed = [t for t in terms if not _as_substring(t)]
    subs = tuple(t for t in terms if _as_substring(t))
    tokens = dict.fromkeys(tok for t in indexed for tok in _tokens(t))
    match = " AND ".join(map(_quoted, tokens)) or None
    phrases = tuple(_quoted(t) for t in indexed if len(_tokens(t)) > 1)
    return TextQuery(terms=terms, match=match, substrings=subs, phrases=phrases)


def search_only_match(flt: LogFilter) -> str | None:
    """The FTS5 expression of a filter that is only a search of indexable terms (what the
    archive can list straight from the index), else None."""
    if flt.source is not None or flt.errors_only or flt.badge or flt.since_ms is not None:
        return None
    tq = compile_text(flt.text)
    return tq.match if not tq.substrings and not tq.phrases else None


def where_clause(flt: LogFilter) -> tuple[str, list[Any]]:
    """SQL condition (over table ``logs``) and its parameters for a filter."""
    conds: list[str] = []
    params: list[Any] = []
    if flt.source is not None:
        conds.append("source = ?")
        params.append(flt.source)
    if flt.errors_only:
        conds.append("failed = 1")
    if flt.badge:
        conds.append("seq IN (SELECT seq FROM log_badges WHERE kind = ?)")
        params.append(flt.badge)
    if flt.since_ms is not None:
        conds.append("created_at > ?")
        params.append(int(flt.since_ms))
    tq = compile_text(flt.text)
    if tq.match is not None:
        conds.append("seq IN (SELECT rowid FROM logs_fts WHERE logs_fts MATCH ?)")
        params.append(tq.match)
    for phrase in tq.phrases:
        conds.append("has_phrase(texts, ?)")
        params.append(phrase)
    for sub in tq.substrings:
        conds.append("has_substring(texts, ?)")
        params.append(sub)
    return (" AND ".join(conds) if conds else "1"), params


def match_spans(text: str, terms: tuple[str, ...] | list[str]) -> list[tuple[int, int]]:
    """Where the search terms occur in ``text`` (case-insensitive), as sorted, merged
    ``(start, end)`` character spans, for highlighting a shown prompt or reply.

    This is the display side of search: FTS5 matched whole tokens (ignoring accents);
    highlighting each literal term where it occurs is what a reader expects to see.
    """
    if not text or not terms:
        return []
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    spans: list[tuple[int, int]] = []
    for m in pattern.finditer(text):
        if m.end() == m.start():
            continue
        if spans and m.start() <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], m.end()))
        else:
            spans.append((m.start(), m.end()))
    return spans
