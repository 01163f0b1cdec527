"""What the blah.dev verbs (`runs`, `leaderboard`, `compare`, `health`, `chatroom`) share: the
connection from the global options, the exit codes, the one line on stderr, inert output.

Exit codes (the same for every blah.dev verb, documented in the README):
0 done (``runs watch``: the run completed); 1 the platform said no (an unknown run or model,
a conflict such as resuming a running run) or the run failed; 2 the command line is wrong or
a write was not confirmed: nothing was sent; 3 the run stalled or was cancelled; 4 the
platform cannot be reached, or refuses the key (401/403); 5 a write's answer was lost and a
read could not settle it: outcome unknown (it was not sent again).

Global options reach every verb: ``blah-tui --base-url URL --api-key KEY --profile NAME runs
list`` and ``blah-tui runs list --base-url URL`` mean the same (the verb's own wins).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from api_client.errors import (
    AuthError,
    BlahError,
    MissingKeyError,
    NotFoundError,
    UnreachableError,
    UnsafePathError,
)
from cli.global_options import BLAH_VERBS  # the verbs routed here by cli.main, listed once
from common.format import DASH, format_utc
from common.plain_text import inert_json, one_line

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED, EXIT_UNREACHABLE, EXIT_UNKNOWN = 0, 1, 2, 3, 4, 5

EXIT_CODES_HELP = (
    "exit codes: 0 done (runs watch: completed); 1 the platform said no (an unknown run or model, a "
    "conflict) or the run failed; 2 bad usage or a write not confirmed (nothing sent); 3 the run stalled "
    "or was cancelled; 4 the platform unreachable or the key refused; 5 outcome unknown (not resent)"
)



class VerbError(Exception):
    """One line for standard error, and the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class GlobalOptions:
    """``--base-url``, ``--api-key`` and ``--profile`` given before the verb."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    profile: str | None = None


def add_connection_args(parser: argparse.ArgumentParser) -> None:
    """The global options, accepted after the verb too (SUPPRESS: unset does not undo a global)."""
    parser.add_argument("--base-url", default=argparse.SUPPRESS, help="the platform's origin")
    parser.add_argument("--api-key", default=argparse.SUPPRESS, help="API key (default $EVALS_BLAH_API_KEY, then the stored key)")
    parser.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS, help="a blah.dev profile")


def connection_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    add_connection_args(parent)
    return parent


@dataclass(frozen=True)
class Connection:
    base_url: str
    api_key: str | None = field(repr=False)


def resolve(args: argparse.Namespace, globals_: GlobalOptions, err: TextIO) -> Connection:
    """The blah.dev origin and key: the verb's options, else the global ones, else the profile."""
    from application.session.base_url import base_url_problem, explain_bad_base_url
    from application.session.profiles.resolve import ProfileError, resolve_profile

    base_url = getattr(args, "base_url", None) or globals_.base_url
    if base_url is not None:
        problem = base_url_problem(base_url)
        if problem:
            raise VerbError(explain_bad_base_url(base_url, problem), EXIT_USAGE)
    try:
        profile = resolve_profile(getattr(args, "profile", None) or globals_.profile, platform="blah",
                                  base_url_flag=base_url, key_flag=getattr(args, "api_key", None) or globals_.api_key)
    except ProfileError as error:
        raise VerbError(str(error), EXIT_USAGE) from None
    if profile.key_problem:
        err.write(f"blah-tui: {one_line(profile.key_problem, 300)}; going on without a key\n")
    return Connection(profile.origin, profile.api_key)


def exit_for(error: BlahError) -> int:
    if isinstance(error, (MissingKeyError, UnsafePathError)):
        return EXIT_USAGE
    if isinstance(error, (AuthError, UnreachableError)):
        return EXIT_UNREACHABLE
    return EXIT_FAILED


def describe(error: BlahError, *, what: str | None = None, base_url: str = "") -> str:
    """One line: an unknown ``what`` said as such, else the status and the platform's words."""
    if isinstance(error, NotFoundError) and what:
        return f"the platform at {base_url} does not know {what} (HTTP 404)"
    if isinstance(error, MissingKeyError):
        return f"{error.message}; nothing was sent"
    if isinstance(error, UnreachableError):
        return f"cannot reach the platform at {base_url}: {error.message}"
    status = f"HTTP {error.status}: " if error.status is not None else ""
    return f"{status}{error.message}"


def print_json(value: Any, out: TextIO) -> None:
    out.write(inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def cell(value: object, width: int = 40) -> str:
    if value is None or value == "":
        return DASH
    return one_line(str(value), width)


def number(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return DASH
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def when(value: int | str | None) -> str:
    if value is None:
        return DASH
    if isinstance(value, str):
        return one_line(value, 40) or DASH
    return format_utc(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO, numeric: Sequence[int] = ()) -> None:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(parts).rstrip()

    out.write(line(headers) + "\n")
    for row in rows:
        out.write(line(row) + "\n")


def confirm(question: str, yes: bool, stdin: TextIO, err: TextIO) -> None:
    """A write goes ahead with ``--yes``, or after "y" on a terminal; else nothing is sent."""
    from cli.commands.command_error import CommandError
    from cli.commands.command_error import confirm as ask

    try:
        ask(question, yes, stdin, err)
    except CommandError as error:
        raise VerbError(str(error), error.code) from None


def split_globals(argv: Sequence[str]) -> tuple[GlobalOptions, list[str]] | None:
    """``[--base-url U] [--api-key K] [--profile P] VERB ...`` -> (the globals, ``[VERB, ...]``);
    None when the first word that is not a global option is not one of :data:`BLAH_VERBS` (the
    main parser handles the command line then)."""
    values: dict[str, str] = {}
    names = {"--base-url": "base_url", "--api-key": "api_key", "--profile": "profile"}
    i = 0
    while i < len(argv):
        word = argv[i]
        name, eq, inline = word.partition("=")
        if name in names:
            if eq:
                values[names[name]] = inline
                i += 1
            elif i + 1 < len(argv):
                values[names[name]] = argv[i + 1]
                i += 2
            else:
                return None
            continue
        break
    if i >= len(argv) or argv[i] not in BLAH_VERBS:
        return None
    return GlobalOptions(**values), list(argv[i:])


def run_verb(prog: str, body: Callable[[], int], err: TextIO) -> int:
    """Run a verb: its errors become one line on stderr and their exit code; a closed pipe
    (``| head``) ends quietly."""
    try:
        return body()
    except VerbError as error:
        err.write(f"{prog}: {one_line(str(error), 600)}\n")
        return error.code
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        err.write(f"{prog}: interrupted\n")
        return 130


def _quiet_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
