"""The command tree of `blah-tui`: every command, what it is for, which global options it
takes, and where its parser and its code live. The one router (:mod:`cli.main`) reads this
table; nothing of a command is imported until it runs (or until the whole tree is asked for:
completion, the command reference, the tests).

Each command's module has ``build_parser()`` (its parser; ``prog`` is ``blah-tui NAME``) and
``run(argv, given)`` (its exit code; ``given``: the global options typed before the command).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from cli.global_options import CONNECTION, JSON
from cli.parsing import OneLineParser

__all__ = ["COMMANDS", "Command", "build_parser", "find"]

Entry = Callable[[list[str], argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    module: str
    takes: frozenset[str] = field(default_factory=frozenset)
    """The global options it takes when they are typed before it."""
    verb: bool = False
    """A blah.dev verb: the options it cannot take are refused with the verbs' one sentence."""
    suffix: str = ""
    """When one module holds several commands: ``build_parser{suffix}`` and ``run{suffix}``."""

    def entry(self) -> Entry:
        entry: Entry = getattr(importlib.import_module(self.module), f"run{self.suffix}")
        return entry

    def parser(self) -> argparse.ArgumentParser:
        build: Callable[[], argparse.ArgumentParser] = getattr(
            importlib.import_module(self.module), f"build_parser{self.suffix}"
        )
        return build()


_PLATFORM = frozenset({"--base-url", "--profile", JSON})
_BLAH = frozenset({*CONNECTION, JSON})

COMMANDS: tuple[Command, ...] = (
    # blah.dev
    Command(
        "runs",
        "blah.dev eval runs: list, show, results, start, watch, resume, cancel",
        "cli.blah.runs",
        _BLAH,
        verb=True,
    ),
    Command(
        "leaderboard",
        "the blah.dev leaderboard, best first, each model's change since its previous run",
        "cli.blah.standings",
        _BLAH,
        verb=True,
        suffix="_leaderboard",
    ),
    Command(
        "compare",
        "the same evals answered by two or three models: compare A B [C]",
        "cli.blah.standings",
        _BLAH,
        verb=True,
        suffix="_compare",
    ),
    Command(
        "health",
        "a model's recent health checks: health MODEL",
        "cli.blah.standings",
        _BLAH,
        verb=True,
        suffix="_health",
    ),
    Command(
        "chatroom", "the chatroom: read (--follow tails it), post, mute, unmute", "cli.blah.chatroom", _BLAH, verb=True
    ),
    Command(
        "export",
        "download a model's whole call history as JSONL",
        "cli.blah.command",
        frozenset(CONNECTION),
        suffix="_export",
    ),
    Command("report", "print the blunt diagnosis report of a model (markdown)", "cli.blah.report.command", _BLAH),
    # the other platforms
    Command(
        "blobfish",
        "SDK evaluations on Blobfish: evals, show, export, publish, search",
        "cli.blobfish.command",
        _PLATFORM,
    ),
    Command(
        "bench",
        "Blobfish benchmark runs and the community board: run, runs, submit, board, delete",
        "cli.bench.command",
        _PLATFORM,
    ),
    Command(
        "bakeoff",
        "bake-offs on the errorbar eval-run queue: list, show, create, watch, cancel, samples, "
        "compare, gate, screen, plan, verdict, evidence, verify, labels, label, criteria, criterion, align, "
        "clusters, delete",
        "cli.bakeoff.command",
        _PLATFORM,
    ),
    # this machine
    Command(
        "profiles",
        "list, add, choose or remove platform profiles ([profiles.NAME] in the config)",
        "cli.local.command",
        frozenset({"--profile"}),
        suffix="_profiles",
    ),
    Command(
        "login",
        "store the API key (read from standard input, never echoed) for later runs",
        "cli.local.command",
        frozenset({"--profile"}),
        suffix="_login",
    ),
    Command("logout", "forget the stored API key", "cli.local.command", frozenset({"--profile"}), suffix="_logout"),
    Command(
        "status",
        "where each profile's API key comes from (never the key) and which config file is read",
        "cli.local.command",
        frozenset({"--profile"}),
        suffix="_status",
    ),
    Command("config", "show or change settings", "cli.local.command", suffix="_config"),
    Command(
        "archives",
        "list the local archives of calls (one per model and platform) or delete some",
        "cli.local.command",
        suffix="_archives",
    ),
    # the app
    Command("open", "browse a saved JSONL dump offline", "cli.app.command", frozenset({"--model"}), suffix="_open"),
    Command(
        "serve",
        "serve the app to a web browser (textual-serve); one app per browser tab",
        "cli.app.command",
        frozenset({"--profile", "--base-url", "--api-key", "--model", "--demo", "--log", "--speed", "--seed"}),
        suffix="_serve",
    ),
    Command(
        "sim",
        "run a local simulator in the foreground (blah.dev; --platform blobfish|errorbar|all)",
        "cli.app.command",
        frozenset({"--speed", "--seed"}),
        suffix="_sim",
    ),
    Command("completion", "print the shell completion script: completion bash|zsh|fish", "cli.completion"),
)
BY_NAME = {command.name: command for command in COMMANDS}


def find(name: str | None) -> Command | None:
    return BY_NAME.get(name) if name else None


EPILOG = """\
in the app:
  ?            the keys of the current screen and what the badges mean
  : or ctrl+p  command palette: screens, actions, settings; jump to a model, run, call or message
  1 … 0        switch area (Logs, Diagnosis, Runs, Leaderboard, Chatroom, Models, Compare,
               Health, Playground, Games); j/k, g/G, / and esc work as in other terminal apps

settings:
  a TOML file (`blah-tui config path`; $BLAH_TUI_CONFIG names another), overridden by
  BLAH_<SETTING> environment variables (BLAH_THEME, BLAH_POLL_INTERVAL, ...); command-line
  options win over both. `blah-tui config show` prints the effective settings.

profiles:
  [profiles.NAME] tables in the config name a platform (blah, blobfish, errorbar) and its address;
  --profile NAME picks one, `blah-tui profiles use NAME` sets the default. No profiles: blah.dev.

API key: --api-key, then the platform's variable ($EVALS_BLAH_API_KEY, $BLOBFISH_API_KEY,
$ERRORBAR_API_KEY), then the key stored by `blah-tui login [--profile NAME]`.

global options (--profile, --base-url, --api-key, ..., --json) may come before the command or after it;
--json only where the command's --help lists it (elsewhere it is refused, exit 2).
shell completion: `blah-tui completion bash|zsh|fish` prints the script (docs/commands.md).

"""


def version() -> str:
    from importlib.metadata import (  # here: `bakeoff gate` starts without it
        PackageNotFoundError,
    )
    from importlib.metadata import version as installed

    try:
        return installed("blah-tui")
    except PackageNotFoundError:  # running from a source tree
        return "0+unknown"


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (``importlib.metadata``
    and the distribution scan were ~30 ms CPU of every command's start, ``export`` too)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show program's version number and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from diagnosis.compiled import describe_scan_path  # (issue 39: which path diagnosis's scans take, and why)

        sys.stdout.write(f"blah-tui {version()}\n{describe_scan_path()}\n")
        parser.exit()


def root_parser() -> tuple[OneLineParser, argparse._SubParsersAction[OneLineParser]]:
    """The app's own parser (``blah-tui`` with no command) listing every command by its one
    line of help: cheap, no command is imported. Its commands are placeholders until
    :func:`build_parser` puts each one's real parser there."""
    from cli.exit_codes import describe_exit_codes
    from cli.global_options import add_global_options

    parser = OneLineParser(
        prog="blah-tui",
        description="Tail, search and diagnose a language model's calls on blah.dev. With no subcommand, "
        "opens the app.",
        epilog=EPILOG + describe_exit_codes(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    add_global_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        sub.add_parser(command.name, help=command.help, add_help=False)
    return parser, sub


def build_parser() -> argparse.ArgumentParser:
    """The whole tree as one parser: the app's options and every command's own parser under it
    (each command's module is imported). For completion, the command reference and tests; a
    command line is routed by :mod:`cli.main` without building it."""
    parser, sub = root_parser()
    for command in COMMANDS:
        own = command.parser()
        if own.description is None:
            own.description = f"{command.help[0].upper()}{command.help[1:]}."
        sub.choices[command.name] = own  # type: ignore[assignment]  # a command's parser need not be a OneLineParser (sim's is not)
    return parser
