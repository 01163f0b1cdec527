"""What the blah.dev verbs (`runs`, `leaderboard`, `compare`, `health`, `chatroom`) share: the
connection from the global options, the exit codes, the one line on stderr, inert output.

Exit codes: :class:`cli.exit_codes.ExitCode` (0 done, ``runs watch``: the run completed; 1
the run failed; 2 bad usage or not confirmed; 3 the run stalled or was cancelled; 4
unreachable or the key refused; 5 outcome unknown; 6 an unknown run or model; 7 the platform
refused, a conflict such as resuming a running run).

Global options reach every verb: ``blah-tui --base-url URL --api-key KEY --profile NAME runs
list`` and ``blah-tui runs list --base-url URL`` mean the same (the verb's own wins).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from api_client.errors import (
    BlahError,
    MissingKeyError,
    NotFoundError,
    UnreachableError,
)
from cli.connection import Connection
from cli.errors import CommandError, confirm, exit_for  # noqa: F401  (the verbs' one confirmation and mapping of an error to its code)
from cli.exit_codes import ExitCode
from cli.output import end_quietly_on_closed_pipe
from cli.parsing import OneLineParser
from common.format import DASH, format_utc
from common.safe_strings import clip

if TYPE_CHECKING:
    from application.session.profiles.resolve import ResolvedProfile

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_STOPPED, EXIT_UNREACHABLE, EXIT_UNKNOWN = (
    ExitCode.OK,
    ExitCode.NO,
    ExitCode.USAGE,
    ExitCode.UNDECIDED,
    ExitCode.UNREACHABLE,
    ExitCode.OUTCOME_UNKNOWN,
)

EXIT_CODES_HELP = "exit codes: see `blah-tui --help`"


VerbError = CommandError
"""A verb's one line for standard error and its exit code: the commands' one error."""


@dataclass(frozen=True)
class GlobalOptions:
    """``--base-url``, ``--api-key``, ``--profile`` and ``--json`` given before the verb."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    profile: str | None = None
    json: bool = False

    @classmethod
    def of(cls, given: argparse.Namespace) -> GlobalOptions:
        """The ones typed before the verb (:func:`cli.global_options.split`)."""
        return cls(
            getattr(given, "base_url", None),
            getattr(given, "api_key", None),
            getattr(given, "profile", None),
            getattr(given, "json", False),
        )

    def before(self) -> argparse.Namespace:
        """As the namespace the verb's parser starts from (:func:`cli.global_options.parse_command`)."""
        given = {"base_url": self.base_url, "api_key": self.api_key, "profile": self.profile, "json": self.json or None}
        return argparse.Namespace(**{dest: value for dest, value in given.items() if value is not None})


def add_connection_args(parser: argparse.ArgumentParser) -> None:
    """The global options, accepted after the verb too (their one declaration,
    :func:`cli.global_options.add_global_options`: unset does not undo a global)."""
    from cli.global_options import add_global_options

    add_global_options(
        parser,
        ("--base-url", "--api-key", "--profile"),
        helps={
            "--base-url": "the platform's origin",
            "--api-key": "API key (default $EVALS_BLAH_API_KEY, then the stored key)",
            "--profile": "a blah.dev profile",
        },
    )


def connection_parent() -> OneLineParser:
    """The connection options as a parent parser (of the class the verbs' subparsers are)."""
    parent = OneLineParser(add_help=False)
    add_connection_args(parent)
    return parent


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
        profile = resolve_profile(
            getattr(args, "profile", None) or globals_.profile,
            platform="blah",
            base_url_flag=base_url,
            key_flag=getattr(args, "api_key", None) or globals_.api_key,
        )
    except ProfileError as error:
        raise VerbError(str(error), EXIT_USAGE) from None
    if profile.key_problem:
        err.write(f"blah-tui: {clip(profile.key_problem, 300)}; going on without a key\n")
    return Connection(profile.origin, profile.api_key, profile.key_source, profile.label)


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


def when(value: int | str | None) -> str:
    if value is None:
        return DASH
    if isinstance(value, str):
        return clip(value, 40) or DASH
    return format_utc(value)


def run_verb(prog: str, body: Callable[[], int], err: TextIO) -> int:
    """Run a verb: its errors become one line on stderr and their exit code; a closed pipe
    (``| head``) ends quietly."""
    try:
        return body()
    except VerbError as error:
        err.write(f"{prog}: {clip(str(error), 600)}\n")
        return error.code
    except BrokenPipeError:
        return end_quietly_on_closed_pipe()
    except KeyboardInterrupt:
        err.write(f"{prog}: interrupted\n")
        return ExitCode.INTERRUPTED


def blah_profile(args: argparse.Namespace) -> ResolvedProfile | None:
    """The blah.dev profile of a command that works on blah.dev only (export, report): a bad
    ``--base-url`` or profile is said on stderr (None then), a problem with the stored key too."""
    from application.session.base_url import base_url_problem, explain_bad_base_url
    from application.session.profiles.resolve import ProfileError, resolve_profile

    raw: str | None = getattr(args, "base_url", None)
    problem = base_url_problem(raw) if raw is not None else None
    if raw is not None and problem:
        print(f"blah-tui: {explain_bad_base_url(raw, problem)}", file=sys.stderr)
        return None
    try:
        profile = resolve_profile(
            getattr(args, "profile", None), platform="blah", base_url_flag=raw, key_flag=getattr(args, "api_key", None)
        )
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return None
    if profile.key_problem:
        print(f"blah-tui: {profile.key_problem}; going on without a key", file=sys.stderr)
    return profile
