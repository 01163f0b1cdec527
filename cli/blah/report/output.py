"""What every `blah-tui report` form writes: one inert line on standard error for a failure,
and the report made inert for a terminal (no control character other than newline and tab).
Used by the platform report, ``--compare`` and ``--offline`` / ``--from``; kept apart from them
so the local forms (report_local.py) use it without importing the platform's client. No
Textual import."""

from __future__ import annotations

from typing import TextIO

from common.safe_strings import sanitize

__all__ = ["fail", "write_inert"]


def fail(message: str, code: int, err: TextIO) -> int:
    """Say ``message`` on one line of ``err``; return the exit code ``code``."""
    err.write(f"blah-tui report: {sanitize(message, keep_newlines=False)}\n")
    return code


def write_inert(out: TextIO, text: str) -> None:
    out.write(sanitize(text, keep_newlines=True))
    out.flush()
