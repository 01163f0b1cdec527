"""The CLI draws a bar on stderr while an archive of the first layout is rewritten, and nothing
otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from api_client.archives.archive import Archive
from cli.migration_progress import migration_progress_bar
from tests.api_client.archives.answers_corpus import CALLS, v1_archive


def test_a_migration_draws_a_bar_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = v1_archive(tmp_path)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)  # a terminal
    with migration_progress_bar(), Archive(path) as archive:
        assert archive.count() == CALLS
    err = capsys.readouterr().err
    assert "compacting the local archive" in err and f"{CALLS}/{CALLS}" in err
    with migration_progress_bar(), Archive(path):  # already migrated: nothing drawn
        pass
    assert capsys.readouterr().err == ""


def test_off_a_terminal_the_migration_is_one_plain_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = v1_archive(tmp_path)
    with migration_progress_bar(), Archive(path) as archive:
        assert archive.count() == CALLS
    err = capsys.readouterr().err
    assert err == f"compacting the local archive (once, for this version): {CALLS} calls\n"
