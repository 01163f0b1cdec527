"""Global options typed before a subcommand (``blah-tui --base-url URL report M``): each is
handed to that subcommand's own parser, which uses it or refuses it in one line, so none is
silently dropped. No parser of the app's is built here; the caller says which options a
command takes."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["BLAH_VERBS", "BLAH_VERB_GLOBALS", "OWN_PARSER_OPTIONS", "Refused", "globals_to_subcommand"]

BLAH_VERBS = ("runs", "leaderboard", "compare", "health", "chatroom")
"""blah.dev from the shell (cli/blah/connection.py routes them; each has its own module)."""


class Refused(Exception):
    """A command line refused before any parser ran (one line, exit 2)."""


_GLOBAL_VALUED = ("--profile", "--base-url", "--api-key", "--model", "--log", "--speed", "--seed")
OWN_PARSER_OPTIONS = {"sim": {"--speed", "--seed"}, "blobfish": {"--base-url", "--profile"},
                      "bench": {"--base-url", "--profile"}, "bakeoff": {"--base-url", "--profile"}}
"""The global options the commands with their own parser (``blah-tui sim ...``) take."""
BLAH_VERB_GLOBALS = {"--base-url", "--api-key", "--profile"}
"""The global options blah.dev's verbs (``runs``, ``leaderboard``, ...) take before or after them."""


def globals_to_subcommand(args_list: list[str], options_of: Callable[[str], set[str] | None]) -> list[str]:
    """``blah-tui --base-url URL report M`` as ``blah-tui report M --base-url URL``: each global
    option given before a subcommand is handed to that subcommand's own parser, which uses it or
    refuses it in one line (so none is silently dropped, as ``report`` once dropped ``--base-url``).
    The app's own command line (no subcommand) is returned as it is. ``options_of(command)``:
    the options a command takes (None: it parses its own and refuses what it cannot use)."""
    pre = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for flag in _GLOBAL_VALUED:
        pre.add_argument(flag, default=argparse.SUPPRESS)
    pre.add_argument("--demo", action="store_true", default=argparse.SUPPRESS)
    pre.add_argument("command", nargs="?")
    pre.add_argument("rest", nargs=argparse.REMAINDER)
    try:
        found, unknown = pre.parse_known_args(args_list)
    except SystemExit:  # an option without its value: the real parser says so
        return args_list
    command = found.command
    given = [flag for flag in ("--demo", *_GLOBAL_VALUED) if hasattr(found, flag.lstrip("-").replace("-", "_"))]
    if command is None or not given or unknown:
        return args_list
    takes = options_of(command)
    for flag in given:
        if command in BLAH_VERBS and flag not in BLAH_VERB_GLOBALS:
            raise Refused(f"only --base-url, --api-key and --profile apply to `{command}`; "
                           f"see `blah-tui {command} --help`")
        if takes is not None and flag not in takes:
            value = "" if flag in ("--demo", "--api-key") else f" {getattr(found, flag.lstrip('-').replace('-', '_'))}"
            hint = " (its key comes from the platform's variable, e.g. $BLOBFISH_API_KEY)" if flag == "--api-key" else ""
            raise Refused(f"{flag}{value} was given before `{command}`, which does not use it{hint}; "
                           f"nothing was done")
    moved: list[str] = []
    for flag in given:
        value = getattr(found, flag.lstrip("-").replace("-", "_"))
        moved += [flag] if flag == "--demo" else [flag, value]
    return [command, *found.rest, *moved]
