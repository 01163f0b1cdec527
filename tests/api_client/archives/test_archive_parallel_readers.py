"""A search whose rows are scattered over the file (a rare word's first search, the Logs list
filtered by it) reads them on several connections at once when they are not in the page
cache: the count, the ids and the rows are exactly those of one connection, whatever the
rows' order on disk; the readers close with the archive; an archive they cannot open
answers the same on its own connection."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_client.archives import fulltext, readers, text_lists
from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.shapes import LogEntry

RARE = 700  # rows holding the rare word: over readers.PARALLEL_MIN


def calls() -> list[LogEntry]:
    """2,100 calls, every third with "zanzibar", stored in an order unlike their times."""
    made = [
        LogEntry(
            id=f"log_{i:05d}",
            created_at=1_000_000 + 17 * i,
            prompt=("zanzibar " if i % 3 == 0 else "") + f"question {i}",
            response=f"answer {i}",
        )
        for i in range(3 * RARE)
    ]
    random.Random(30).shuffle(made)
    return made


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[Archive]:
    with Archive(tmp_path / "a.sqlite3") as a:
        stored = calls()
        a.add(stored[:1000])
        a.add(stored[1000:])
        yield a


def answers(archive: Archive) -> tuple[object, ...]:
    archive._lists.invalidate()
    flt = LogFilter(text="zanzibar")
    found = archive.search("zanzibar")
    n = archive.count(flt)
    rows = archive.window(flt, 0, n)
    return found.count, found.ids, n, [(r.id, r.created_at, r.prompt_prefix) for r in rows], archive.window(flt, 5, 300)


def answers_alone_then_fanned_out(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The answers on one connection, then with every read fanned out to the readers."""
    monkeypatch.setattr(readers, "PARALLEL_MIN", 10**9)
    alone = answers(archive)
    monkeypatch.setattr(readers, "PARALLEL_MIN", 256)
    monkeypatch.setattr(readers, "COLD_SECONDS_PER_ROW", 0.0)
    return alone, answers(archive)


def test_rows_read_on_parallel_readers_are_exactly_those_of_one_connection(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone, fanned = answers_alone_then_fanned_out(archive, monkeypatch)  # every sample looks cold
    assert fanned == alone
    count, ids, n, rows, _ = fanned
    want = sorted((c for c in calls() if "zanzibar" in (c.prompt or "")), key=lambda c: c.created_at)
    assert count == n == RARE and ids == [c.id for c in want[:1000]]
    assert [r[0] for r in rows] == [c.id for c in want]  # oldest first
    assert archive._readers._conns is not None


def test_rows_in_the_page_cache_are_read_on_the_archives_own_connection(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(readers, "COLD_SECONDS_PER_ROW", 1.0)  # every sample looks cached
    answers(archive)
    assert archive._readers._conns is None


def test_the_readers_close_with_the_archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "COLD_SECONDS_PER_ROW", 0.0)
    archive = Archive(tmp_path / "a.sqlite3")
    archive.add(calls())
    answers(archive)
    conns = archive._readers._conns
    assert conns is not None and len(conns) == readers.READERS
    archive.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("archive-read")]
    with pytest.raises(sqlite3.ProgrammingError):
        conns[0].execute("SELECT 1")


def test_readers_that_cannot_open_leave_the_answer_to_the_archives_connection(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: object, **kwargs: object) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(readers.sqlite3, "connect", refused)
    alone, fanned = answers_alone_then_fanned_out(archive, monkeypatch)
    assert fanned == alone


def test_readers_that_fail_while_reading_leave_the_answer_to_the_archives_connection(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = readers._rows_on

    def failing(conn: sqlite3.Connection, keys: list[int], columns: str, key: str) -> list[tuple[object, ...]]:
        if conn is not archive._conn:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(conn, keys, columns, key)

    monkeypatch.setattr(readers, "_rows_on", failing)
    alone, fanned = answers_alone_then_fanned_out(archive, monkeypatch)
    assert fanned == alone
    assert archive._readers._conns is None


@pytest.mark.parametrize("word", ["question", "zanzibar", "answer zanzibar", "absent"])
def test_a_match_count_split_over_readers_is_the_count_of_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word: str
) -> None:
    """A common word's list counted from the index in rowid ranges on two readers: the same
    count, ids and windows as one query, also after more rows arrive."""
    monkeypatch.setattr(text_lists, "ARRAY_BELOW", 0)  # every match listed from the index
    # a word whose count the archive keeps is not counted on the readers (test_archive_answers holds
    # those counts to the index's): count every word here as an archive keeping none would
    monkeypatch.setattr(fulltext, "kept_count", lambda conn, match: None)
    stored = calls()

    def listed(split: bool) -> tuple[object, ...]:
        monkeypatch.setattr(readers, "COUNT_PARALLEL_MIN", 0 if split else 10**12)
        with Archive(tmp_path / f"{split}.sqlite3") as a:
            a.add(stored[:1500])
            first = a.search(word), a.count(LogFilter(text=word))
            a.add(stored[1500:])
            flt = LogFilter(text=word)
            return first, a.search(word), a.count(flt), a.window(flt, 0, 50), (a._readers._conns is not None)

    *split, used = listed(True)
    *alone, _ = listed(False)
    assert split == alone and used


@pytest.mark.parametrize("shuffled", [True, False])
def test_a_search_that_warms_its_first_rows_in_the_background_answers_as_one_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shuffled: bool
) -> None:
    """A big archive's search reads the likely first rows on spare readers while the list is
    worked out: the count and the first ids (oldest first) are those of one connection, whether
    the rows were stored in time order (the warmed rows are the answer) or not (they are not)."""
    from api_client.archives import archive as archive_module

    stored = calls() if shuffled else sorted(calls(), key=lambda c: c.created_at)
    monkeypatch.setattr(archive_module, "WARM_FROM", 0)
    monkeypatch.setattr(text_lists, "ARRAY_BELOW", 0)  # listed from the index: the warm-up's path

    def searched(warm: bool) -> tuple[object, ...]:
        monkeypatch.setattr(readers, "PARALLEL_MIN", 256 if warm else 10**9)
        monkeypatch.setattr(readers, "COLD_SECONDS_PER_ROW", 0.0)
        with Archive(tmp_path / f"{warm}.sqlite3") as a:
            a.add(stored)
            found = a.search("question", limit=300), a.search("zanzibar", limit=400)
            return tuple((f.count, f.ids) for f in found), a._readers._conns is not None

    warmed, used = searched(True)
    alone, _ = searched(False)
    assert warmed == alone and used
    want = sorted((c for c in calls() if "question" in (c.prompt or "")), key=lambda c: c.created_at)
    assert warmed[0] == (len(want), [c.id for c in want[:300]])
