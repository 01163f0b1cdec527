"""The command reference (docs/commands.md) is generated from the command tree and cannot go
stale; every command and flag the README and docs/ name exists; `--help` lists the exit codes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.exit_codes import SUMMARY, ExitCode
from cli.main import main
from cli.reference import REFERENCE, command_paths, flags_of, render, subparsers_of

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("**/*.md"))]


def test_the_committed_reference_is_what_the_tree_says() -> None:
    assert REFERENCE.read_text(encoding="utf-8") == render(), "docs/commands.md is stale: python -m cli.reference"


def test_help_lists_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for code in ExitCode:
        assert re.search(rf"^  {int(code)} +\S", out, re.M), code


def _documented_command_lines() -> list[tuple[str, str]]:
    """(document, command line) for every `blah-tui ...` in a code span or a code block."""
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        spans = re.findall(r"```[^\n]*\n(.*?)```", text, re.S) + re.findall(r"`([^`\n]+)`", text)
        for span in spans:
            for line in span.splitlines():
                for match in re.finditer(r"blah-tui((?: [^|;&`]*)?)", line):
                    found.append((document.name, "blah-tui" + match.group(1)))
    return found


def _subtree_flags(parser: object) -> set[str]:
    return {flag for _, sub in command_paths(parser) for flag in flags_of(sub)}  # type: ignore[arg-type]


def test_every_documented_command_and_flag_exists() -> None:
    from cli.tree import build_parser

    tree = build_parser()
    commands = subparsers_of(tree)
    app_flags = flags_of(tree)
    checked = 0
    for document, line in _documented_command_lines():
        words = [word for word in line.replace("\\", " ").split()[1:] if word]
        command = next((word for word in words if not word.startswith("-")), None)
        flags = {word.split("=")[0] for word in words if re.fullmatch(r"--?[a-z][a-z0-9-]*(=.*)?", word)}
        if command is None or (command not in commands and not re.fullmatch(r"[a-z][a-z-]*", command)):
            unknown = flags - app_flags
            assert not unknown, f"{document}: `{line}` names {unknown}, which blah-tui does not take"
            continue
        assert command in commands, f"{document}: `{line}` names a command `{command}` that does not exist"
        parser = commands[command]
        known = _subtree_flags(parser) | app_flags
        assert not flags - known, f"{document}: `{line}` names {flags - known}, which `{command}` does not take"
        actions = subparsers_of(parser)
        rest = words[words.index(command) + 1 :]
        action = next((word for word in rest if not word.startswith("-")), None)
        if actions and action is not None and re.fullmatch(r"[a-z][a-z-]*", action):
            assert action in actions, f"{document}: `{line}`: `{command}` has no action `{action}`"
        checked += 1
    assert checked > 30  # the README's table alone names more


def test_a_made_up_flag_in_a_document_would_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "page.md"
    page.write_text("Run `blah-tui export M --no-such-flag` or `blah-tui bakeoff nosuch ID`.\n")
    monkeypatch.setattr(__import__(__name__), "DOCUMENTS", [page])
    with pytest.raises(AssertionError, match="--no-such-flag"):
        test_every_documented_command_and_flag_exists()


def test_the_readme_lists_every_exit_code_as_the_enum_says() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| (\d+) \| (.*) \|$", section, re.M))
    assert {int(code) for code in rows} == {int(code) for code in ExitCode}
    for code in ExitCode:
        assert rows[str(int(code))] == SUMMARY[code].replace("|", "\\|"), code
