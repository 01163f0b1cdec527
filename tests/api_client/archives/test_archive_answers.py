"""The archive answers what the first archive (schema 1, text stored as it came) answered: every
search's count and ids, every filtered list's rows, every entry read back (the fixture was
written by that code: ``answers_corpus``). Whatever the storage becomes, a person sees the same."""

from __future__ import annotations

from pathlib import Path

import orjson

from api_client.archives.archive import Archive
from tests.api_client.archives.answers_corpus import ANSWERS, answers, fill


def test_a_fresh_archive_answers_as_the_first_archive_did(tmp_path: Path) -> None:
    want = orjson.loads(ANSWERS.read_bytes())
    with Archive(tmp_path / "a.sqlite3") as archive:
        fill(archive)
        got = answers(archive)
    assert got == want
