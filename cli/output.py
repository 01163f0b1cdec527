"""What every command prints with: aligned plain tables, ``--json`` documents, one cell of
untrusted text, and the one way a command ends when its reader closes the pipe early.

Untrusted text (names, answers, judge reasoning, board rows) goes through the one cleaner,
:mod:`common.safe_strings` (:func:`cell` and ``clip`` on one line, ``sanitize`` for a block):
controls, bidi and other format characters are shown in the app's notation (``^[``, ``\\x9b``,
``<U+202E>``), so nothing the platform sends can drive the terminal. A ``--json`` document is made inert the
JSON way (``\\uXXXX`` escapes), so it decodes to the same values, verbatim. A value the platform
did not send is the dash, never 0.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Collection, Sequence
from typing import Any, TextIO

from cli.exit_codes import ExitCode
from common.format import DASH
from common.safe_strings import clip, inert_json

__all__ = [
    "DASH",
    "cell",
    "draws_progress",
    "end_quietly_on_closed_pipe",
    "inert_json",
    "number",
    "print_json",
    "table",
    "table_or_none",
]


def print_json(value: Any, out: TextIO) -> None:
    """``value`` as indented JSON, every unsafe character written as an escape."""
    out.write(inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def cell(value: object, width: int = 40) -> str:
    """One table cell: the dash for nothing, else the value on one inert line of at most
    ``width`` characters."""
    if value is None or value == "":
        return DASH
    return clip(str(value), width)


def number(value: float | int | None, digits: int = 2) -> str:
    """A whole number as it is, any other with ``digits`` decimals; the dash for nothing."""
    if value is None:
        return DASH
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO, numeric: Collection[int] = ()) -> None:
    """Columns padded to their widest cell (two spaces apart), the ``numeric`` ones aligned
    right; no trailing spaces."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    for cells in (headers, *rows):
        parts = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        out.write("  ".join(parts).rstrip() + "\n")


def table_or_none(
    headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO, *, none: str, numeric: Collection[int] = ()
) -> None:
    """The :func:`table` of ``rows``; with no rows, the line ``none`` (what there is none of) instead."""
    if not rows:
        out.write(none + "\n")
        return
    table(headers, rows, out, numeric)


def draws_progress(stream: TextIO | None = None) -> bool:
    """Whether a progress bar or a live line may be drawn on ``stream`` (standard error by
    default): only on a terminal. Piped or redirected, progress is never written."""
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def end_quietly_on_closed_pipe() -> int:
    """The reader went away (``| head``): point stdout at /dev/null so the interpreter's last
    flush does not complain, and end as Unix tools do, without a word: 141 (128 + SIGPIPE),
    for every command."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test's capture)
        pass
    return ExitCode.CLOSED_PIPE
