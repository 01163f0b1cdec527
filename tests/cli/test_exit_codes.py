"""One ExitCode enum, each code with one meaning everywhere (issue 41, item 8): an error
(usage, unknown id, unreachable, refused) never shares a code with an answer."""

from __future__ import annotations

import re
from pathlib import Path

from application.bakeoffs import verdict
from cli.exit_codes import CHANGED, SUMMARY, ExitCode

CLI = Path(__file__).resolve().parents[2] / "cli"
ANSWERS = {ExitCode.OK, ExitCode.NO, ExitCode.UNDECIDED}
ERRORS = {
    ExitCode.USAGE,
    ExitCode.UNREACHABLE,
    ExitCode.OUTCOME_UNKNOWN,
    ExitCode.NOT_FOUND,
    ExitCode.REFUSED,
    ExitCode.LOCAL_FILE,
}


def test_answers_and_errors_never_share_a_code() -> None:
    assert not ANSWERS & ERRORS
    assert len({int(code) for code in ExitCode}) == len(ExitCode)  # no alias: one number, one meaning
    assert set(SUMMARY) == set(ExitCode)


def test_the_verdicts_codes_are_the_answers() -> None:
    assert verdict.EXIT_CODES == {
        verdict.SWITCH: ExitCode.OK,
        verdict.DONT: ExitCode.NO,
        verdict.UNSURE: ExitCode.UNDECIDED,
    }


def test_no_command_defines_a_code_of_its_own() -> None:
    """Every code comes from the enum: no ``EXIT_X = 3`` and no bare ``return 1`` in cli/."""
    for module in CLI.rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert not re.search(r"^EXIT_\w+(, EXIT_\w+)* = \d", text, re.M), module
        assert not re.search(r"^\s+return [1-9]\d*$", text, re.M), module


def test_every_change_is_listed_with_a_real_code() -> None:
    for _, before, now in CHANGED:
        assert before != now and int(now) in {int(code) for code in ExitCode}
