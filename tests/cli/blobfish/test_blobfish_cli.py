"""`blah-tui blobfish evals|show|export|publish`, run in-process (``cli.main.main``) against the
Blobfish simulator: each command's output, its errors (one line on stderr, non-zero exit, no
traceback), hostile text (verbatim in --json, inert in tables), and the key kept out of every
output, error, log record and exported file."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.exit_codes import ExitCode
from cli.main import main
from common.unsafe_chars import has_unsafe
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import envelope
from tests.support.hostile_payloads import HOSTILE

REPO = Path(__file__).resolve().parents[3]
HOSTILE_TEXT = " | ".join(
    text for _, text in HOSTILE if len(text) < 10_000 and not any("\ud800" <= c <= "\udfff" for c in text)
)  # the envelope stays under 1 MiB, and valid UTF-8 (the simulator refuses a lone surrogate)


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as server:
        yield server


@pytest.fixture
def env(bf: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> BlobfishServer:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    return bf


@pytest.fixture(scope="module")
def hostile_id(bf: BlobfishServer) -> str:
    """An evaluation whose model, taskset, task, prompt and conditions are hostile text."""
    job = envelope(
        "hostile-job",
        rollouts=2,
        passed=False,
        prompt=HOSTILE_TEXT,
        taskset="task" + HOSTILE[0][1],
        model="model" + HOSTILE[1][1],
    )
    job["job"]["rollouts"][0]["grade"]["failed_conditions"] = [HOSTILE_TEXT]
    evaluation, _ = bf.store.publish(bf.store.account, json.dumps(job).encode())
    return str(evaluation["evaluation_id"])


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["blobfish", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_clean_line(err: str) -> None:
    assert err.startswith("blah-tui blobfish: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and not has_unsafe(err.rstrip("\n"))


# ---------------------------------------------------------------------------- evals


def test_evals_prints_a_table_with_a_dash_where_nothing_was_sent(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str]
) -> None:
    ungraded = env.store.publish(
        env.store.account, json.dumps(envelope("ungraded", reward=None, passed=None)).encode()
    )[0]
    code, out, err = run(capsys, "evals")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["id", "task", "model", "reward", "rollouts", "failed", "created"]
    assert len(lines) == 1 + len(env.evaluation_ids())
    row = next(line for line in lines if line.startswith(ungraded["evaluation_id"]))
    assert row.split()[1:6] == ["letter-count", "my-model", "—", "1", "—"]  # no reward, no verdict: not 0
    seeded = next(line for line in lines if line.startswith(env.evaluation_ids()[-1]))
    summary = env.store.account.by_id[env.evaluation_ids()[-1]]
    assert f"{summary['mean_reward']:.2f}" in seeded.split()


def test_evals_json_is_the_platforms_summaries(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evals", "--json")
    assert code == 0 and err == ""
    listed = json.loads(out)
    assert [s["evaluation_id"] for s in listed] == env.evaluation_ids()
    first = env.store.account.by_id[listed[0]["evaluation_id"]]
    assert listed[0] == {
        k: first[k] for k in ("evaluation_id", "job_id", "created_at", "rollout_count", "mean_reward", "metadata")
    }


def test_a_key_with_no_evaluations_says_so(
    bf: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.isolated_key)  # an unverified email's key: its own, empty scope
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    assert run(capsys, "evals") == (0, "no evaluations published with this key\n", "")
    assert run(capsys, "evals", "--json") == (0, "[]\n", "")


def test_hostile_text_is_verbatim_in_json_and_inert_in_tables(
    env: BlobfishServer, hostile_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "show", hostile_id, "--json")
    assert code == 0
    assert not has_unsafe(out, keep="\n")  # nothing on the terminal can drive it ...
    shown = json.loads(out)  # ... yet the JSON holds the text as the platform stored it
    stored = env.store.account.by_id[hostile_id]["envelope"]
    assert (
        shown["envelope"]["job"]["rollouts"][0]["steps"][0]["prompt"]
        == stored["job"]["rollouts"][0]["steps"][0]["prompt"]
    )
    assert shown["metadata"]["model"] == "model" + HOSTILE[1][1]
    for args in (("show", hostile_id), ("evals",)):
        code, out, _ = run(capsys, *args)
        assert code == 0 and not has_unsafe(out, keep="\n"), args
        assert "^[]52;c;" in out  # shown as an escape, not obeyed


# ---------------------------------------------------------------------------- show


def test_show_prints_the_evaluation_and_its_rollouts(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    failing = env.store.publish(
        env.store.account, json.dumps(envelope("show-me", rollouts=3, reward=0.0, passed=False)).encode()
    )[0]
    code, out, err = run(capsys, "show", failing["evaluation_id"])
    assert code == 0 and err == ""
    assert f"evaluation  {failing['evaluation_id']}" in out
    assert "task        letter-count" in out and "model       my-model" in out
    assert "rollouts    3, failed 3" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("r") and "strawberry" in line]
    assert [row[:5] for row in rows] == [[f"r{n}", "letter-count/strawberry", "0.00", "fail", "1"] for n in range(3)]
    assert all("answer is 3" in " ".join(row) for row in rows)


def test_show_json_holds_the_whole_evidence(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    evaluation_id = env.evaluation_ids()[-1]
    code, out, _ = run(capsys, "show", evaluation_id, "--json")
    assert code == 0
    assert json.loads(out)["envelope"] == env.store.account.by_id[evaluation_id]["envelope"]


def test_show_of_an_unknown_id_is_one_line_and_exit_6(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "no-such-evaluation", "--json")
    assert code == ExitCode.NOT_FOUND and out == ""
    assert_one_clean_line(err)
    assert "404" in err and "no such evaluation" in err


# ---------------------------------------------------------------------------- export


def test_export_one_and_all_write_the_platforms_jsonl(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    evaluation_id = env.evaluation_ids()[-1]
    traces = env.store.account.by_id[evaluation_id]["envelope"]["traces"]
    code, out, err = run(capsys, "export", evaluation_id, "-o", str(tmp_path / "one.jsonl"))
    assert code == 0 and err == ""
    assert [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()] == traces
    assert f"wrote {len(traces)} traces" in out and "of 1 evaluation to" in out

    code, out, err = run(capsys, "export", "--all", "-o", str(tmp_path / "all.jsonl"))
    assert code == 0 and err == ""
    ids = env.evaluation_ids()
    expected = [t for e in ids for t in env.store.account.by_id[e]["envelope"]["traces"]]
    assert [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()] == expected
    assert f"of {len(ids)} evaluations" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.jsonl", "one.jsonl"]


def test_export_all_in_process_leaves_the_callers_garbage_collector_as_it_was(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`export --all` runs with collection on its own terms (common.gc_tuning,
    shared with `blah-tui export`): a caller that froze its objects keeps them frozen, one that
    froze nothing gets nothing left frozen, and collection is back on afterwards."""
    import gc

    frozen_before = gc.get_freeze_count()
    try:
        gc.unfreeze()
        assert run(capsys, "export", "--all", "-o", str(tmp_path / "a.jsonl"))[0] == 0
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        kept = [object() for _ in range(10)]
        gc.freeze()
        frozen = gc.get_freeze_count()
        assert run(capsys, "export", "--all", "-o", str(tmp_path / "b.jsonl"))[0] == 0
        assert gc.get_freeze_count() > 0.9 * frozen and gc.isenabled()  # (some die meanwhile)
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
        del kept
    finally:
        if frozen_before:
            gc.freeze()


def test_export_needs_an_id_or_all_and_an_output(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("export", "-o", "x.jsonl"), ("export", "some-id"), ("export", "some-id", "--all", "-o", "x.jsonl")):
        with pytest.raises(SystemExit) as exited:
            run(capsys, *args)
        assert exited.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def test_a_failed_export_leaves_no_file(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "export", "no-such-evaluation", "-o", str(tmp_path / "x.jsonl"))
    assert code == ExitCode.NOT_FOUND and out == ""
    assert_one_clean_line(err)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- publish


def test_publish_prints_the_evaluation_id_and_dashboard_url(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "job.json"
    path.write_bytes(json.dumps(envelope("cli-publish", rollouts=2), indent=1).encode())
    code, out, err = run(capsys, "publish", str(path))
    assert code == 0 and err == ""
    published = env.store.account.by_job["cli-publish"]
    assert f"published evaluation {published['evaluation_id']} (job cli-publish)" in out
    assert f"dashboard: {env.base_url}/evaluations/{published['evaluation_id']}" in out
    code, out, _ = run(capsys, "publish", str(path), "--json")  # the same file again: the same evaluation
    assert code == 0 and json.loads(out)["evaluation_id"] == published["evaluation_id"]


def test_publish_refused_locally_sends_nothing(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "running.json"
    path.write_text(json.dumps(envelope("cli-running", status="running")))
    before = env.requests.count("POST")
    code, out, err = run(capsys, "publish", str(path))
    assert code == 2 and out == ""
    assert_one_clean_line(err)
    assert "not completed" in err and "nothing was sent" in err
    assert env.requests.count("POST") == before


def test_publish_of_changed_evidence_says_so_plainly(
    env: BlobfishServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(envelope("cli-changed", reward=1.0)))
    second.write_text(json.dumps(envelope("cli-changed", reward=0.5)))
    assert run(capsys, "publish", str(first))[0] == 0
    code, out, err = run(capsys, "publish", str(second))
    assert code == ExitCode.REFUSED and out == ""
    assert_one_clean_line(err)
    assert "already published with different evidence" in err and "new job id" in err


def test_publish_of_a_missing_file_is_one_line(env: BlobfishServer, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "publish", "/nonexistent/job.json")
    assert code == ExitCode.LOCAL_FILE
    assert_one_clean_line(err)
    assert "cannot read" in err


# ---------------------------------------------------------------------------- the key


def test_no_key_is_one_line_naming_the_variable(
    bf: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BLOBFISH_API_KEY", raising=False)
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    before = len(bf.requests.records())
    code, out, err = run(capsys, "evals")
    assert code == 2 and out == ""
    assert_one_clean_line(err)
    assert "BLOBFISH_API_KEY" in err and "nothing was sent" in err
    assert len(bf.requests.records()) == before


def test_a_blah_key_is_refused_naming_its_kind_never_the_key(
    bf: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "blah_demo_council_canary0123456789"
    monkeypatch.setenv("BLOBFISH_API_KEY", key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", bf.base_url)
    code, out, err = run(capsys, "evals")
    assert code == 2 and out == ""
    assert_one_clean_line(err)
    assert "looks like a blah.dev key (blah_…)" in err and "bf_" in err
    assert "canary0123456789" not in err


def test_a_bad_base_url_is_one_line(
    bf: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    code, _, err = run(capsys, "evals", "--base-url", "ftp://blobfish.ai")
    assert code == 2
    assert_one_clean_line(err)
    assert "--base-url" in err
    code, _, err = run(capsys, "evals", "--base-url", "http://blobfish.example")
    assert code == 2 and "clear text" in err and bf.account_key not in err


def test_base_url_goes_before_or_after_the_action(
    bf: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", "https://blobfish.invalid")
    for args in (("--base-url", bf.base_url, "evals", "--json"), ("evals", "--json", "--base-url", bf.base_url)):
        code, out, err = run(capsys, *args)
        assert code == 0 and err == "", args
        assert [s["evaluation_id"] for s in json.loads(out)] == bf.evaluation_ids()


def test_the_key_is_in_no_output_error_log_or_file(
    env: BlobfishServer,
    hostile_id: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A canary: the key the simulator knows, run through every command and error path."""
    key = env.account_key
    (tmp_path / "job.json").write_text(json.dumps(envelope("canary-job")))
    (tmp_path / "changed.json").write_text(json.dumps(envelope("canary-job", reward=0.0)))
    commands = [
        ("evals",),
        ("evals", "--json"),
        ("show", hostile_id),
        ("show", hostile_id, "--json"),
        ("show", "missing"),
        ("export", hostile_id, "-o", str(tmp_path / "one.jsonl")),
        ("export", "--all", "-o", str(tmp_path / "all.jsonl")),
        ("export", "missing", "-o", str(tmp_path / "none.jsonl")),
        ("publish", str(tmp_path / "job.json")),
        ("publish", str(tmp_path / "changed.json")),
    ]
    seen, codes = [], []
    with caplog.at_level(logging.DEBUG):
        for args in commands:
            code, out, err = run(capsys, *args)
            seen.append(out + err)
            codes.append(code)
    assert codes == [0, 0, 0, 0, 6, 0, 0, 6, 0, 7]  # the success and the error paths both ran
    assert all(key not in text for text in seen)
    assert key not in caplog.text and all(key not in r.getMessage() for r in caplog.records)
    for path in tmp_path.iterdir():
        assert key.encode() not in path.read_bytes(), path.name
    assert key not in env.requests.text()


def test_the_blobfish_commands_import_no_textual(bf: BlobfishServer, tmp_path: Path) -> None:
    probe = (
        "import sys\nfrom cli.main import main\n"
        f"code = main(['blobfish', 'export', '--all', '-o', {str(tmp_path / 'all.jsonl')!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'widgets'))\n"
        "print(code, loaded)"
    )
    env = {**os.environ, "BLOBFISH_API_KEY": bf.account_key, "BLOBFISH_BASE_URL": bf.base_url}
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().endswith("0 []"), done.stdout + done.stderr


def test_the_program_exits_as_main_returns(env: BlobfishServer, tmp_path: Path) -> None:
    """`python -m cli.main` (and the `blah-tui` script, `cli.main:run`) exits with `main`'s code
    and leaves the finished file and the receipt (it skips only the collector's last walk)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[3]
    dest = tmp_path / "all.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "blobfish", "export", "--all", "-o", str(dest), "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["byte_count"] == dest.stat().st_size > 0
    refused = subprocess.run(
        [sys.executable, "-m", "cli", "blobfish", "export", "-o", str(tmp_path / "x.jsonl")],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and not (tmp_path / "x.jsonl").exists()
