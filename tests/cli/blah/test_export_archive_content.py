"""The archive an export fills holds exactly what storing the validated entries stores.

``export`` stores the platform's calls as ``WireEntry`` tuples cut from its JSON (no
pydantic model per call, the messages' JSON carried along, the rows built column by
column); the app's other writers store ``LogEntry`` models. Every column of every row, the
badge table and what a search finds must be the same either way."""

from __future__ import annotations

import asyncio
import math
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from cli.blah import export as export_command
from cli.blah.export import export_main
from simulator.server import SimulatorServer

PAGE = 500  # export_logs' page size
AWKWARD_PROMPTS = (
    'he said "hi" \\ \x1b[31m red \x07',
    "naïve 漢字 🙂 \u2028",
    '},{"id":"log_fake"}',
    "\t\x00\x7f",
    "",
)


def platform(sim: SimulatorServer) -> list[LogEntry]:
    async def collect() -> list[LogEntry]:
        async with BlahClient(sim.base_url) as client:
            return [e async for e in client.iter_logs(sim.person_model_id)]

    return asyncio.run(collect())


def every_row(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        logs = conn.execute("SELECT * FROM logs ORDER BY seq").fetchall()
        badges = conn.execute("SELECT * FROM log_badges ORDER BY kind, seq").fetchall()
    finally:
        conn.close()
    return logs, badges


# the shipped batch; one batch per page; batches big enough to train a text dictionary on the
# first and compress the next ones with it ahead of their transactions (archives.fill)
def rows_with_dictionary(path: Path, number: int) -> int:
    """Rows whose text is compressed with text dictionary ``number`` (the stored value's first byte)."""
    conn = sqlite3.connect(path)
    try:
        return int(
            conn.execute("SELECT count(*) FROM logs WHERE substr(texts, 1, 1) = ?", (bytes((number,)),)).fetchone()[0]
        )
    finally:
        conn.close()


@pytest.mark.parametrize("batch", [None, 97, 1200])
def test_an_export_fills_the_archive_as_storing_validated_entries_does(
    fresh_sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int | None
) -> None:
    if batch is not None:
        monkeypatch.setattr(export_command, "ARCHIVE_BATCH", batch)
    model = fresh_sim.person_model_id
    for prompt in AWKWARD_PROMPTS:
        fresh_sim.world.infer(model, prompt, max_tokens=64)
    data_dir = tmp_path / "data"
    monkeypatch.setenv("BLAH_TUI_DATA_DIR", str(data_dir))
    batches: list[list[str]] = []  # the ids of each batch the export stores, in order
    real_encode = Archive.encode

    def encode(self: Archive, entries: Any) -> Any:
        batches.append([e.id for e in entries])
        return real_encode(self, entries)

    monkeypatch.setattr(Archive, "encode", encode)
    assert export_main(model, base_url=fresh_sim.base_url, api_key=None, output=str(tmp_path / "dump.jsonl")) == 0

    monkeypatch.setattr(Archive, "encode", real_encode)
    want = {e.id: e for e in platform(fresh_sim)}
    assert len(want) > PAGE  # more than one page
    per_batch = math.ceil((batch or export_command.ARCHIVE_BATCH) / PAGE) * PAGE  # whole pages
    assert len(batches) == math.ceil(len(want) / per_batch)
    assert sorted(i for ids in batches for i in ids) == sorted(want)
    assert any(e.error is not None for e in want.values()) and any(e.messages for e in want.values())
    # The other way: the validated models, in the same batches.
    with Archive.create_temporary() as reference:
        for ids in batches:
            reference.add([want[i] for i in ids], index_text=False)
        reference.index_pending()
        with Archive.for_model(Path(os.environ["BLAH_TUI_DATA_DIR"]), "blah.dev", fresh_sim.base_url, model) as filled:
            assert filled.path.parent == data_dir / "archives"
            assert every_row(filled.path) == every_row(reference.path)
            if batch == 1200:  # every batch compressed with the dictionary trained on the first
                assert rows_with_dictionary(filled.path, 1) == len(want)
            words = ["capital", "hi", "漢字", "log_fake", "red", "error", "the", "nosuchwordanywhere"]
            for word in words:
                assert filled.search(word, limit=None) == reference.search(word, limit=None), word
            assert filled.search("capital").count > 0 and filled.search("漢字").count == 1
