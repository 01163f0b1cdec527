"""Shell completion (issue 39, section 2): `blah-tui completion bash|zsh|fish` prints a script,
and the completions the shell gets back name the tree's real commands, actions and flags."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("shell, marker", [("bash", "complete "), ("zsh", "compdef"), ("fish", "complete ")])
def test_each_shell_gets_a_script_for_blah_tui(shell: str, marker: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert marker in script and "blah-tui" in script


def test_an_unknown_shell_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["completion", "tcshh"])
    assert ended.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def _completions(line: str, tmp_path: Path) -> list[str]:
    """What the shell's script gets back for the command line ``line`` (cursor at its end)."""
    answer = tmp_path / "completions"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path]),
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_SHELL": "bash",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "_ARGCOMPLETE_IFS": "\n",
        "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
    }
    done = subprocess.run([sys.executable, "-m", "cli.main"], env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in answer.read_text().splitlines() if word.strip()]


def test_completions_name_real_commands_actions_and_flags(tmp_path: Path) -> None:
    from cli.tree import COMMANDS

    assert set(_completions("blah-tui b", tmp_path)) == {c.name for c in COMMANDS if c.name.startswith("b")}
    assert _completions("blah-tui bakeoff ga", tmp_path) == ["gate"]
    assert "--errors-only" in _completions("blah-tui export --err", tmp_path)
    assert "--min-win-rate" in _completions("blah-tui bakeoff gate ev_1 --min-w", tmp_path)
