"""What the platform commands (`blobfish`, `bench`, `bakeoff`) share to refuse and to confirm:
one error carrying its exit code, the one way a write is confirmed, and the one line a
failure is said in."""

from __future__ import annotations

from typing import TextIO

from api_client.errors import BlahError
from common.plain_text import one_line

EXIT_USAGE = 2
"""Bad usage, or a write not confirmed: nothing was sent."""


class CommandError(Exception):
    """One line for standard error, and the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def confirm(question: str, yes: bool, stdin: TextIO, err: TextIO) -> None:
    """A write goes ahead with ``--yes``, or after "y" on a terminal; else nothing is sent
    (:class:`CommandError` with :data:`EXIT_USAGE`)."""
    if yes:
        return
    if not stdin.isatty():
        raise CommandError(f"{question.rstrip('?')}: not on a terminal, so add --yes to confirm; nothing was sent",
                           EXIT_USAGE)
    err.write(f"{question} [y/N] ")
    err.flush()
    if stdin.readline().strip().lower() not in ("y", "yes"):
        raise CommandError("not confirmed; nothing was sent", EXIT_USAGE)


def error_line(error: BaseException) -> str:
    """A platform's refusal as "HTTP STATUS: message" (the message alone when no answer came);
    any other error as its own words."""
    if isinstance(error, BlahError):
        return f"HTTP {error.status}: {error.message}" if error.status is not None else error.message
    return str(error)


def fail(prog: str, message: str, code: int, err: TextIO) -> int:
    """Say ``message`` on one line of ``err`` (inert, at most 600 characters) after ``prog``;
    ``code`` back, for the command to return."""
    err.write(f"{prog}: {one_line(message, 600)}\n")
    return code
