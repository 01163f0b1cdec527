"""An export killed half way (SIGKILL: no clean-up at all) while it fills the archive leaves no
half file under the person's name, and running it again loses and doubles nothing: the file is
whole and the archive holds every call once, in time order, its words all searchable."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import orjson

from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import LogEntry
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer

REPO = Path(__file__).resolve().parents[3]
CALLS = 12_000
"""More than two of the export's archive batches (5,000 calls)."""


def _stored_rows(path: Path) -> int:
    if not path.exists():
        return 0
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM logs").fetchone()[0])
    except sqlite3.Error:  # (not created yet)
        return 0
    finally:
        conn.close()


def test_a_killed_export_leaves_no_half_file_and_a_rerun_loses_and_doubles_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    out = tmp_path / "calls.jsonl"
    with SimulatorServer(seed=5, live=False) as sim:
        sim.world.add_log_burst(CALLS, same_ms=False)
        sim.chaos = ChaosConfig(rate_latency=1.0, latency_s=0.05, seed=1)  # a platform far away: time to kill it
        model = sim.person_model_id
        archive_file = Archive.path_for(data_dir, sim.base_url, model)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path]),
            "BLAH_TUI_DATA_DIR": str(data_dir),
            "EVALS_BLAH_API_KEY": "",
        }
        argv = [sys.executable, "-m", "cli.main", "export", model, "-o", str(out), "--base-url", sim.base_url]
        export = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while _stored_rows(archive_file) == 0 and export.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            export.send_signal(signal.SIGKILL)
        finally:
            export.wait(timeout=60)
        assert export.returncode == -signal.SIGKILL  # killed half way, not finished
        assert 0 < _stored_rows(archive_file) < CALLS
        assert not out.exists()  # no half file under the person's name

        sim.chaos = ChaosConfig()
        again = subprocess.run(argv, env=env, capture_output=True, timeout=300, check=False)
        assert again.returncode == 0, again.stderr.decode()[-2000:]
        total = sim.world.logs.count(model)

    rows = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert len(rows) == total == len({r["id"] for r in rows})  # the whole history, each call once
    oldest_first = [r["id"] for r in sorted(rows, key=lambda r: (r["created_at"], r["id"]))]
    with Archive(archive_file) as archive:
        assert archive.count() == total == _stored_rows(archive_file)  # nothing lost, nothing twice
        assert [r.id for r in archive.window(LogFilter(), 0, total)] == oldest_first
        assert archive.pending_text_index() == 0
        assert archive.history_complete
        with Archive.create_temporary() as reference:  # the same calls stored in one go
            reference.add(call_from_log_entry(LogEntry.model_validate(r)) for r in rows)
            for word in {*rows[0]["prompt"].split()[:3], *(rows[-1]["response"] or "").split()[:3]}:
                assert archive.search(word, limit=None) == reference.search(word, limit=None), word
