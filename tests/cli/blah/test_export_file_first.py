"""The person's file does not wait for the archive: an export puts its complete file in place
while the archive has stored none of its batches yet, and still leaves every call in the
archive, searchable, before it exits."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest

from api_client.archives.archive import Archive, LogFilter
from cli.blah import export as export_command
from cli.blah.export import ARCHIVE_BATCH, FILL_DEPTH, export_main
from simulator.server import SimulatorServer

CALLS = ARCHIVE_BATCH * (FILL_DEPTH - 1)
"""More batches than a fill of depth 2 takes before the page reader waits for it."""


def test_the_file_is_in_place_before_the_archive_has_stored_a_batch(
    fresh_sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLAH_TUI_DATA_DIR", str(tmp_path / "data"))
    fresh_sim.world.add_log_burst(CALLS, same_ms=False)
    total = fresh_sim.world.logs.count(fresh_sim.person_model_id)
    out = tmp_path / "calls.jsonl"
    file_in_place = threading.Event()
    stored_when_in_place: list[int] = []
    stored: list[int] = []
    real_add, real_commit = Archive.add_encoded, export_command.commit

    def held_add(self: Archive, *args: Any, **kwargs: Any) -> int:
        file_in_place.wait(timeout=30)  # held until the file is in place (30 s: a page reader that waits for it)
        n = real_add(self, *args, **kwargs)
        stored.append(n)
        return n

    def commit(*args: Any) -> None:
        real_commit(*args)
        stored_when_in_place.append(sum(stored))
        file_in_place.set()

    monkeypatch.setattr(Archive, "add_encoded", held_add)
    monkeypatch.setattr(export_command, "commit", commit)
    assert export_main(fresh_sim.person_model_id, base_url=fresh_sim.base_url, api_key=None, output=str(out)) == 0

    assert stored_when_in_place == [0]  # the whole file first, not held back by the archive
    ids = [orjson.loads(line)["id"] for line in out.read_bytes().splitlines()]
    assert len(ids) == len(set(ids)) == total
    with Archive.for_model(
        Path(os.environ["BLAH_TUI_DATA_DIR"]), "blah.dev", fresh_sim.base_url, fresh_sim.person_model_id
    ) as archive:
        assert archive.count() == total == sum(stored)  # then every call stored, once
        assert sorted(r.id for r in archive.window(LogFilter(), 0, total)) == sorted(ids)
        assert archive.pending_text_index() == 0
        assert archive.history_complete
