"""Filling an archive from a long run of batches as they arrive (``export``), on both cores.

An export of natural text spent ~4.5x the network's time mostly filling the archive, one
batch after the other in one thread: compressing each call's text (zstd, ~1 s per 100k
calls), inserting the rows, indexing their words (FTS5, ~3 s), counting the kept words. Here
the work is a pipeline: one thread compresses the next batch (``Archive.encode``: zstd
releases the GIL) while another stores the last (``Archive.add_encoded``: SQLite releases
it too), and the words are indexed 20,000 rows to a transaction rather than 5,000 (fewer,
bigger FTS5 segments: ~30% less CPU, and fewer segments for a search to read).

Each batch is stored in its own transaction, in the order given: a fill stopped at any
point (an error, Ctrl-C, a kill) leaves the archive holding whole batches, newest first, and
rows whose words are not indexed yet are indexed from the archive by the next
``index_pending`` or before the next search (``Archive.add_encoded``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from api_client.archives.archive import Archive
from api_client.archives.ingest import Encoded

if TYPE_CHECKING:
    from common.records import Call

INDEX_AFTER = 20_000
"""Rows whose words are indexed in one transaction (their texts are held until then:
~15 MB of natural text)."""
DEPTH = 2
"""Batches given and not stored yet, at most (one being compressed, one being stored)."""


class ArchiveFill:
    """Stores batches in ``archive`` in the order given, each batch's compression overlapping
    the storing of the one before (see the module's docstring)."""

    def __init__(self, archive: Archive, *, index_after: int = INDEX_AFTER, depth: int = DEPTH) -> None:
        self._archive = archive
        self._index_after = index_after
        self._depth = depth
        self._encoder = ThreadPoolExecutor(1, thread_name_prefix="archive-encode")
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="archive-store")
        self._in_flight: deque[asyncio.Future[int]] = deque()
        self._failed = False
        self.stored = 0
        """Rows stored so far that the archive did not hold already."""

    async def add(self, batch: Sequence[Call]) -> None:
        """Hand a batch over; waits only while ``depth`` batches are still being stored (an
        error storing one is raised here or by ``finish``, and nothing after it is stored)."""
        while len(self._in_flight) >= self._depth:
            self.stored += await self._in_flight.popleft()
        encoded = self._encoder.submit(self._archive.encode, batch)
        stored = self._writer.submit(self._store, encoded)
        self._in_flight.append(asyncio.wrap_future(stored))

    def _store(self, encoded: Future[Encoded]) -> int:
        """(The writer's thread.) Nothing after a batch that failed: the archive keeps one
        unbroken stretch, newest first, and a rerun fetches the rest."""
        if self._failed:
            return 0
        try:
            return self._archive.add_encoded(encoded.result(), index_after=self._index_after)
        except BaseException:
            self._failed = True
            raise

    async def finish(self) -> int:
        """Wait until every batch given is stored, or one failed (its error is raised then,
        and no batch after it was stored); returns ``stored``. The threads end."""
        error: BaseException | None = None
        try:
            while self._in_flight:
                try:
                    self.stored += await self._in_flight.popleft()
                except Exception as exc:  # (the ones after it stored nothing)
                    error = error or exc
        finally:
            self._encoder.shutdown(wait=False)
            self._writer.shutdown(wait=False)
        if error is not None:
            raise error
        return self.stored
