"""`blah-tui bench ...` against the real Blobfish simulator over HTTP, as a person types it:
exit codes per final status, the followed ``run_in_progress``, every board refusal, confirmation,
hostile text inert in tables and verbatim in --json, and the key canary."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cli.bench import command as bench_cli
from cli.bench import print as bench_print
from cli.bench.command import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
)
from cli.bench.print import NOT_A_SCORE
from cli.exit_codes import ExitCode
from cli.main import main
from common.unsafe_chars import has_unsafe
from diagnosis.stats import wilson_interval
from simulator.blobfish import benchmarks as sim_bench
from simulator.blobfish.server import BlobfishServer
from tests.support.bench import SLUG, FakeClock
from tests.support.hostile_payloads import HOSTILE

PROVIDER_KEY = "xai-CANARYprovider0123456789abcdef"
HOSTILE_TEXT = " | ".join(
    text for _, text in HOSTILE if len(text) < 2_000 and not any("\ud800" <= c <= "\udfff" for c in text)
)


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=13, live=False) as running:
        yield running


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bf(server: BlobfishServer, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> BlobfishServer:
    server.benchmarks.reset()
    server.benchmarks.clock = clock.time
    monkeypatch.setenv("BLOBFISH_API_KEY", server.account_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", server.base_url)
    monkeypatch.setenv("XAI_API_KEY", PROVIDER_KEY)
    return server


class Shell:
    """Runs `blah-tui bench ...` with the test's fake clock, stdin off a terminal."""

    def __init__(self, clock: FakeClock, capsys: pytest.CaptureFixture[str]) -> None:
        self.clock, self.capsys = clock, capsys

    def __call__(self, *args: str, stdin: str = "") -> tuple[int, str, str]:
        real = bench_cli.bench_main

        def patched(argv: Any, **kw: Any) -> int:
            return real(argv, stdin=io.StringIO(stdin), sleep=self.clock.sleep, clock=self.clock.time, **kw)

        bench_cli_main = pytest.MonkeyPatch()
        bench_cli_main.setattr(bench_cli, "bench_main", patched)
        try:
            code = main(["bench", *args])
        finally:
            bench_cli_main.undo()
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err


@pytest.fixture
def sh(clock: FakeClock, capsys: pytest.CaptureFixture[str]) -> Shell:
    return Shell(clock, capsys)


SUITE = ("run", SLUG, "--model", "grok-4", "--provider", "xai", "--suite", "sample", "--yes")


def _suites(bf: BlobfishServer) -> list[dict[str, Any]]:
    return list(bf.benchmarks.list_runs("demo-account", SLUG)["suite_runs"])


def test_watch_prints_the_final_record_and_exits_0_for_completed(bf: BlobfishServer, sh: Shell) -> None:
    code, out, err = sh(*SUITE, "--watch")
    assert code == EXIT_OK, err
    assert "status      completed" in out and "mean score" in out
    assert "self-run, not the official suite" in out
    assert "next poll in" in err and "completed 10/10" in err
    assert not has_unsafe(out, keep="\n") and not has_unsafe(err, keep="\n")


def test_an_interrupted_suite_exits_3_and_is_never_a_score(bf: BlobfishServer, sh: Shell) -> None:
    bf.die_after_tasks(2)
    code, out, _ = sh(*SUITE, "--watch")
    assert code == EXIT_INTERRUPTED
    assert NOT_A_SCORE in out and "mean score" not in out and "running" not in out
    assert "tasks graded before the interruption" in out


def test_a_rejected_provider_key_exits_1_naming_the_task_and_the_rest_not_attempted(
    bf: BlobfishServer, sh: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XAI_API_KEY", "xai-reject-CANARY")
    code, out, _ = sh(*SUITE, "--watch", "--provider-key-env", "XAI_API_KEY")
    stopped_at = sim_bench.BENCHMARKS[SLUG][sim_bench.REJECT_AT_TASK][0]
    assert code == EXIT_FAILED
    assert f"the provider rejected the credential on task {stopped_at}; the remaining tasks were not attempted" in out
    assert "credential  request" in out and "CANARY" not in out


@pytest.mark.parametrize("slug, more", [("shellbench-20", ()), (SLUG, ("--max-tasks", "1")), (SLUG, ())])
@pytest.mark.parametrize("key", ["xai-reject-CANARY", "xai-REJECT-CANARY"])
def test_the_banners_rejected_key_stops_every_suite(
    bf: BlobfishServer, sh: Shell, monkeypatch: pytest.MonkeyPatch, slug: str, more: tuple[str, ...], key: str
) -> None:
    """The simulator's banner says a provider key containing `reject` is refused: so it is, on a
    one-task benchmark and a suite cut to one task too (those once completed)."""
    monkeypatch.setenv("XAI_API_KEY", key)
    code, out, _ = sh(
        "run",
        slug,
        "--model",
        "grok-4",
        "--provider",
        "xai",
        "--suite",
        "sample",
        "--yes",
        *more,
        "--watch",
        "--provider-key-env",
        "XAI_API_KEY",
    )
    assert code == EXIT_FAILED, out
    assert "the provider rejected the credential on task" in out and "CANARY" not in out


def test_each_tasks_evidence_url_is_printed_whole(bf: BlobfishServer, sh: Shell) -> None:
    code, out, _ = sh(*SUITE, "--max-tasks", "3", "--watch")
    assert code == EXIT_OK
    record = bf.benchmarks.list_runs(bf.store.account.name, SLUG)["suite_runs"][0]
    for task in record["tasks"]:
        line = next(line for line in out.splitlines() if task["evidence_url"] in line)
        assert line.split()[0] == task["task_id"]


def test_bench_runs_shows_the_full_suite_command_on_suite_and_single_runs(bf: BlobfishServer, sh: Shell) -> None:
    code, out, _ = sh("run", SLUG, "--model", "grok-4", "--provider", "xai", "--yes")
    assert code == EXIT_OK
    command = bf.benchmarks.list_runs(bf.store.account.name, SLUG)["runs"][0]["full_suite_command"]
    assert sh(*SUITE, "--max-tasks", "1")[0] == EXIT_OK
    code, out, _ = sh("runs", SLUG)
    assert code == EXIT_OK
    lines = [line for line in out.splitlines() if command in line]
    assert len(lines) >= 2, out  # the single run's own, and the suite run of the same model's
    assert any(line.strip() == command for line in out.splitlines()), "a line holding only the command, to copy"


def test_run_in_progress_on_another_benchmark_is_followed_there(bf: BlobfishServer, sh: Shell) -> None:
    """One suite runs per account, on any benchmark: the 409 on counselbench names a taxbench run."""
    code, out, _ = sh(
        "run", "taxbench-50", "--model", "grok-4", "--provider", "xai", "--suite", "sample", "--yes", "--json"
    )
    assert code == EXIT_OK
    first = json.loads(out)["run_id"]
    code, out, err = sh(*SUITE, "--watch", "--json")
    assert f"already in progress for this account: {first} on taxbench-50" in err
    assert code == EXIT_OK, err
    assert json.loads(out)["run_id"] == first and json.loads(out)["status"] == "completed"


def test_ctrl_c_on_the_sandbox_task_stops_waiting_and_says_where_the_run_shows(
    bf: BlobfishServer, sh: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The platform has no cancel: Ctrl-C leaves the four-minute wait, and the run stays followable."""
    from api_client.blobfish.benchmarks import BenchmarkClient

    async def pressed_ctrl_c(*_: Any, **__: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(BenchmarkClient, "start_single", pressed_ctrl_c)
    code, out, err = sh("run", SLUG, "--model", "grok-4", "--provider", "xai", "--yes")
    assert code == 130 and out == ""
    assert "Ctrl-C stops waiting, not the run" in err  # said before the wait
    assert (
        f"stopped waiting; the sandbox task goes on at the platform (it has no cancel): blah-tui bench runs {SLUG}"
        in err
    )
    assert "Traceback" not in err


def test_a_second_suite_says_which_is_running_and_follows_it_when_asked(bf: BlobfishServer, sh: Shell) -> None:
    code, out, _ = sh(*SUITE, "--json")
    first = json.loads(out)["run_id"]
    code, _, err = sh(*SUITE)
    assert code == ExitCode.REFUSED and f"already in progress for this account: {first}" in err
    code, out, err = sh(*SUITE, "--watch", "--json")
    assert code == EXIT_OK and json.loads(out)["run_id"] == first and json.loads(out)["status"] == "completed"
    assert [s["run_id"] for s in _suites(bf)] == [first]


def test_writes_off_a_terminal_need_yes_and_send_nothing(bf: BlobfishServer, sh: Shell) -> None:
    code, _, err = sh("run", SLUG, "--model", "grok-4", "--provider", "xai", "--suite", "sample")
    assert code == EXIT_USAGE and "add --yes" in err and "nothing was sent" in err
    assert _suites(bf) == []


def test_the_provider_key_comes_from_stdin_and_is_marked_request(bf: BlobfishServer, sh: Shell) -> None:
    code, out, _ = sh(
        "run",
        SLUG,
        "--model",
        "grok-4",
        "--provider",
        "xai",
        "--provider-key-stdin",
        "--yes",
        "--json",
        stdin=PROVIDER_KEY + "\n",
    )
    assert code == EXIT_OK and json.loads(out)["credential_source"] == "request" and PROVIDER_KEY not in out


def test_a_blobfish_key_given_as_the_provider_key_is_refused_before_sending(
    bf: BlobfishServer, sh: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XAI_API_KEY", bf.account_key)
    code, out, err = sh(*SUITE, "--provider-key-env", "XAI_API_KEY")
    assert code == EXIT_USAGE and "not a provider key" in err and bf.account_key not in out + err
    assert _suites(bf) == []


def test_the_platform_unreachable_or_refusing_the_key_exits_4(
    bf: BlobfishServer, sh: Shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", "bf_not_a_key_it_knows_0000")
    code, _, err = sh("runs", SLUG)
    assert code == EXIT_UNREACHABLE and "401" in err
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.account_key)
    monkeypatch.setenv("BLOBFISH_BASE_URL", "http://127.0.0.1:9")
    code, _, err = sh("runs", SLUG)
    assert code == EXIT_UNREACHABLE and err.startswith("blah-tui bench: ")


def _completed(sh: Shell) -> str:
    code, out, _ = sh(*SUITE, "--watch", "--json")
    assert code == EXIT_OK
    return str(json.loads(out)["run_id"])


def test_submit_board_delete_and_every_refusal(bf: BlobfishServer, sh: Shell, clock: FakeClock) -> None:
    code, out, _ = sh("run", SLUG, "--model", "grok-4", "--provider", "xai", "--yes", "--json")
    single = json.loads(out)["run_id"]
    code, _, err = sh("submit", SLUG, single, "--yes")
    assert code == ExitCode.REFUSED and "single-task run (bmr_); only a suite run (bmrs_) can be published" in err

    code, out, _ = sh(*SUITE, "--json")
    running = json.loads(out)["run_id"]
    code, _, err = sh("submit", SLUG, running, "--yes")
    assert code == ExitCode.REFUSED and "has not completed" in err
    bf.kill_benchmark_runners()

    run_id = _completed(sh)
    code, _, err = sh("submit", SLUG, run_id, "--display-name", "x" * 81, "--yes")
    assert code == EXIT_USAGE and "at most 80" in err and "Nothing was sent" in err
    code, out, _ = sh("submit", SLUG, run_id, "--display-name", "grok-4 · mine", "--yes")
    assert code == EXIT_OK and sim_bench.shapes.BENCH_BADGE in out
    bcr = out.split("as community run ")[1].split()[0]
    code, _, err = sh("submit", SLUG, run_id, "--yes")
    assert code == ExitCode.REFUSED and f"already on the community board as {bcr}" in err
    code, out, _ = sh("board", SLUG)
    assert code == EXIT_OK and "mine" in out and bcr in out
    # Each pass rate with its Wilson interval from the row's counts; the means said to be averages.
    assert "pass rate [95% CI]" in out and re.search(r"\d+\.\d% \[\d+\.\d–\d+\.\d\]", out)
    assert "mean scores: the board's averages (it sends no per-task scores): no interval, no tier" in out
    code, out, _ = sh("board", SLUG, "--json")  # the same intervals, for scripts
    mine = next(r for r in json.loads(out)["community_runs"] if r["community_run_id"] == bcr)
    rate = mine["error_bars"]["pass_rate"]
    assert code == EXIT_OK and (rate["passed"], rate["graded"]) == (mine["passed"], mine["graded"])
    assert (rate["low"], rate["high"]) == pytest.approx(wilson_interval(mine["passed"], mine["graded"]))
    assert rate["low"] <= rate["estimate"] <= rate["high"] and rate["method"] == "wilson"

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("BLOBFISH_API_KEY", bf.isolated_key)
    try:
        code, _, err = sh("delete", SLUG, bcr, "--yes")
        assert code == ExitCode.REFUSED and "not yours, or not there" in err
        code, _, err = sh("submit", SLUG, run_id, "--yes")
        assert code == ExitCode.REFUSED and "not yours, or not there" in err
    finally:
        monkeypatch.undo()
    code, out, _ = sh("delete", SLUG, bcr, "--yes")
    assert code == EXIT_OK and "may be submitted again" in out


def test_a_suite_with_nothing_graded_is_refused(bf: BlobfishServer, sh: Shell, clock: FakeClock) -> None:
    run_id = _completed(sh)
    with bf.benchmarks.lock:
        job = bf.benchmarks.scopes["demo-account"].suites[-1]
        job["tasks"], job["graded"] = [], 0  # the grader recorded nothing
    code, _, err = sh("submit", SLUG, run_id, "--yes")
    assert code == ExitCode.REFUSED and "no task of this suite run was graded" in err


def test_hostile_text_is_inert_in_tables_and_verbatim_in_json(bf: BlobfishServer, sh: Shell) -> None:
    row = dict(
        bf.benchmarks.board[SLUG][0],
        community_run_id="bcr_hostile",
        display_name=HOSTILE_TEXT,
        notes=HOSTILE_TEXT,
        model="m" + HOSTILE_TEXT,
        _owner="someone-else",
    )
    bf.benchmarks.board[SLUG].append(row)
    code, out, _ = sh(*SUITE, "--watch")
    assert code == EXIT_OK and not has_unsafe(out, keep="\n")
    assert "cb-003" in out and "^[" in out  # the hostile task name, grader text: shown, escaped
    code, out, _ = sh("board", SLUG)
    assert code == EXIT_OK and "bcr_hostile" in out and not has_unsafe(out, keep="\n")
    code, out, _ = sh("board", SLUG, "--json")
    rows = {r["community_run_id"]: r for r in json.loads(out)["community_runs"]}
    assert rows["bcr_hostile"]["display_name"] == HOSTILE_TEXT and not has_unsafe(out, keep="\n")
    code, out, _ = sh("runs", SLUG, "--json")
    task = json.loads(out)["suite_runs"][0]["tasks"][2]
    assert task["name"] == sim_bench.HOSTILE_NAME and task["grader"]["explanation"] == sim_bench.HOSTILE_EXPLANATION
    assert task["steps"][1]["result"] == sim_bench.HOSTILE_RESULT


def test_hostile_tool_results_of_a_single_run_are_inert_in_the_table_and_verbatim_in_json(
    bf: BlobfishServer, sh: Shell
) -> None:
    single = ("run", "shellbench-20", "--model", "grok-4", "--provider", "xai", "--yes")
    code, out, _ = sh(*single)
    assert code == EXIT_OK and "IGNORE PREVIOUS INSTRUCTIONS" in out and "PASS" in out
    assert not has_unsafe(out, keep="\n") and "expires 30 minutes after the session" in out
    code, out, _ = sh(*single, "--json")
    record = json.loads(out)
    assert record["steps"][1]["result"] == sim_bench.HOSTILE_RESULT
    assert record["grader"]["explanation"] == sim_bench.HOSTILE_EXPLANATION and not has_unsafe(out, keep="\n")


def test_an_evidence_link_older_than_thirty_minutes_is_marked_stale() -> None:
    now = bench_print.dt.datetime(2026, 12, 1, 12, 0, tzinfo=bench_print.dt.UTC)
    assert bench_print._evidence_age("2026-12-01T11:31:00Z", now).startswith("expires")
    assert bench_print._evidence_age("2026-12-01T11:30:00Z", now).startswith("stale")


def test_the_keys_appear_in_no_output_log_or_error(
    bf: BlobfishServer, sh: Shell, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A canary: the provider key and the bf_ key through every command and error path."""
    seen: list[str] = []
    with caplog.at_level(logging.DEBUG):
        for argv in (
            ("run", SLUG, "--model", "grok-4", "--provider", "xai", "--provider-key-env", "XAI_API_KEY", "--yes"),
            (*SUITE, "--watch", "--provider-key-env", "XAI_API_KEY", "--json"),
            (*SUITE, "--provider-key-env", "XAI_API_KEY"),  # run_in_progress
            ("runs", SLUG, "--json"),
            ("board", SLUG, "--json"),
            ("submit", SLUG, "bmrs_nope", "--yes"),
            ("delete", SLUG, "bcr_nope", "--yes"),
            (
                "run",
                SLUG,
                "--model",
                "grok-4",
                "--provider",
                "xai",
                "--provider-key-env",
                "XAI_API_KEY",
                "--max-steps",
                "99",
                "--yes",
            ),
        ):
            _code, out, err = sh(*argv)
            seen += [out, err]
        monkeypatch.setenv("XAI_API_KEY", "xai-reject-" + PROVIDER_KEY)
        seen += list(sh(*SUITE, "--watch", "--provider-key-env", "XAI_API_KEY")[1:])
        monkeypatch.setenv("BLOBFISH_BASE_URL", "http://127.0.0.1:9")
        seen += list(sh(*SUITE, "--provider-key-env", "XAI_API_KEY")[1:])
    text = "\n".join(seen) + caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert "Traceback" not in text
    for secret in (PROVIDER_KEY, bf.account_key):
        assert secret not in text
    requests = bf.requests.text()
    assert "/benchmarks/" in requests
    assert PROVIDER_KEY not in requests and bf.account_key not in requests
