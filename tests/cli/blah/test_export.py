"""`blah-tui export` (JSONL of the whole history) and `blah-tui open` (loading a dump)."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.client import BlahClient
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import LogEntry
from api_client.blahdev.wire_logs import WirePage
from api_client.errors import ServerError
from cli.app.open_file import load_dump, read_dump
from cli.blah.export import export_main
from cli.exit_codes import ExitCode
from common.records import Call
from simulator.server import SimulatorServer
from tests.support.platform_logs import expected_file

REPO = Path(__file__).resolve().parents[3]


def platform(sim: SimulatorServer, **kw: object) -> list[Call]:
    async def collect() -> list[Call]:
        async with BlahClient(sim.base_url) as client:
            return [e async for e in client.iter_logs(sim.person_model_id, **kw)]  # type: ignore[arg-type]

    return asyncio.run(collect())


def read_jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def run_export(sim: SimulatorServer, output: str | None, **kw: object) -> int:
    args: dict[str, object] = {"source": None, "errors_only": False, "since": None}
    args.update(kw)
    return export_main(sim.person_model_id, base_url=sim.base_url, api_key=None, output=output, **args)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- export


def test_export_writes_the_platforms_whole_history_newest_first(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dump.jsonl"
    assert run_export(sim, str(out)) == 0
    rows = read_jsonl(out)
    want = platform(sim)
    assert [r["id"] for r in rows] == [e.id for e in want]
    assert len({r["id"] for r in rows}) == len(rows)
    times = [r["created_at"] for r in rows]
    assert times == sorted(times, reverse=True)
    assert set(rows[0]) == set(LogEntry.model_fields)  # the platform's field names, all of them
    assert call_from_log_entry(LogEntry.model_validate(rows[0])) == want[0]
    err = capsys.readouterr().err
    assert f"Exported {len(rows)} calls" in err
    assert not list(tmp_path.glob(".dump.jsonl.*"))  # no temporary file left behind


@pytest.mark.parametrize("batch", [None, 97])  # the shipped batch (one or few), and many small ones
def test_a_full_export_fills_the_local_archive(
    sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int | None
) -> None:
    if batch is not None:
        monkeypatch.setattr("cli.blah.export.ARCHIVE_BATCH", batch)
    out = tmp_path / "dump.jsonl"
    assert run_export(sim, str(out)) == 0
    rows = read_jsonl(out)
    ids = [r["id"] for r in sorted(rows, key=lambda r: (r["created_at"], r["id"]))]
    data_dir = Path(os.environ["BLAH_TUI_DATA_DIR"])
    with Archive.for_model(data_dir, "blah.dev", sim.base_url, sim.person_model_id) as archive:
        assert archive.count() == len(ids)
        assert [r.id for r in archive.window(LogFilter(), 0, len(ids))] == ids  # all, in time order
        assert archive.get_cursor() == read_jsonl(out)[0]["created_at"]
        assert archive.history_complete


def test_a_full_export_extends_an_archive_downwards_only(sim: SimulatorServer, tmp_path: Path) -> None:
    """The app already holds the newest calls (and its tail's cursor): the export adds
    the older history and leaves the cursor to the app."""
    want = platform(sim)
    data_dir = Path(os.environ["BLAH_TUI_DATA_DIR"])
    with Archive.for_model(data_dir, "blah.dev", sim.base_url, sim.person_model_id) as archive:
        archive.add(want[:100])
        archive.set_cursor(want[0].created_at - 5)
    assert run_export(sim, str(tmp_path / "dump.jsonl")) == 0
    with Archive.for_model(data_dir, "blah.dev", sim.base_url, sim.person_model_id) as archive:
        assert archive.count() == len(want)
        assert [r.id for r in archive.window(LogFilter(), 0, len(want))] == [e.id for e in reversed(want)]
        assert archive.get_cursor() == want[0].created_at - 5
        assert archive.history_complete


def test_an_export_in_process_leaves_the_callers_garbage_collector_as_it_was(
    sim: SimulatorServer, tmp_path: Path
) -> None:
    """A program (or test worker) that runs the export in its own process and froze its
    long-lived objects keeps them frozen; one that froze nothing gets nothing left frozen."""
    import gc

    frozen_before = gc.get_freeze_count()
    try:
        gc.unfreeze()
        assert run_export(sim, str(tmp_path / "a.jsonl")) == 0
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        kept = [object() for _ in range(10)]
        gc.freeze()
        frozen = gc.get_freeze_count()
        assert run_export(sim, str(tmp_path / "b.jsonl")) == 0
        assert gc.get_freeze_count() > 0.9 * frozen and gc.isenabled()  # (some die meanwhile)
        del kept
    finally:
        if frozen_before:
            gc.freeze()


def test_filtered_export_keeps_only_what_was_asked(sim: SimulatorServer, tmp_path: Path) -> None:
    out = tmp_path / "errors.jsonl"
    assert run_export(sim, str(out), source="eval", errors_only=True) == 0
    rows = read_jsonl(out)
    assert rows and all(r["source"] == "eval" and r["error"] is not None for r in rows)
    assert [r["id"] for r in rows] == [e.id for e in platform(sim, source="eval", errors_only=True)]
    since = rows[len(rows) // 2]["created_at"]
    newer = tmp_path / "newer.jsonl"
    assert run_export(sim, str(newer), source="eval", errors_only=True, since=since) == 0
    assert [r["id"] for r in read_jsonl(newer)] == [r["id"] for r in rows if r["created_at"] > since]
    data_dir = Path(os.environ["BLAH_TUI_DATA_DIR"])
    assert not (data_dir / "archives").exists()  # a filtered export leaves the archive alone


def test_export_to_stdout(sim: SimulatorServer, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert run_export(sim, "-", source="chat") == 0
    lines = capsysbinary.readouterr().out.splitlines()
    assert [orjson.loads(x)["id"] for x in lines] == [e.id for e in platform(sim, source="chat")]


def test_a_failure_half_way_leaves_the_existing_file_as_it_was(
    sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dump.jsonl"
    out.write_bytes(b'{"previous": "export"}\n')

    real_get_logs = BlahClient.get_logs_wire  # the pages export reads

    async def broken(self: BlahClient, model_id: str, **kw: Any) -> WirePage:
        if kw.get("before") is not None:  # the first page arrives (and is written), the next fails
            raise ServerError("upstream \x1b]52;c;aGk=\x07 exploded", status=502)
        return await real_get_logs(self, model_id, **kw)

    monkeypatch.setattr(BlahClient, "get_logs_wire", broken)
    assert run_export(sim, str(out)) == ExitCode.UNREACHABLE
    assert out.read_bytes() == b'{"previous": "export"}\n'
    assert not list(tmp_path.glob(".dump.jsonl.*"))  # the partial file is gone
    err = capsys.readouterr().err
    assert "exploded" in err and "\x1b" not in err  # the server's text, made inert


def test_export_errors_are_one_clear_line(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dump.jsonl"
    code = export_main(
        "no-such-model",
        base_url=sim.base_url,
        api_key=None,
        source=None,
        errors_only=False,
        since=None,
        output=str(out),
    )
    assert code == ExitCode.NOT_FOUND and not out.exists()
    assert "blah-tui export:" in capsys.readouterr().err
    assert (
        export_main(
            "m",
            base_url="http://127.0.0.1:9",
            api_key=None,
            source=None,
            errors_only=False,
            since=None,
            output=str(tmp_path / "x.jsonl"),
        )
        == ExitCode.UNREACHABLE
    )
    assert run_export(sim, str(tmp_path)) == ExitCode.USAGE  # a directory: name a file


def test_export_does_not_import_textual() -> None:
    code = (
        "import sys, cli.blah.export, cli.app.open_file, api_client.archives.sync; "
        "sys.exit(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO, check=False).returncode == 0


# --------------------------------------------------------------------------- open a dump


def test_an_export_reloads_into_an_equal_archive(sim: SimulatorServer, tmp_path: Path) -> None:
    out = tmp_path / "dump.jsonl"
    assert run_export(sim, str(out), source="eval") == 0
    want = platform(sim, source="eval")
    archive = load_dump(out)
    try:
        assert archive.count() == len(want)
        assert archive.get(want[3].id) == want[3]
        assert [r.id for r in archive.window(LogFilter(), 0, 5)] == [e.id for e in want[::-1][:5]]
        assert archive.model_id == sim.person_model_id
        assert archive.search(want[0].prompt.split()[-1]).count >= 1  # indexed for search
    finally:
        archive.close()


def test_a_dump_with_bad_lines_loads_the_rest_and_says_which(tmp_path: Path) -> None:
    good = [LogEntry(id=f"l{i}", model_id="m", created_at=100 + i, prompt=f"p{i}") for i in range(4)]
    lines = [
        orjson.dumps(good[0].model_dump()),
        b"",  # blank: ignored, not an error
        b'{"id": "broken", "created_at": ',  # 3: broken JSON
        orjson.dumps(good[1].model_dump()),
        b'{"id": "no-time"}',  # 5: missing created_at
        b"\xff\xfe not utf-8",  # 6
        b'{"id": "evil", "created_at": "soon\x1b[2J"}',  # 7: wrong type, hostile text
        b"[1, 2]",  # 8: not objects
        orjson.dumps([good[2].model_dump(), good[3].model_dump()]),  # an array of entries
        orjson.dumps(good[0].model_dump()),  # a duplicate
    ]
    path = tmp_path / "dump.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = read_dump(path)
    report = io.StringIO()
    archive = load_dump(path, report=report)
    try:
        assert [b.line_no for b in result.bad_lines] == [3, 5, 6, 7, 8]
        assert (result.loaded, result.duplicates, result.bad_count) == (4, 1, 5)
        assert archive.count() == 4 and archive.model_id == "m"
        text = report.getvalue()
        for n in (3, 5, 6, 7, 8):
            assert f"line {n}:" in text
        assert "\x1b" not in text and "created_at" in text
    finally:
        archive.close()
        result.archive.close()


def test_a_dump_in_no_particular_order_is_listed_in_time_order(tmp_path: Path) -> None:
    import random

    entries = [
        LogEntry(id=f"l{i:05d}", created_at=1000 + i // 2, source="chat" if i % 3 else "eval") for i in range(12_000)
    ]
    shuffled = entries[:]
    random.Random(5).shuffle(shuffled)
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"".join(orjson.dumps(e.model_dump()) + b"\n" for e in shuffled))
    archive = load_dump(path, report=io.StringIO())
    try:
        assert [r.id for r in archive.window(LogFilter(), 0, 20_000)] == [e.id for e in entries]
        chat = [e.id for e in entries if e.source == "chat"]
        assert archive.count(LogFilter(source="chat")) == len(chat)
        assert [r.id for r in archive.window(LogFilter(source="chat"), 5000, 3)] == chat[5000:5003]
    finally:
        archive.close()


def test_an_unreadable_dump_raises_and_leaves_no_archive(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        load_dump(tmp_path / "missing.jsonl")


def test_the_file_is_byte_for_byte_what_the_validated_entries_serialize_to(
    fresh_sim: SimulatorServer, tmp_path: Path
) -> None:
    """Export cuts each line from the platform's JSON (no model per call): the file must be
    exactly what it was when every entry was validated and serialized by ``LogEntry``,
    prompts with control characters, quotes, non-ASCII and JSON-looking text included."""
    model = fresh_sim.person_model_id
    for prompt in ('he said "hi" \\ \x1b[31m red \x07', "naïve 漢字 🙂 \u2028", '},{"id":"log_fake"}', "\t\x00\x7f"):
        fresh_sim.world.infer(model, prompt, max_tokens=64)
    out = tmp_path / "dump.jsonl"
    assert export_main(model, base_url=fresh_sim.base_url, api_key=None, output=str(out)) == 0
    calls = platform(fresh_sim)
    assert len(calls) > 500  # more than one page
    assert out.read_bytes() == expected_file(fresh_sim, calls)  # in the client's order


def test_the_file_is_in_place_before_the_archive_finishes(
    sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person's file does not wait for the archive's last batch and full-text index."""
    out = tmp_path / "dump.jsonl"
    seen: list[int] = []
    real_index = Archive.index_pending

    def index_pending(self: Archive, *args: Any, **kwargs: Any) -> int:
        seen.append(len(out.read_bytes().splitlines()) if out.exists() else -1)
        return real_index(self, *args, **kwargs)

    monkeypatch.setattr(Archive, "index_pending", index_pending)
    assert run_export(sim, str(out)) == 0
    assert seen == [len(platform(sim))]  # complete, and already at its name


def test_a_full_export_to_stdout_fills_the_archive_as_it_goes(
    sim: SimulatorServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """The archive is filled while pages arrive, whatever the output; to standard output too
    it ends up complete, in time order, with the tail's cursor at the newest call."""
    monkeypatch.setenv("BLAH_TUI_DATA_DIR", str(tmp_path / "data"))
    assert run_export(sim, "-") == 0
    rows = [orjson.loads(x) for x in capsysbinary.readouterr().out.splitlines()]
    ids = [r["id"] for r in sorted(rows, key=lambda r: (r["created_at"], r["id"]))]
    with Archive.for_model(tmp_path / "data", "blah.dev", sim.base_url, sim.person_model_id) as archive:
        assert [r.id for r in archive.window(LogFilter(), 0, len(ids))] == ids
        assert archive.get_cursor() == rows[0]["created_at"]
        assert archive.history_complete
