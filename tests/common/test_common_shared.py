"""The shared pieces common/ holds once: the atomic write, ISO times, the key look-alike check."""

from __future__ import annotations

import datetime as dt
import os
import stat
from pathlib import Path

import pytest

from common.atomic_write import atomic_writer, write_atomic
from common.iso_time import iso_ms, parse_iso
from common.key_shapes import key_shape_problem


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_atomic_write_keeps_the_files_mode_and_a_secret_is_private(tmp_path: Path) -> None:
    shared = tmp_path / "config.toml"
    shared.write_text("old", encoding="utf-8")
    shared.chmod(0o640)
    write_atomic(shared, "new")
    assert shared.read_text(encoding="utf-8") == "new" and _mode(shared) == 0o640
    fresh = tmp_path / "export.jsonl"
    mask = os.umask(0o022)
    try:
        write_atomic(fresh, b"{}\n")
    finally:
        os.umask(mask)
    assert _mode(fresh) == 0o644
    secret = tmp_path / "credentials.toml"
    secret.write_text("x", encoding="utf-8")
    secret.chmod(0o644)
    write_atomic(secret, "api_key = 'k'", private=True)
    assert _mode(secret) == 0o600


def test_a_failed_atomic_write_leaves_the_old_file_and_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "data.jsonl"
    target.write_text("whole\n", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_writer(target) as out:
        out.write("half")
        raise RuntimeError("interrupted")
    assert target.read_text(encoding="utf-8") == "whole\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.jsonl"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-02T03:04:05Z", dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)),
        ("2026-01-02T03:04:05", dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)),  # no zone: UTC
        ("2026-01-02T04:04:05+01:00", dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_iso_times_read_one_way(text: str | None, expected: dt.datetime | None) -> None:
    assert parse_iso(text) == expected
    assert iso_ms(text) == (None if expected is None else int(expected.timestamp() * 1000))


def test_a_key_for_another_platform_is_named_never_shown() -> None:
    key = "bf_" + "s3cr3t" * 4
    problem = key_shape_problem(key, "sk_", "an errorbar key", "this is not an errorbar API key")
    assert problem == "this looks like a Blobfish key (bf_…); an errorbar key starts with sk_"
    assert key_shape_problem("  sk_live  ", "sk_", "an errorbar key", "no") is None
    assert key_shape_problem("sk_", "sk_", "an errorbar key", "no") == "no: those start with sk_"
