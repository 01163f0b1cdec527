"""``diagnose_model_archive``: the one path of ``report --offline`` and the Diagnosis screen's
whole history: the count to read said before the first range, stopped when asked (also with a
pool of worker processes: the ranges not started are dropped)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from application.diagnosis import whole as whole_module
from application.diagnosis.archive_report import DiagnosisCancelled, diagnose_model_archive, report_markdown
from cli.app.open_file import load_dump
from tests.support.logs_world import fixed_world_dump


@pytest.fixture
def archive_path(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    dump, model_id = fixed_world_dump(tmp_path)
    archive = load_dump(dump, report=io.StringIO())  # a temporary archive, removed when closed
    try:
        yield archive.path, model_id
    finally:
        archive.close()


def test_progress_starts_with_the_archive_s_count_and_ends_with_every_call(archive_path: tuple[Path, str]) -> None:
    path, model_id = archive_path
    seen: list[tuple[int, int]] = []
    result = diagnose_model_archive(
        path, model_id=model_id, trained_template=None, on_progress=lambda done, total: seen.append((done, total))
    )
    held = result.span.calls
    assert held > 1000 and result.whole.calls == held
    assert seen[0] == (0, held) and seen[-1] == (held, held)
    assert result.read.startswith(f"Read all {held} calls of the local archive {path}, which holds {held} calls")
    text = report_markdown(result)
    assert f"`{path}`" in text and f"{held} calls examined" in text


def test_stopped_after_the_first_range_with_a_pool_the_rest_is_dropped(
    archive_path: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, model_id = archive_path
    monkeypatch.setattr(whole_module, "POOL_MIN_CALLS", 1)  # a small archive through the pool of 2
    monkeypatch.setattr(whole_module, "worker_count", lambda: 2)
    progress: list[int] = []
    with pytest.raises(DiagnosisCancelled, match="stopped after"):
        diagnose_model_archive(
            path,
            model_id=model_id,
            trained_template=None,
            on_progress=lambda done, _total: progress.append(done),
            cancelled=lambda: len(progress) >= 1,
        )
    assert progress == [0]  # stopped at the first range done: none reported after it
