"""The archive answers what the first archive (schema 1, text stored as it came) answered: every
search's count and ids, every filtered list's rows, every entry read back (the fixture was
written by that code: ``answers_corpus``). Whatever the storage becomes, a person sees the same."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from api_client.archives import fulltext, migrate, text_lists
from api_client.archives.archive import Archive
from api_client.archives.schema import SCHEMA_VERSION
from common.migration_progress import progress_hook
from tests.api_client.archives.answers_corpus import (
    ANSWERS,
    CALLS,
    answers,
    fill,
    v1_archive,
)


def test_a_fresh_archive_answers_as_the_first_archive_did(tmp_path: Path) -> None:
    want = orjson.loads(ANSWERS.read_bytes())
    with Archive(tmp_path / "a.sqlite3") as archive:
        fill(archive)
        got = answers(archive)
    assert got == want


def test_a_schema_1_archive_is_migrated_on_open_and_answers_the_same(tmp_path: Path) -> None:
    want = orjson.loads(ANSWERS.read_bytes())
    path = v1_archive(tmp_path)
    seen: list[tuple[int, int]] = []
    with progress_hook(lambda done, total: seen.append((done, total))), Archive(path) as archive:
        assert archive.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert archive.get_meta("model_id") == "m"  # meta kept
        got = answers(archive)
    assert got == want
    assert seen[0] == (0, CALLS) and seen[-1] == (CALLS, CALLS)  # the progress bar's figures
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == ["v1.sqlite3"]
    with Archive(path) as again:  # opened again: nothing more to do
        assert again.count() == CALLS


def test_a_migration_killed_halfway_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = v1_archive(tmp_path)
    before = path.read_bytes()

    class Killed(BaseException):
        pass

    def kill(done: int, total: int) -> None:
        if done >= 1000:
            raise Killed

    with pytest.raises(Killed), progress_hook(kill):
        Archive(path)
    assert path.read_bytes() == before  # untouched: still schema 1
    assert not migrate.part_path(path).exists()
    migrate.part_path(path).write_bytes(b"half a file from a power cut")  # as if the process had died
    with Archive(path) as archive:
        assert answers(archive) == orjson.loads(ANSWERS.read_bytes())
    assert not migrate.part_path(path).exists()


def test_answers_hold_when_every_search_is_listed_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lists read straight from the index (their counts from the kept word counts), which
    the corpus is too small to reach by itself."""
    monkeypatch.setattr(text_lists, "ARRAY_BELOW", 1)
    want = orjson.loads(ANSWERS.read_bytes())
    with Archive(tmp_path / "a.sqlite3") as archive:
        fill(archive)
        assert archive._conn.execute("SELECT count(*) FROM term_counts").fetchone()[0] > 10
        assert answers(archive) == want


def test_kept_word_counts_are_the_index_counts(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        fill(archive)
        conn = archive._conn
        mark = fulltext.fts_seq(conn)
        kept = dict(conn.execute("SELECT term, rows FROM term_counts"))
        assert "model" in kept and "the" in kept
        for term, rows in kept.items():
            match = '"' + term.replace('"', '""') + '"'
            assert fulltext.kept_count(conn, match) == rows == fulltext.match_count(conn, match, None, mark), term
        assert fulltext.kept_count(conn, '"model" AND "the"') is None
        assert fulltext.kept_count(conn, '"zzzz"') is None
