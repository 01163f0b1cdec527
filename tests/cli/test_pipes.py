"""A reader that closes the pipe early (issue 41, item 9): every command ends the same way,
with exit 141 (128 + SIGPIPE), no traceback and nothing on standard error; a progress bar is
drawn only when standard error is a terminal. Each command runs in a real subprocess whose
standard output is a pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.exit_codes import ExitCode
from simulator.blobfish.server import BlobfishServer
from simulator.errorbar.server import ErrorbarServer
from simulator.server import SimulatorServer
from tests.support.errorbar import COMPARISON, queue_run, queue_server

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


@pytest.fixture(scope="module")
def blobfish() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as running:
        yield running


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path]), **extra}


def _into_a_closed_pipe(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """`blah-tui ARGV | head -0`: the reader has gone before the command writes its first byte."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [sys.executable, "-m", "cli.main", *argv],
            stdout=writer,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=120,
        )
    finally:
        os.close(writer)


def _first_line_then_close(argv: list[str], env: dict[str, str]) -> tuple[bytes, int, bytes]:
    """`blah-tui ARGV | head -1`: the reader takes one line and closes the pipe."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    return line, process.wait(timeout=120), err


def test_every_blah_command_ends_with_141_and_says_nothing(sim: SimulatorServer) -> None:
    env = _env(EVALS_BLAH_API_KEY="")
    on = ["--base-url", sim.base_url]
    for argv in (
        [*on, "runs", "list"],
        [*on, "runs", "list", "--json"],
        [*on, "leaderboard"],
        [*on, "leaderboard", "--json"],
        [*on, "chatroom"],
        [*on, "chatroom", "--follow"],
        [*on, "export", sim.person_model_id],
        ["--help"],
        ["bakeoff", "--help"],
    ):
        done = _into_a_closed_pipe(argv, env)
        assert done.stderr.decode() == "", argv
        assert done.returncode == ExitCode.CLOSED_PIPE == 141, argv


def test_platform_commands_end_with_141_too(queue: ErrorbarServer, blobfish: BlobfishServer) -> None:
    run = queue_run(queue, COMPARISON)
    env = _env(
        ERRORBAR_API_KEY=queue.admin_key, BLOBFISH_API_KEY=blobfish.account_key, BLOBFISH_BASE_URL=blobfish.base_url
    )
    for argv in (
        ["bakeoff", "samples", run["id"], "--base-url", queue.base_url],
        ["bakeoff", "list", "--json", "--base-url", queue.base_url],
        ["blobfish", "evals"],
        ["blobfish", "evals", "--json"],
    ):
        done = _into_a_closed_pipe(argv, env)
        assert done.stderr.decode() == "", argv
        assert done.returncode == 141, argv


def test_export_into_head_draws_no_progress_bar_and_ends_with_141(sim: SimulatorServer) -> None:
    line, code, err = _first_line_then_close(
        ["export", sim.person_model_id, "--base-url", sim.base_url], _env(EVALS_BLAH_API_KEY="")
    )
    assert line.startswith(b"{")  # a call, as JSONL
    assert code == 141 and err == b""  # no bar, no "Exported ..." line, no traceback
