"""One JSONL format for Blobfish evidence: the app's export of a rollout or an evaluation writes
the same lines as `blah-tui blobfish export` (the platform's ``?format=jsonl``), so a file from
either is interchangeable, and `blah-tui open` reads both (and the app's older export lines)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_client.blobfish.client import BlobfishClient
from application.evaluations.evidence import Evaluation
from application.evaluations.export import export_lines, write_jsonl
from application.evaluations.source import ClientSource
from cli.app.open_file import read_dump
from cli.main import main
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import envelope
from tests.support.hostile_payloads import HOSTILE


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as server:
        text = "naïve ünïcode 🐟 " + HOSTILE[0][1]  # non-ASCII and an escape sequence, as a model may send
        server.store.publish(
            server.store.account, json.dumps(envelope("unicode-job", rollouts=2, passed=False, prompt=text)).encode()
        )
        yield server


def _evaluation(server: BlobfishServer, evaluation_id: str) -> Evaluation:
    """The evaluation as the Evaluations screens hold it (the same source and parser)."""

    async def read() -> Evaluation:
        async with BlobfishClient(server.base_url, server.account_key) as client:
            return await ClientSource(client).get_evaluation(evaluation_id)

    return asyncio.run(read())


def _cli_export(server: BlobfishServer, evaluation_id: str, dest: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setenv("BLOBFISH_API_KEY", server.account_key)
    assert main(["blobfish", "export", evaluation_id, "--base-url", server.base_url, "-o", str(dest)]) == 0
    return dest.read_bytes()


def test_the_apps_export_writes_the_platforms_lines_byte_for_byte(
    bf: BlobfishServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for evaluation_id in bf.evaluation_ids():
        cli = _cli_export(bf, evaluation_id, tmp_path / "cli.jsonl", monkeypatch)
        evaluation = _evaluation(bf, evaluation_id)
        app_file = tmp_path / "app.jsonl"
        assert write_jsonl(app_file, export_lines(evaluation)) == len(cli.splitlines())
        assert app_file.read_bytes() == cli, evaluation_id
        cli_lines = cli.decode("utf-8").splitlines(keepends=True)
        for rollout in evaluation.rollouts:  # one rollout: its line of the platform's file
            (line,) = export_lines(evaluation, [rollout])
            assert line in cli_lines and json.loads(line)["rollout_id"] == rollout.rollout_id


def test_open_reads_the_platforms_file_the_apps_file_and_the_older_export(
    bf: BlobfishServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluation_id = bf.evaluation_ids()[0]
    evaluation = _evaluation(bf, evaluation_id)
    _cli_export(bf, evaluation_id, tmp_path / "cli.jsonl", monkeypatch)
    write_jsonl(tmp_path / "app.jsonl", export_lines(evaluation))
    loads = [read_dump(tmp_path / name) for name in ("cli.jsonl", "app.jsonl")]
    steps = sum(len(r.steps) for r in evaluation.rollouts)
    for load in loads:
        assert load.bad_count == 0 and load.loaded == steps  # each step one call
        assert set(load.model_ids) == {s.model for r in evaluation.rollouts for s in r.steps if s.model}
    older = tmp_path / "older.jsonl"  # one line per rollout, as the app wrote before
    older.write_text(
        "".join(
            json.dumps(
                {
                    "platform": "blobfish",
                    "evaluation_id": evaluation_id,
                    "job_id": "j",
                    "taskset": evaluation.taskset,
                    "metadata": dict(evaluation.summary.metadata),
                    "rollout": r.raw["rollout"],
                    "trace": r.raw["trace"],
                }
            )
            + "\n"
            for r in evaluation.rollouts
        ),
        encoding="utf-8",
    )
    old = read_dump(older)
    assert old.bad_count == 0 and old.loaded == steps
    assert set(old.model_ids) == {s.model or evaluation.model for r in evaluation.rollouts for s in r.steps} - {None}
