"""A call without a time (a Blobfish step of an evaluation the platform gave no time) is stored
without one: NULL, read back as ``None``, shown as the dash, never 0; it sorts first. An
archive of schema 2, which stored 0 for such steps, is brought to schema 3 on open."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from api_client.archives import schema as archive_schema
from api_client.archives.archive import Archive
from application.evaluations.rollout_steps import PLATFORM_MARKER, search_steps
from common.format import DASH, format_time
from common.records import Call


def step(n: int, at: int | None) -> Call:
    return Call(id=f"r{n}#1", source=PLATFORM_MARKER, created_at=at, prompt=f"step {n} kiwi", response="3")


def stored_times(path: Path) -> dict[str, int | None]:
    with sqlite3.connect(path) as conn:
        return dict(conn.execute("SELECT id, created_at FROM logs"))


def test_a_step_without_a_time_is_stored_null_and_read_back_none(tmp_path: Path) -> None:
    path = tmp_path / "steps.sqlite3"
    with Archive(path) as archive:
        archive.add([step(2, 1_700_000_000_000), step(1, None)])
        archive.add([step(0, None), step(3, 1_600_000_000_000)])  # the middle of the order, both sides
        archive.add([step(4, None)])
        assert [row.id for row in archive.window()] == ["r0#1", "r1#1", "r4#1", "r3#1", "r2#1"]
        assert archive.get("r1#1").created_at is None
        row = archive.window(limit=1)[0]
        assert row.created_at is None and format_time(row.created_at) == DASH
        count, hits = search_steps(archive, "kiwi")
        assert count == 5 and hits[0].created_at is None  # oldest first: the one without a time
    assert stored_times(path)["r1#1"] is None and stored_times(path)["r3#1"] == 1_600_000_000_000


def _as_schema_2(path: Path) -> None:
    """What blah-tui wrote before: ``created_at INTEGER NOT NULL`` and schema version 2."""
    conn = sqlite3.connect(path, isolation_level=None)
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'logs'").fetchone()
    (version,) = conn.execute("PRAGMA schema_version").fetchone()
    conn.execute("BEGIN")
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_master SET sql = ? WHERE name = 'logs'",
        (sql.replace("created_at        INTEGER,", "created_at        INTEGER NOT NULL,"),),
    )
    conn.execute(f"PRAGMA schema_version = {version + 1}")
    conn.execute("PRAGMA writable_schema = OFF")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.execute("COMMIT")
    conn.close()


def test_a_schema_2_archive_has_its_invented_zeros_made_null_on_open(tmp_path: Path) -> None:
    path = tmp_path / "steps.sqlite3"
    with Archive(path) as archive:
        archive.add([step(1, 0), step(2, 1_700_000_000_000), Call(id="blah-0", source="eval", created_at=0)])
    _as_schema_2(path)
    with sqlite3.connect(path) as conn:
        assert (
            "created_at        INTEGER NOT NULL"
            in conn.execute("SELECT sql FROM sqlite_master WHERE name = 'logs'").fetchone()[0]
        )
    with Archive(path) as archive:
        assert archive.get("r1#1").created_at is None  # the 0 it stored for "no time"
        assert archive.get("blah-0").created_at == 0  # another platform's time is left as sent
        archive.add([step(0, None)])  # a new row without a time is accepted
        assert [row.id for row in archive.window()] == ["r0#1", "r1#1", "blah-0", "r2#1"]
    with sqlite3.connect(path) as conn:
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        assert version == str(archive_schema.SCHEMA_VERSION) == "3"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
