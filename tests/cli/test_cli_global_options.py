"""The command line as a new user typed it (issue 31, section 5): a global option given before
a subcommand reaches it or is refused in one line; a bad flag value is one clear line and exit 2
(never a traceback); a reader that closes the pipe early (`| head -1`) ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from cli.main import main
from simulator.blobfish.server import BlobfishServer
from simulator.server import SimulatorServer


@pytest.fixture(scope="module")
def blobfish() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as running:
        yield running


def _exit_code(argv: list[str]) -> int | str | None:
    """What the shell sees: ``main``'s return, or the code a parser exits with."""
    try:
        return main(argv)
    except SystemExit as ended:
        return ended.code


def _one_plain_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "usage:" not in err
    return lines[0]


def test_global_base_url_reaches_report(sim: SimulatorServer, capsys: pytest.CaptureFixture[str]) -> None:
    """`blah-tui --base-url URL report MODEL` asks URL, not evals.blah.dev."""
    code = main(["--base-url", sim.base_url, "report", sim.person_model_id, "--json", "--limit", "50"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "evals.blah.dev" not in captured.err
    assert sim.person_model_id in captured.out


def test_global_base_url_reaches_blobfish(
    blobfish: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", blobfish.account_key)
    monkeypatch.delenv("BLOBFISH_BASE_URL", raising=False)
    code = main(["--base-url", blobfish.base_url, "blobfish", "evals", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert '"evaluation_id"' in captured.out


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--demo", "export", "m"], "--demo"),
        (["--model", "m", "report", "m2"], "--model"),
        (["--log", "l1", "status"], "--log"),
        (["--api-key", "blah_x", "blobfish", "evals"], "--api-key"),
        (["--speed", "3", "bench", "runs", "counselbench-100"], "--speed"),
    ],
)
def test_a_global_option_a_subcommand_cannot_use_is_refused(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_code(argv) == 2
    captured = capsys.readouterr()
    line = _one_plain_line(captured.err)
    assert named in line and argv[argv.index(named) + (2 if named != "--demo" else 1)] in line
    assert captured.out == ""


@pytest.mark.parametrize(
    "argv, named",
    [
        (["--demo", "--speed", "-1"], "--speed"),
        (["--demo", "--speed", "0"], "--speed"),
        (["--demo", "--speed", "nan"], "--speed"),
        (["--demo", "--speed", "fast"], "--speed"),
        (["--demo", "--seed", "x"], "--seed"),
        (["report", "m", "--limit", "many"], "--limit"),
        (["serve", "--port", "70000"], "--port"),
        (["sim", "--speed", "-1"], "--speed"),
    ],
)
def test_a_bad_flag_value_is_one_clear_line_and_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_code(argv) == 2
    line = _one_plain_line(capsys.readouterr().err)
    assert line.startswith("blah-tui") and named in line


def test_a_closed_pipe_ends_quietly(blobfish: BlobfishServer) -> None:
    """`blah-tui blobfish evals | head -1`: the reader has gone; no message, no traceback."""
    env = {
        **os.environ,
        "BLOBFISH_API_KEY": blobfish.account_key,
        "BLOBFISH_BASE_URL": blobfish.base_url,
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    for argv in (["blobfish", "evals"], ["blobfish", "evals", "--json"], ["--help"]):
        reader, writer = os.pipe()
        os.close(reader)  # `head -1` read its line and left before the command wrote
        try:
            done = subprocess.run(
                [sys.executable, "-c", ("import sys; from cli.main import main; sys.exit(main())"), *argv],
                stdout=writer,
                stderr=subprocess.PIPE,
                env=env,
                timeout=60,
            )
        finally:
            os.close(writer)
        assert done.stderr.decode() == "", argv
        assert done.returncode in (0, 141), argv
