"""What every `blah-tui` parser shares: a wrong command line is one clear line on stderr and
exit 2 (argparse's default prints the whole usage block first), flag values checked where they
are read (a negative speed, a port past 65535: never a traceback later), and a reader that
closes the pipe early (`blah-tui blobfish evals | head -1`) ending the command quietly."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import NoReturn

EXIT_USAGE = 2
EXIT_CLOSED_PIPE = 141
"""128 + SIGPIPE: what `seq 1000000 | head -1` leaves for `seq`, said nowhere."""


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line: ``PROG: MESSAGE (PROG --help)``.
    Its subparsers are of the same class (argparse makes them with ``type(self)``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def positive_float(text: str) -> float:
    """A finite number above 0 (``--speed``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number above 0")
    return value


def positive_int(text: str) -> int:
    """A whole number above 0 (``--limit``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return value


def port_number(text: str) -> int:
    """A TCP port, 1-65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1-65535)")
    return value


def end_quietly_on_closed_pipe() -> int:
    """The reader went away (``| head``): point stdout at /dev/null so the interpreter's last
    flush does not complain, and end as Unix tools do, without a word."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (a test's capture)
        pass
    return EXIT_CLOSED_PIPE
