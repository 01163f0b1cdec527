"""`--json` as a person types it (issue 39, "global options are declared once and reach every
command"): before the command or after it, the same document; nested actions (`bakeoff gate`,
`runs list`) too. A command or action with no JSON form refuses it in one line (exit 2) rather
than printing text a script would then fail to parse. Every `--help` that takes it lists it."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import pytest

from cli.exit_codes import ExitCode
from cli.main import main
from cli.tree import COMMANDS, build_parser
from simulator.blobfish.server import BlobfishServer
from simulator.errorbar.server import ErrorbarServer
from simulator.server import SimulatorServer
from tests.support.errorbar import COMPARISON, queue_run, queue_server


def _shell(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int | str | None, str, str]:
    """``blah-tui ARGV`` through the real entry: exit code, stdout, stderr."""
    capsys.readouterr()
    try:
        code: int | str | None = main(list(argv))
    except SystemExit as ended:  # a parser's usage error or --help
        code = ended.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


@pytest.fixture(scope="module")
def blobfish() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=5, live=False) as running:
        yield running


def _same_json_either_side(capsys: pytest.CaptureFixture[str], before: list[str], command: list[str]) -> object:
    """``blah-tui BEFORE --json COMMAND`` and ``blah-tui BEFORE COMMAND --json``: both exit 0
    with the same JSON document; that document."""
    code_first, first, err_first = _shell(capsys, *before, "--json", *command)
    code_last, last, err_last = _shell(capsys, *before, *command, "--json")
    assert code_first == code_last == 0, (err_first, err_last)
    assert json.loads(first) == json.loads(last)
    return json.loads(first)


def test_json_before_or_after_leaderboard_is_the_same_document(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    board = _same_json_either_side(capsys, ["--base-url", sim.base_url], ["leaderboard"])
    assert isinstance(board, list) and board  # the rows as a document, not the table


def test_json_before_or_after_a_nested_action_runs_list(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = _same_json_either_side(capsys, ["--base-url", sim.base_url], ["runs", "list"])
    assert isinstance(runs, list)


def test_json_before_or_after_bakeoff_gate_is_the_same_verdict(
    queue: ErrorbarServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRORBAR_API_KEY", queue.read_key)
    run = queue_run(queue, COMPARISON)
    gate = ["bakeoff", "gate", run["id"], "--min-win-rate", "0.05", "--base-url", queue.base_url]
    verdict = _same_json_either_side(capsys, [], gate)
    assert isinstance(verdict, dict) and verdict


def test_json_before_or_after_blobfish_evals(
    blobfish: BlobfishServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BLOBFISH_API_KEY", blobfish.account_key)
    evals = _same_json_either_side(capsys, ["--base-url", blobfish.base_url], ["blobfish", "evals"])
    assert '"evaluation_id"' in json.dumps(evals)


@pytest.mark.parametrize(
    "argv, prog",
    [
        (["--json", "status"], "`status`"),
        (["status", "--json"], "blah-tui status"),
        (["--json", "export", "m"], "`export`"),
        (["export", "m", "--json"], "blah-tui export"),
        (["--json", "config", "show"], "`config`"),
        (["--json", "bakeoff", "watch", "run-1"], "blah-tui bakeoff watch"),
        (["bakeoff", "watch", "run-1", "--json"], "blah-tui bakeoff watch"),
        (["--json", "bakeoff", "cancel", "run-1"], "blah-tui bakeoff cancel"),
        (["--json", "bench", "delete", "counselbench-100", "r1"], "blah-tui bench delete"),
        (["--json"], "the app"),
    ],
)
def test_json_where_there_is_no_json_form_is_refused_in_one_line(
    argv: list[str], prog: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, `blah-tui --json bakeoff watch ID` watched and printed text (and `--json status`
    was refused as if it were an unknown option only after the app's parser ran)."""
    code, out, err = _shell(capsys, *argv)
    assert code == ExitCode.USAGE
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert prog in lines[0] and "--json" in lines[0] and "no JSON form" in lines[0]


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], list]]:
    """Each runnable (sub)command's path and the parsers on the way to it, outermost first."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, [parser]
        return
    for name, child in subs[0].choices.items():
        for deeper, chain in _leaves(child, (*path, name)):
            yield deeper, [parser, *chain]


def test_every_help_that_takes_json_lists_it_and_the_top_help_says_what_it_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _shell(capsys, "--help")
    assert code == 0 and "--json" in out
    root = build_parser()
    takes = {command.name: "--json" in command.takes for command in COMMANDS}
    root_sub = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
    with_json = 0
    for command, parser in root_sub.choices.items():
        for path, chain in _leaves(parser):
            has = any("--json" in a.option_strings for p in chain for a in p._actions)
            with_json += has
            if has:
                code, out, _ = _shell(capsys, command, *path, "--help")
                assert code == 0 and "--json" in out, (command, path)
                assert takes[command], f"`{command}` has a JSON form but refuses --json before it"
    assert with_json > 30  # the tree was walked


def test_every_global_option_a_command_takes_is_accepted_after_it_too() -> None:
    """What `blah-tui OPTION COMMAND` takes, `blah-tui COMMAND ... OPTION` takes too (one
    declaration: the same metavar and value check either side)."""
    root = build_parser()
    declared = {a.option_strings[0]: a for a in root._actions if a.option_strings}
    root_sub = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
    for command in COMMANDS:
        if command.name == "sim":  # its own program: the options are handed on as flags (as_flags)
            continue
        for path, chain in _leaves(root_sub.choices[command.name]):
            own = {s: a for p in chain for a in p._actions for s in a.option_strings}
            for flag in command.takes - {"--json"}:
                assert flag in own, f"`{command.name} {' '.join(path)}` refuses {flag} after it"
                assert (own[flag].metavar, own[flag].type, own[flag].nargs) == (
                    declared[flag].metavar,
                    declared[flag].type,
                    declared[flag].nargs,
                ), (command.name, path, flag)
