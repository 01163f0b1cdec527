"""Rows stored but not yet in the full-text index, with their texts at hand: a long fill
(export) indexes them in big transactions, not one per stored batch.

FTS5 writes one segment per transaction that indexes, then merges segments as they pile up:
natural text indexed 20,000 rows a transaction costs ~30% less CPU than 5,000 a transaction
(fewer segments written and merged again), and the index ends in fewer segments, which its
queries read faster. The texts are kept (not read back and decompressed) only while they are
exactly the rows above the index's watermark, ``meta.fts_seq``; otherwise the rows pending
are read back from the archive (``fulltext.index_step``), as after an interrupted fill.
Nothing here is written before the archive's transaction commits the rows themselves, so a
backlog never names rows a rollback took away.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from api_client.archives import fulltext
from api_client.archives.texts import TextCodec

IndexedText = tuple["str | None", "str | None", "str | None"]
"""``(prompt, response, error)``: a row's indexed text."""


@dataclass(frozen=True, slots=True)
class TextBacklog:
    """The texts of the rows ``first_seq`` .. ``first_seq + len(texts) - 1``, committed and
    not indexed by this backlog yet."""

    first_seq: int
    texts: list[IndexedText]

    @property
    def rows(self) -> int:
        return len(self.texts)

    def then(self, first_seq: int, texts: list[IndexedText]) -> TextBacklog | None:
        """This backlog followed by rows from ``first_seq`` on; None when they do not follow
        on (another writer stored rows between: those are read back when indexing)."""
        if first_seq != self.first_seq + len(self.texts):
            return None
        return TextBacklog(self.first_seq, self.texts + texts)


def index_backlog(conn: sqlite3.Connection, backlog: TextBacklog | None, codec: TextCodec) -> int:
    """Index every pending row: from the backlog's texts when they are exactly the rows
    pending, else read back from the archive. Caller holds the write transaction. Returns the
    rows indexed."""
    fulltext.prepare_bulk(conn)
    if backlog is not None and fulltext.index_fresh(conn, backlog.first_seq, backlog.texts):
        return backlog.rows + fulltext.index_step(conn, None, codec)  # (rows stored after it: none, as a rule)
    return fulltext.index_step(conn, None, codec)
