"""`blah-tui blobfish export ID ID ... -o FILE` (1-50 evaluations, with the receipt: records,
bytes, SHA-256 of the file) and `blah-tui blobfish publish --evaluation ID` (no envelope cut out
of `show --json` by hand), run in-process against the Blobfish simulator over HTTP."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.exit_codes import ExitCode
from cli.main import main
from simulator.blobfish.envelope import encode
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import envelope


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as server:
        yield server


@pytest.fixture
def env(bf: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> BlobfishServer:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    return bf


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["blobfish", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(err: str) -> None:
    assert err.startswith("blah-tui blobfish") and err.count("\n") == 1 and "Traceback" not in err, err


def test_export_of_three_ids_writes_them_in_order_and_prints_the_files_sha256(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ids = env.evaluation_ids()[4:7]
    dest = tmp_path / "three.jsonl"
    code, out, err = run(capsys, "export", *ids, "-o", str(dest))
    assert code == 0 and err == ""
    expected = [t for i in ids for t in env.store.account.by_id[i]["envelope"]["traces"]]
    written = dest.read_bytes()
    assert [json.loads(line) for line in written.splitlines()] == expected
    sha = hashlib.sha256(written).hexdigest()
    lines = out.splitlines()
    assert lines[0] == f"wrote {len(expected)} traces ({len(written):,} bytes) of 3 evaluations to {dest}"
    assert lines[1].startswith(f"receipt: {len(expected)} records, {len(written):,} bytes, SHA-256 {sha} (")
    assert "computed by blah-tui from the file it wrote" in lines[1]

    code, out, _ = run(capsys, "export", *ids, "-o", str(tmp_path / "again.jsonl"), "--json")
    receipt = json.loads(out)
    assert code == 0 and receipt["sha256"] == sha and receipt["record_count"] == len(expected)
    assert receipt["byte_count"] == len(written) and receipt["sources"] == 3


@pytest.mark.parametrize("which", ["one", "three", "all"])
def test_every_exports_receipt_is_the_file_measured_on_disk(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path, which: str
) -> None:
    """The receipt is taken from the bytes as they are written (no second read of the file):
    it is what measuring the file on disk gives, for each way of exporting."""
    from application.evaluations.dataset_export import receipt_of_file

    ids = {"one": env.evaluation_ids()[2:3], "three": env.evaluation_ids()[4:7], "all": ["--all"]}[which]
    dest = tmp_path / f"{which}.jsonl"
    code, out, err = run(capsys, "export", *ids, "-o", str(dest), "--json")
    assert code == 0 and err == ""
    measured = receipt_of_file(dest, len(env.evaluation_ids()) if which == "all" else len(ids))
    assert json.loads(out) == json.loads(json.dumps(measured.to_json()))
    assert measured.record_count > 0


def test_one_export_takes_at_most_50_evaluations(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ids = env.evaluation_ids()[:51]
    before = env.requests.count("GET")
    code, out, err = run(capsys, "export", *ids, "-o", str(tmp_path / "many.jsonl"))
    assert code == 2 and out == ""
    one_line(err)
    assert "51 evaluations are selected: an export takes 1-50 (Blobfish's limit per export)" in err
    assert "nothing was written" in err
    assert list(tmp_path.iterdir()) == [] and env.requests.count("GET") == before
    code, _, _ = run(capsys, "export", *ids[:50], "-o", str(tmp_path / "fifty.jsonl"))
    assert code == 0 and (tmp_path / "fifty.jsonl").exists()


def test_ids_and_all_together_is_a_usage_error(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "export", "some-id", "--all", "-o", "x.jsonl")
    assert exited.value.code == 2
    assert "give evaluation ids or --all, not both" in capsys.readouterr().err


def test_publish_by_evaluation_id_builds_the_envelope_itself(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    published, _ = env.store.publish(env.store.account, encode(envelope("cli-by-id", rollouts=2)))
    evaluation_id = published["evaluation_id"]
    before = env.requests.count("POST")
    code, out, err = run(capsys, "publish", "--evaluation", evaluation_id)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        f"published evaluation {evaluation_id} (job cli-by-id)",
        "Blobfish already held this evidence: it answered with the same evaluation",
        f"dashboard: {env.base_url}/evaluations/{evaluation_id}",
    ]
    assert env.requests.count("POST") == before + 1
    code, out, _ = run(capsys, "publish", "--evaluation", evaluation_id, "--json")
    assert code == 0 and json.loads(out)["evaluation_id"] == evaluation_id


def test_publish_by_evaluation_id_of_masked_evidence_is_one_line(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    job = envelope("cli-masked")
    job["job"]["metadata"]["api_key"] = "sk-ant-api03-" + "x" * 40  # type: ignore[index]
    published, _ = env.store.publish(env.store.account, encode(job))
    code, out, err = run(capsys, "publish", "--evaluation", published["evaluation_id"])
    assert code == ExitCode.REFUSED and out == ""
    one_line(err)
    assert "HTTP 409" in err and "already published with different evidence" in err


def test_publish_needs_a_file_or_an_evaluation_not_both(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (("publish",), ("publish", "job.json", "--evaluation", "some-id")):
        with pytest.raises(SystemExit) as exited:
            run(capsys, *args)
        assert exited.value.code == 2
        assert "Traceback" not in capsys.readouterr().err
