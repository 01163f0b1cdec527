"""The options `blah-tui` takes before any command, declared once.

``blah-tui --base-url URL report M`` and ``blah-tui report M --base-url URL`` mean the same:
the options given before the command are read into a namespace (:func:`split`), and the
command's own parser starts from that namespace, so its copy of an option (declared with
:func:`add_global_options`, default SUPPRESS) wins when given and never undoes one given
before it. An option given before a command that does not use it is refused in one line
(:func:`refuse_unused`), so none is silently dropped (as ``report`` once dropped ``--base-url``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from cli.parsing import OneLineParser, chosen_parsers, positive_float
from common.constants import DEFAULT_BASE_URL

__all__ = [
    "GLOBAL_OPTIONS",
    "GlobalOption",
    "Refused",
    "add_global_options",
    "add_json_option",
    "as_flags",
    "parse_command",
    "platform_command_parser",
    "refuse_unused",
    "split",
    "starting_from",
]


@dataclass(frozen=True)
class GlobalOption:
    flag: str
    help: str
    metavar: str | None = None
    type: Callable[[str], Any] | None = None
    switch: bool = False
    """A flag without a value (``--demo``)."""

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


GLOBAL_OPTIONS = (
    GlobalOption("--profile", "the profile to use ([profiles.NAME] in the config; default: default_profile)", "NAME"),
    GlobalOption("--base-url", f"the platform's origin (default: the profile's, else {DEFAULT_BASE_URL})"),
    GlobalOption(
        "--api-key", "API key (default: the platform's variable, e.g. $EVALS_BLAH_API_KEY, then the stored key)"
    ),
    GlobalOption("--model", "the model the app is about"),
    GlobalOption("--demo", "start a local simulated blah.dev and open the app on its demo model", switch=True),
    GlobalOption("--log", "open one call in the inspector on start", "LOG_ID"),
    GlobalOption("--speed", "with --demo: how fast simulated time runs (default 1)", type=positive_float),
    GlobalOption("--seed", "with --demo: the simulated world's seed (default 7)", type=int),
    GlobalOption(
        "--json", "JSON instead of text, for a command with a JSON form (its --help lists --json)", switch=True
    ),
)
BY_FLAG = {option.flag: option for option in GLOBAL_OPTIONS}
CONNECTION = ("--profile", "--base-url", "--api-key")
"""What a command that talks to blah.dev takes (export, report, the verbs)."""
JSON = "--json"
"""Taken by a command where at least one of its actions has a JSON form (:func:`add_json_option`)."""


class _NotThisShape(Exception):
    pass


class _Quiet(argparse.ArgumentParser):
    """Says nothing of a mistake: the app's parser reads the command line again and says it."""

    def error(self, message: str) -> NoReturn:
        raise _NotThisShape(message)


class Refused(Exception):
    """A command line refused before the command's parser ran (one line, exit 2)."""


def add_global_options(
    parser: argparse.ArgumentParser, flags: Iterable[str] | None = None, *, helps: dict[str, str] | None = None
) -> None:
    """Declare the global options ``flags`` (all by default) on ``parser``: default SUPPRESS,
    so a command's unset copy never undoes the value given before the command."""
    for flag in flags if flags is not None else BY_FLAG:
        option = BY_FLAG[flag]
        said = (helps or {}).get(flag, option.help)
        if option.switch:
            parser.add_argument(flag, action="store_true", default=argparse.SUPPRESS, help=said)
        else:
            convert: Callable[[str], Any] = option.type if option.type is not None else str
            parser.add_argument(flag, metavar=option.metavar, type=convert, default=argparse.SUPPRESS, help=said)


def add_json_option(parser: argparse.ArgumentParser, help: str = "JSON instead of text") -> None:
    """``--json`` on a parser (a command or one of its actions) that has a JSON form: the global
    option's one declaration (default SUPPRESS, so ``blah-tui --json bakeoff gate`` and
    ``blah-tui bakeoff gate --json`` mean the same; :func:`parse_command` reads it)."""
    add_global_options(parser, (JSON,), helps={JSON: help})


def split(argv: Sequence[str]) -> tuple[argparse.Namespace, str | None, list[str]] | None:
    """``[GLOBAL ...] COMMAND REST...`` -> (the globals given, COMMAND, REST); None when the
    command line is not of that shape (a bad value, an unknown option, ``--help``): the app's
    parser reads it then and says what is wrong."""
    pre = _Quiet(prog="blah-tui", add_help=False, allow_abbrev=False)
    add_global_options(pre)
    pre.add_argument("command", nargs="?")
    pre.add_argument("rest", nargs=argparse.REMAINDER)
    try:
        given, unknown = pre.parse_known_args(list(argv))
    except _NotThisShape:
        return None
    if unknown:
        return None
    command, rest = given.command, given.rest
    del given.command, given.rest
    return given, command, list(rest)


def given_flags(given: argparse.Namespace) -> list[str]:
    return [option.flag for option in GLOBAL_OPTIONS if hasattr(given, option.dest)]


def refuse_unused(command: str, takes: frozenset[str], given: argparse.Namespace, *, verb: bool = False) -> None:
    """Raise :class:`Refused` when an option given before ``command`` is not one it takes."""
    for flag in given_flags(given):
        if flag in takes:
            continue
        if flag == JSON:
            raise Refused(f"--json: `{command}` has no JSON form; nothing was done")
        if verb:
            raise Refused(
                f"only --base-url, --api-key, --profile and --json apply to `{command}`; "
                f"see `blah-tui {command} --help`"
            )
        value = "" if BY_FLAG[flag].switch or flag == "--api-key" else f" {getattr(given, BY_FLAG[flag].dest)}"
        hint = " (its key comes from the platform's variable, e.g. $BLOBFISH_API_KEY)" if flag == "--api-key" else ""
        raise Refused(f"{flag}{value} was given before `{command}`, which does not use it{hint}; nothing was done")


def as_flags(given: argparse.Namespace) -> list[str]:
    """The globals given, written back as flags (for a program with a parser of its own: `sim`)."""
    flags: list[str] = []
    for flag in given_flags(given):
        value = getattr(given, BY_FLAG[flag].dest)
        flags += [flag] if BY_FLAG[flag].switch else [flag, str(value)]
    return flags


def starting_from(given: argparse.Namespace | None) -> argparse.Namespace:
    """A fresh namespace holding the options typed before the command: what the command's own
    parser starts from (its copy of an option given again wins)."""
    return argparse.Namespace(**vars(given)) if given is not None else argparse.Namespace()


def parse_command(
    parser: argparse.ArgumentParser, argv: Sequence[str], given: argparse.Namespace | None
) -> argparse.Namespace:
    """A command's command line read by its ``parser``, starting from the options typed before
    it (:func:`starting_from`). ``--json`` given to an action without a JSON form is refused in
    one line (exit 2) rather than silently printing text; ``args.json`` is False when not given."""
    args, unknown = parser.parse_known_args(list(argv), namespace=starting_from(given))  # --help ends here
    chosen = chosen_parsers(parser, args)
    if (JSON in unknown or getattr(args, "json", False)) and not any(_takes_json(one) for one in chosen):
        chosen[-1].error("--json: this has no JSON form")  # before or after the command alike
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")  # as parse_args says it
    if not hasattr(args, "json"):
        args.json = False
    return args


def _takes_json(parser: argparse.ArgumentParser) -> bool:
    return any(JSON in action.option_strings for action in parser._actions)


def platform_command_parser(
    prog: str,
    description: str,
    *,
    dest: str,
    base_url_help: str,
    profile_help: str,
    listed: bool = False,
) -> tuple[OneLineParser, argparse._SubParsersAction[OneLineParser], OneLineParser]:
    """A platform's command (`bench`, `bakeoff`, `blobfish`): the parser, its actions (``dest``)
    and the parent every action takes. ``--base-url`` and ``--profile`` are accepted before the
    action or after it; the action's copy does not reset a value given before it (SUPPRESS).
    ``listed``: the options before the action are listed in ``--help`` too."""
    flags = ("--base-url", "--profile")
    connection = OneLineParser(add_help=False)  # a parent: its arguments are copied
    add_global_options(connection, flags, helps={"--base-url": base_url_help, "--profile": profile_help})
    parser = OneLineParser(prog=prog, description=description)
    hidden = (
        {"--base-url": base_url_help, "--profile": profile_help} if listed else dict.fromkeys(flags, argparse.SUPPRESS)
    )
    add_global_options(parser, flags, helps=hidden)
    parser.set_defaults(base_url=None, profile=None)  # the command's own parser, not an action's: no value is undone
    sub = parser.add_subparsers(dest=dest, metavar="ACTION", required=True)
    return parser, sub, connection
