"""Filling the local archive from the JSONL an export has just put in place.

``blah-tui export -o FILE`` writes the file first and fills the archive after, from the file:
the person's file is ready as soon as the platform has sent the last page (measured: the fill
is ~2.5 s of CPU per 100k calls, more than the rest of the export; done while the pages
arrive it slowed the fetching about as much as it cost, so the file came ~2x later and the
command ended no sooner). Reading the file back keeps memory bounded (one batch at a time)
and costs one orjson parse per batch. Standard output cannot be read back: there the archive
is still filled while the pages arrive (``export_logs(archive=...)``).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import IO, Any

import orjson

from api_client.archives.archive import Archive
from api_client.blahdev.shapes import LogEntry
from api_client.blahdev.wire_logs import canonical_entries


def fill_from_jsonl(archive: Archive, source: IO[bytes], floor: int | None, batch: int) -> int:
    """Store the calls of an export's JSONL (newest first) in ``archive``, ``batch`` per
    transaction, only those at or below ``floor`` (all when None), then build their
    full-text index; returns how many were new."""
    added = 0
    for lines in _batches(source, batch):
        entries: list[Any] = _entries(lines)
        if floor is not None:
            entries = [entry for entry in entries if entry.created_at <= floor]
        if entries:
            added += archive.add(entries, index_text=False)
    archive.index_pending()
    return added


def _batches(source: IO[bytes], size: int) -> Iterator[list[bytes]]:
    while lines := list(islice(source, size)):
        yield [line for line in lines if line.strip()]


def _entries(lines: list[bytes]) -> list[Any]:
    """The calls of these lines: ``WireEntry`` when canonical (what export wrote from a
    canonical page), else validated ``LogEntry`` (what it wrote through pydantic)."""
    if not lines:
        return []
    entries = canonical_entries(orjson.loads(b"[" + b",".join(lines) + b"]"))
    if entries is not None:
        return entries
    return [LogEntry.model_validate_json(line) for line in lines]
