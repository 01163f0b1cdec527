"""What ``blah-tui archives`` compares an archive's size with: its calls as ``export`` writes them."""

from __future__ import annotations

from pathlib import Path

import orjson

from api_client.archives.archive import Archive
from api_client.archives.files import describe_archive
from common.migration_progress import progress_hook
from tests.api_client.archives.answers_corpus import corpus, fill, v1_archive


def _jsonl_bytes() -> int:
    return sum(len(orjson.dumps(e.model_dump(mode="json"))) + 1 for e in corpus())


def test_the_archive_knows_its_calls_json_size(tmp_path: Path) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        fill(archive)
        fill(archive)  # stored once: counted once
    info = describe_archive(tmp_path / "a.sqlite3")
    assert info.json_bytes == _jsonl_bytes()
    assert info.to_json == info.size / _jsonl_bytes()


def test_a_migrated_archive_knows_it_too(tmp_path: Path) -> None:
    path = v1_archive(tmp_path)
    with progress_hook(lambda done, total: None):
        Archive(path).close()
    assert describe_archive(path).json_bytes == _jsonl_bytes()
