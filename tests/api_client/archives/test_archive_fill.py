"""``ArchiveFill`` (the export's fill: the next batch compressed while the last is stored, the
words indexed in big transactions) stores what ``Archive.add`` stores, whatever goes wrong."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from api_client.archives import ingest
from api_client.archives.archive import Archive, LogFilter
from api_client.archives.fill import ArchiveFill
from api_client.archives.texts import TRAIN_MIN
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import LogEntry
from common.records import Call

WORDS = ("apple", "pear", "plum", "quince", "fig", "date", "lime", "kiwi")


def calls(first: int, count: int) -> list[Call]:
    """Calls ``first`` .. ``first + count - 1``, newest first (as an export hands them over)."""
    out = []
    for n in reversed(range(first, first + count)):
        entry = LogEntry.model_validate(
            {
                "id": f"log_{n:06d}",
                "model_id": "m1",
                "source": "eval",
                "created_at": 1_000_000 + n,
                "prompt": f"question {n} about the {WORDS[n % 8]} and the {WORDS[n % 3]}",
                "response": f"reply {n}: the {WORDS[(n * 5) % 8]} " * 3,
                "error": "boom" if n % 10 == 0 else None,
            }
        )
        out.append(call_from_log_entry(entry))
    return out


def fill(archive: Archive, batches: list[list[Call]], index_after: int) -> int:
    async def run() -> int:
        filling = ArchiveFill(archive, index_after=index_after)
        for batch in batches:
            await filling.add(batch)
        return await filling.finish()

    return asyncio.run(run())


def test_a_fill_stores_and_finds_what_adding_the_batches_does(tmp_path: Path) -> None:
    newest_first = calls(0, 4 * TRAIN_MIN)
    batches = [newest_first[i : i + TRAIN_MIN] for i in range(0, len(newest_first), TRAIN_MIN)]
    with Archive(tmp_path / "filled.sqlite3") as filled, Archive(tmp_path / "added.sqlite3") as added:
        assert fill(filled, batches, index_after=2 * TRAIN_MIN + 1) == len(newest_first)
        assert filled.pending_text_index() == TRAIN_MIN  # the last batch waits for more, its texts at hand
        for batch in batches:
            added.add(batch)
        every = LogFilter()
        assert [r.id for r in filled.window(every, 0, 10**6)] == [r.id for r in added.window(every, 0, 10**6)]
        for word in (*WORDS, "question", "boom", "nosuchword"):
            assert filled.search(word, limit=None) == added.search(word, limit=None), word
        assert filled.pending_text_index() == 0
        assert [filled.get(c.id) for c in newest_first[:5]] == newest_first[:5]


def test_no_batch_is_stored_after_one_that_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Newest first: a batch stored after a failed one would leave a hole the archive cannot
    see (it takes what it holds for one unbroken stretch). The error is raised at the end."""
    newest_first = calls(0, 3 * TRAIN_MIN)
    batches = [newest_first[i : i + TRAIN_MIN] for i in range(0, len(newest_first), TRAIN_MIN)]
    real_write = ingest._write
    writes: list[int] = []

    def write(conn: object, rows: object, badge_rows: object) -> None:
        writes.append(1)
        if len(writes) == 2:
            raise OSError("disk full")
        real_write(conn, rows, badge_rows)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest, "_write", write)
    with Archive(tmp_path / "a.sqlite3") as archive:
        with pytest.raises(OSError, match="disk full"):
            fill(archive, batches, index_after=TRAIN_MIN)
        assert archive.count() == TRAIN_MIN  # the first batch only
        assert archive.oldest_ms() == min(c.created_at for c in batches[0])
        assert archive.search("question", limit=None).count == TRAIN_MIN


def test_a_batch_compressed_with_a_dictionary_a_rollback_took_away_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dictionary trained on a batch whose transaction rolled back is not in the file: a
    batch compressed with it ahead of its transaction is compressed again in it."""
    path = tmp_path / "a.sqlite3"
    first, second = calls(TRAIN_MIN, TRAIN_MIN), calls(0, TRAIN_MIN)
    with Archive(path) as archive:
        monkeypatch.setattr(ingest, "_write", lambda *args: (_ for _ in ()).throw(OSError("disk full")))
        with pytest.raises(OSError):
            archive.add_encoded(archive.encode(first))  # trains dictionary 1, then rolls back
        monkeypatch.undo()
        ahead = archive.encode(second)
        assert ahead.ahead is not None and ahead.ahead.number == 1  # compressed with the one rolled back
        assert archive.add_encoded(ahead) == TRAIN_MIN
        assert archive.add_encoded(archive.encode(first)) == TRAIN_MIN
    with Archive(path) as reopened:  # another reader of the file, with its own dictionaries
        assert [reopened.get(c.id) for c in second + first] == second + first
