"""What every `blah-tui` parser shares: a wrong command line is one clear line on stderr and
exit 2 (argparse's default prints the whole usage block first), and flag values checked where
they are read (a negative speed, a port past 65535: never a traceback later)."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

from cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

N = TypeVar("N", int, float)
EXIT_USAGE = ExitCode.USAGE


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line: ``PROG: MESSAGE (PROG --help)``.
    Its subparsers are of the same class (argparse makes them with ``type(self)``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        """As argparse's, except that a closed pipe (``--help | head -1``) is not swallowed:
        it ends the program as every command ends then (141, :mod:`cli.main`)."""
        (file or sys.stdout).write(self.format_help())


def _checked(text: str, convert: Callable[[str], N], kind: str, accept: Callable[[N], bool], outside: str) -> N:
    """``text`` read by ``convert``: "TEXT is not KIND" when it cannot be read, ``outside``
    when ``accept`` refuses the value (both one line, argparse's "invalid value" errors)."""
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
    if not accept(value):
        raise argparse.ArgumentTypeError(outside)
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (``--speed``)."""
    return _checked(
        text, float, "a number", lambda value: math.isfinite(value) and value > 0, f"{text!r} must be a number above 0"
    )


def finite_float(text: str) -> float:
    """Any finite number (a planning figure: a rate, a margin, a price)."""
    return _checked(text, float, "a number", math.isfinite, f"{text!r} is not a finite number")


def unit_rate(text: str) -> float:
    """A rate 0..1, not a percent (a gate's threshold, a noninferiority margin)."""
    return _checked(
        text, float, "a number", lambda value: 0.0 <= value <= 1.0, f"{text} is outside 0..1 (a rate: 0.55, not 55)"
    )


def positive_int(text: str) -> int:
    """A whole number above 0 (``--limit``)."""
    return _checked(text, int, "a whole number", lambda value: value >= 1, f"{text!r} must be 1 or more")


def port_number(text: str) -> int:
    """A TCP port, 1-65535."""
    return _checked(
        text, int, "a port number", lambda value: 1 <= value <= 65535, f"{text!r} is not a port number (1-65535)"
    )


def chosen_parsers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[argparse.ArgumentParser]:
    """``parser`` and the action parsers ``args`` went through (`bakeoff`, then `bakeoff gate`),
    outermost first: which parser a parsed command line ended in."""
    path = [parser]
    while True:
        here = path[-1]
        actions = [a for a in here._actions if isinstance(a, argparse._SubParsersAction)]
        name = getattr(args, actions[0].dest, None) if actions and actions[0].dest != argparse.SUPPRESS else None
        if not actions or name not in actions[0].choices:
            return path
        path.append(actions[0].choices[name])


def describe_subcommands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser] | argparse._SubParsersAction[OneLineParser],
) -> None:
    """`blah-tui COMMAND --help` (and `blah-tui profiles ACTION --help`) opens with the same
    sentence the parent's --help lists it with."""
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, subparser in sub.choices.items():
        said = helps.get(name)
        if subparser.description is None and said:
            subparser.description = f"{said[0].upper()}{said[1:]}."
