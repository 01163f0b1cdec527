"""Every exit code of `blah-tui`, each with one meaning in every command.

Answers and errors never share a code: a script that reads 1 as "don't switch" or "the check
failed" can trust that no typo, unknown id, unreachable platform or refusal ends with 1.

- Answers (the command did its job; the code *is* the answer): 0 yes or done, 1 no,
  3 no answer either way yet, 10 stopped early because decided.
- Errors (the command could not answer): 2, 4-8.
- 130 and 141 are the shell's own (a signal ended it).

Codes 11-19 are free: a new meaning gets a new number here, never a number already listed.
The codes that changed when they were unified are in :data:`CHANGED` (docs/commands.md lists
them).
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
    """A local file could not be read or written (a file that can be read but is not what the
    command reads is usage, 2: the wrong file was named)."""
    SKIPPED_INPUT = 9
    """Done, but some of the input was not read: `report --from` met lines that are not calls
    (counted and said; the report of the other lines is printed)."""
    STOPPED_DECIDED = 10
    """An answer: `bakeoff watch --stop-when-decided` cancelled the rest of a run whose samples
    had already settled the verdict (the verdict and the saving are printed)."""
    INTERRUPTED = 130
    """Stopped by ctrl+c (128 + SIGINT)."""
    CLOSED_PIPE = 141
    """The reader closed the pipe early (``| head``): 128 + SIGPIPE, said nowhere."""


SUMMARY = {
    ExitCode.OK: "done; the answer is yes (pass, switch, completed, matches)",
    ExitCode.NO: "the answer is no (a check failed, don't switch, the run failed, a figure differs)",
    ExitCode.USAGE: "bad usage or a write not confirmed (nothing sent)",
    ExitCode.UNDECIDED: (
        "no answer yet (the run is not finished, stalled, cancelled or interrupted; not enough evidence)"
    ),
    ExitCode.UNREACHABLE: "the platform unreachable, the key refused, or an answer not understood",
    ExitCode.OUTCOME_UNKNOWN: "a write's outcome is unknown (its answer was lost; not resent)",
    ExitCode.NOT_FOUND: "an unknown id, model, run or archive",
    ExitCode.REFUSED: "the platform refused the request (a conflict, no funds, a request it cannot do)",
    ExitCode.LOCAL_FILE: "a local file could not be read or written (the wrong kind of file: 2)",
    ExitCode.SKIPPED_INPUT: "done, but some input lines were not calls (report --from)",
    ExitCode.STOPPED_DECIDED: (
        "stopped early, decided: the rest of a settled bake-off cancelled (bakeoff watch --stop-when-decided)"
    ),
    ExitCode.INTERRUPTED: "interrupted (ctrl+c)",
    ExitCode.CLOSED_PIPE: "the reader closed the pipe early (| head)",
}
"""One line per code, for `--help` and docs/commands.md."""


def describe_exit_codes() -> str:
    """The codes as `blah-tui --help` lists them."""
    return "exit codes (every command):\n" + "\n".join(f"  {int(code):<4} {SUMMARY[code]}" for code in ExitCode)


CHANGED = (
    (
        "an unknown id or model (404): runs, leaderboard, compare, health, chatroom, bakeoff, bench, blobfish, export",
        "1",
        "6",
    ),
    ("an unknown model: report (and report --compare)", "2", "6"),
    ("no local archive of the model: report --offline", "1", "6"),
    ("no archive of a model named: archives prune", "1", "6"),
    ("the platform refused (409 conflict, 402 no funds, 400/412/422): every platform command", "1", "7"),
    ("a write's answer lost: bakeoff create, bakeoff screen", "4", "5"),
    ("a key without the role (403): bakeoff create, cancel, delete, align, clusters", "1", "4"),
    ("the platform unreachable: report, export", "1", "4"),
    ("a server error (5xx) or rate limit: export, runs and the other platform commands", "1", "4"),
    (
        "a file that cannot be read or written: report --from/--offline, export -o, blobfish export, bakeoff evidence",
        "1",
        "8",
    ),
    ("a file that cannot be read: bakeoff verify, bakeoff create --from, blobfish publish", "2", "8"),
    ("a file that is not a dump of calls: report --from", "1", "2"),
    ("a directory given as the output file: export -o DIR", "1", "2"),
    ("report --from with lines that are not calls", "3", "9"),
    ("archives prune not confirmed", "1", "2"),
    ("the reader closed the pipe early: runs, leaderboard, compare, health, chatroom", "0", "141"),
    ("the reader closed the pipe early: export", "1", "141"),
    ("the reader closed the pipe early: --help", "0", "141"),
)
"""(what, the code before, the code now) for every case whose code changed when the codes
were unified (issue 41, item 8); every other code is as it was."""
