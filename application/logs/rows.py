"""Where the Logs screen's rows come from: the archive (windowed queries, for a million rows)
or, when there is no archive, a list kept in memory. Both are ``RowSource``s for ``LogList``
and answer the same questions: how many rows the filter keeps, row i, an entry by id, the
neighbours of an entry, and the newest rows for the plot.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from api_client.archives.archive import Archive, ArchivedRow, LogFilter
from api_client.archives.query import compile_text
from application.logs.row import PREVIEW_CHARS, LogRow
from common.lru import BoundedLRU
from common.records import order_key

if TYPE_CHECKING:
    from common.records import Call

__all__ = [
    "ArchiveRows",
    "LogRows",
    "MemoryRows",
    "highlight_terms",
    "row_from_archived",
    "row_from_entry",
    "with_text",
]

_BLOCK = 128
_BLOCKS_KEPT = 48


def highlight_terms(text: str | None) -> list[str]:
    """The literal terms of a search, as the archive matches them (for highlighting)."""
    return list(compile_text(text).terms) if text and text.strip() else []


def _row(
    call: ArchivedRow | Call, *, failed: bool, badges: Iterable[str], prompt: str | None, reply: str | None
) -> LogRow:
    return LogRow(
        id=call.id,
        created_at=call.created_at,
        source=call.source,
        latency_ms=call.latency_ms,
        finish_reason=call.finish_reason,
        status="error" if failed else "ok",
        badges=tuple(badges),
        prompt_preview=prompt,
        reply_preview=reply,
    )


def row_from_archived(row: ArchivedRow) -> LogRow:
    """A list row from the archive's compact row (the error stands in for a missing reply)."""
    reply = row.response_prefix if row.response_prefix is not None else row.error_prefix
    return _row(row, failed=row.failed, badges=row.badges, prompt=row.prompt_prefix, reply=reply)


def row_from_entry(entry: Call, badges: Iterable[str] = ()) -> LogRow:
    """A list row from a whole log entry (the last user message stands in for a missing prompt,
    a failed call's error text for the reply): ``row_from_archived``'s twin for calls in memory."""
    prompt = entry.prompt
    if prompt is None and entry.messages:
        users = [m for m in entry.messages if m.role == "user" and m.content is not None]
        chosen = users[-1] if users else entry.messages[-1]
        prompt = chosen.content
    reply = entry.response if entry.response is not None else entry.error
    return _row(
        entry,
        failed=entry.error is not None,
        badges=badges,
        prompt=None if prompt is None else prompt[:PREVIEW_CHARS],
        reply=None if reply is None else reply[:PREVIEW_CHARS],
    )


class LogRows(Protocol):
    """What the Logs screen needs from a row store (a ``RowSource`` plus lookups)."""

    filter: LogFilter

    def __len__(self) -> int: ...
    def row(self, index: int) -> LogRow: ...
    def refresh(self) -> None: ...
    def set_filter(self, flt: LogFilter) -> None: ...
    def find(self, log_id: str) -> Call | None: ...
    def position(self, log_id: str) -> int | None: ...
    def neighbours(self, log_id: str) -> tuple[str | None, str | None]: ...
    def newest(self, limit: int) -> list[LogRow]: ...
    def oldest_ms(self) -> int | None: ...
    def newest_ms(self) -> int | None: ...


class ArchiveRows:
    """Rows of the archive through ``count`` + ``window``: only blocks of ~128 rows around
    what is on screen are ever read, so the first paint costs the same at 1M rows as at 100."""

    def __init__(
        self, archive: Archive, flt: LogFilter | None = None, *, floor: Callable[[LogFilter], int | None] | None = None
    ) -> None:
        self.archive = archive
        self.filter = flt or LogFilter()
        self._floor = floor
        self._query = self._bounded()
        self._count = archive.count(self._query)
        self._blocks: BoundedLRU[int, list[LogRow]] = BoundedLRU(_BLOCKS_KEPT)

    def _bounded(self) -> LogFilter:
        """The filter as the archive is asked: rows older than ``floor(filter)`` (where the
        history held for this filter has gaps) are left out, so the list never runs from a
        call to an older one over calls it does not hold."""
        since = None if self._floor is None else self._floor(self.filter)
        return self.filter if since is None else replace(self.filter, since_ms=since)

    def __len__(self) -> int:
        return self._count

    def row(self, index: int) -> LogRow:
        block_no, offset = divmod(index, _BLOCK)
        block = self._blocks.get(block_no)
        if block is None:
            block = [row_from_archived(r) for r in self.archive.window(self._query, block_no * _BLOCK, _BLOCK)]
            self._blocks[block_no] = block
        if offset >= len(block):  # the archive shrank under us (never expected): stay drawable
            raise IndexError(index)
        return block[offset]

    def refresh(self) -> None:
        """Re-read the count and forget cached rows (after the archive changed)."""
        self._query = self._bounded()
        self._count = self.archive.count(self._query)
        self._blocks.clear()

    def set_filter(self, flt: LogFilter) -> None:
        self.filter = flt
        self.refresh()

    def find(self, log_id: str) -> Call | None:
        return self.archive.find(log_id)

    def position(self, log_id: str) -> int | None:
        return self.archive.position(log_id, self._query)

    def neighbours(self, log_id: str) -> tuple[str | None, str | None]:
        return self.archive.neighbours(log_id, self._query)

    def newest(self, limit: int) -> list[LogRow]:
        start = max(0, self._count - limit)
        return [row_from_archived(r) for r in self.archive.window(self._query, start, self._count - start)]

    def oldest_ms(self) -> int | None:
        return self.archive.oldest_ms()

    def newest_ms(self) -> int | None:
        return self.archive.newest_ms()


def _matches(entry: Call, badges: Sequence[str], flt: LogFilter, terms: Sequence[str]) -> bool:
    if flt.source is not None and entry.source != flt.source:
        return False
    if flt.errors_only and entry.error is None:
        return False
    if flt.badge and flt.badge not in badges:
        return False
    if flt.since_ms is not None and (entry.created_at is None or entry.created_at <= flt.since_ms):
        return False
    if terms:
        haystack = "\n".join(t for t in (entry.prompt, entry.response, entry.error) if t).casefold()
        return all(term.casefold() in haystack for term in terms)
    return True


class MemoryRows:
    """Every entry seen this session, in memory (no archive): sorted by (created_at, id),
    the filtered view rebuilt on a filter change and extended as entries arrive."""

    def __init__(self, flt: LogFilter | None = None) -> None:
        self.filter = flt or LogFilter()
        self._entries: dict[str, tuple[Call, tuple[str, ...]]] = {}
        self._order: list[str] = []
        self._view: list[str] = []
        self._rows: dict[str, LogRow] = {}

    def __len__(self) -> int:
        return len(self._view)

    def row(self, index: int) -> LogRow:
        return self._rows[self._view[index]]

    def add(self, entries: Iterable[Call], badges_fn: Callable[[Call], Iterable[str]] | None = None) -> list[Call]:
        """Keep the entries not held yet; returns the new ones. ``badges_fn(entry)`` gives
        each new entry's badges once, here (like the archive's ingest)."""
        new: list[Call] = []
        for entry in entries:
            if entry.id in self._entries:
                continue
            badges = tuple(badges_fn(entry)) if badges_fn is not None else ()
            self._entries[entry.id] = (entry, badges)
            self._rows[entry.id] = row_from_entry(entry, badges)
            new.append(entry)
        for entry in new:
            insort(self._order, entry.id, key=self._sort_key)
        if new:
            self.refresh()
        return new

    def _sort_key(self, log_id: str) -> tuple[int, str]:
        entry = self._entries[log_id][0]
        return order_key(entry.created_at, entry.id)

    def refresh(self) -> None:
        terms = highlight_terms(self.filter.text)
        self._view = [i for i in self._order if _matches(*self._entries[i], self.filter, terms)]

    def set_filter(self, flt: LogFilter) -> None:
        self.filter = flt
        self.refresh()

    def find(self, log_id: str) -> Call | None:
        held = self._entries.get(log_id)
        return None if held is None else held[0]

    def position(self, log_id: str) -> int | None:
        try:
            return self._view.index(log_id)
        except ValueError:
            return None

    def neighbours(self, log_id: str) -> tuple[str | None, str | None]:
        """Older and newer entries next to ``log_id`` in the filtered view (None at the ends)."""
        if log_id not in self._entries:
            return (None, None)
        view = self._view
        lo = bisect_left(view, self._sort_key(log_id), key=self._sort_key)
        hi = lo + 1 if lo < len(view) and view[lo] == log_id else lo
        return (view[lo - 1] if lo > 0 else None, view[hi] if hi < len(view) else None)

    def newest(self, limit: int) -> list[LogRow]:
        return [self._rows[i] for i in self._view[-limit:]]

    def oldest_ms(self) -> int | None:
        return self._entries[self._order[0]][0].created_at if self._order else None

    def newest_ms(self) -> int | None:
        return self._entries[self._order[-1]][0].created_at if self._order else None


def with_text(flt: LogFilter, text: str | None) -> LogFilter:
    """The filter with its search text replaced (blank text clears it)."""
    return replace(flt, text=text if text and text.strip() else None)
