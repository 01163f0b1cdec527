"""What every command shares to refuse and to confirm: one error carrying its exit code, the
one way a write is confirmed, the one line a failure is said in, and the one mapping of a
platform's error to an exit code (:func:`exit_for`)."""

from __future__ import annotations

from typing import TextIO

from api_client.errors import (
    AuthError,
    BlahError,
    InvalidResponseError,
    MissingKeyError,
    NotFoundError,
    OutcomeUnknownError,
    RateLimitedError,
    ServerError,
    UnreachableError,
    UnsafePathError,
)
from cli.exit_codes import ExitCode
from common.safe_strings import clip

EXIT_USAGE = ExitCode.USAGE
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
        raise CommandError(
            f"{question.rstrip('?')}: not on a terminal, so add --yes to confirm; nothing was sent", EXIT_USAGE
        )
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
    err.write(f"{prog}: {clip(message, 600)}\n")
    return code


def exit_for(error: BaseException) -> ExitCode:
    """The exit code of a platform's error, the same in every command: a key or address refused
    before sending is usage; unreachable, a refused key, a server error or an answer not
    understood is UNREACHABLE; an unknown id NOT_FOUND; a lost answer OUTCOME_UNKNOWN; any other refusal
    REFUSED."""
    from api_client.errorbar.errors import (
        CreateOutcomeUnknown,
        KeyShapeError,
        RefusedLocally,
    )

    if isinstance(error, (MissingKeyError, UnsafePathError, KeyShapeError, RefusedLocally)):
        return ExitCode.USAGE
    if isinstance(
        error, (AuthError, UnreachableError, InvalidResponseError, ServerError, RateLimitedError, TimeoutError)
    ):
        return ExitCode.UNREACHABLE
    if isinstance(error, NotFoundError):
        return ExitCode.NOT_FOUND
    if isinstance(error, (OutcomeUnknownError, CreateOutcomeUnknown)):
        return ExitCode.OUTCOME_UNKNOWN
    return ExitCode.REFUSED
