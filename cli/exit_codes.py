"""Every exit code of `blah-tui`, each with one meaning in every command.

Answers and errors never share a code: a script that reads 1 as "don't switch" or "the check
failed" can trust that no typo, unknown id, unreachable platform or refusal ends with 1.

- Answers (the command did its job; the code *is* the answer): 0 yes or done, 1 no,
  3 no answer either way yet.
- Errors (the command could not answer): 2, 4-8.
- 130 and 141 are the shell's own (a signal ended it).

Codes 9-19 are free: a new meaning gets a new number here, never a number already listed.
Changed from earlier releases (docs/exit-codes.md lists them): an unknown id or model is 6
(was 1 from most commands, 2 from `report`), a platform's refusal is 7 (was 1), a write whose
answer was lost is 5 in `bakeoff` too (was 4), a local file that cannot be read or written
is 8 (was 1), `report` cannot reach the platform is 4 (was 1), `report --from` with lines
that are not calls is 9 (was 3), `archives prune` not confirmed is 2 (was 1), and a reader
that closes the pipe early is 141 for every command (was 0 or 1 for some).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitCode", "describe_exit_codes"]


class ExitCode(IntEnum):
    OK = 0
    """Done; where the command answers a question, the answer is yes: the gate passed, switch,
    the run completed, every recomputed figure matches."""
    NO = 1
    """The answer is no: a gate check failed, don't switch, the run failed (or ended ERROR or
    CANCELLED on the bake-off queue), a recomputed figure differs."""
    USAGE = 2
    """The command line is wrong, or a write was not confirmed: nothing was sent or changed."""
    UNDECIDED = 3
    """No answer either way yet: the run is not finished or stopped before it finished
    (stalled, cancelled, interrupted), or the evidence is not enough to decide."""
    UNREACHABLE = 4
    """The platform cannot be reached, refuses the key (401/403), or answered something this
    command cannot read."""
    OUTCOME_UNKNOWN = 5
    """A write's answer was lost and a read could not settle it: it may or may not have
    happened (it was not sent again)."""
    NOT_FOUND = 6
    """An unknown id, model, run or archive: nothing was done."""
    REFUSED = 7
    """The platform (or the local store) refused the request: a conflict, no funds, a request
    it cannot do; nothing was done."""
    LOCAL_FILE = 8
    """A local file could not be read or written."""
    SKIPPED_INPUT = 9
    """Done, but some of the input was not read: `report --from` met lines that are not calls
    (counted and said; the report of the other lines is printed)."""
    INTERRUPTED = 130
    """Stopped by ctrl+c (128 + SIGINT)."""
    CLOSED_PIPE = 141
    """The reader closed the pipe early (``| head``): 128 + SIGPIPE, said nowhere."""


SUMMARY = {
    ExitCode.OK: "done; the answer is yes (pass, switch, completed, matches)",
    ExitCode.NO: "the answer is no (a check failed, don't switch, the run failed, a figure differs)",
    ExitCode.USAGE: "bad usage or a write not confirmed (nothing sent)",
    ExitCode.UNDECIDED: "no answer yet (the run is not finished, stalled, cancelled or interrupted; not enough evidence)",
    ExitCode.UNREACHABLE: "the platform unreachable, the key refused, or an answer not understood",
    ExitCode.OUTCOME_UNKNOWN: "a write's outcome is unknown (its answer was lost; not resent)",
    ExitCode.NOT_FOUND: "an unknown id, model, run or archive",
    ExitCode.REFUSED: "the platform refused the request (a conflict, no funds, a request it cannot do)",
    ExitCode.LOCAL_FILE: "a local file could not be read or written",
    ExitCode.SKIPPED_INPUT: "done, but some input lines were not calls (report --from)",
    ExitCode.INTERRUPTED: "interrupted (ctrl+c)",
    ExitCode.CLOSED_PIPE: "the reader closed the pipe early (| head)",
}
"""One line per code, for `--help` and docs/commands.md."""


def describe_exit_codes() -> str:
    """The codes as `blah-tui --help` lists them."""
    return "exit codes (every command):\n" + "\n".join(f"  {int(code):<4} {SUMMARY[code]}" for code in ExitCode)
