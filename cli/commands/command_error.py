"""What the platform commands (`blobfish`, `bench`, `bakeoff`) share to refuse and to confirm:
one error carrying its exit code, and the one way a write is confirmed."""

from __future__ import annotations

from typing import TextIO

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
