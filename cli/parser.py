"""The `blah-tui` command line: the top-level parser, its subcommands and their options
(the commands with parsers of their own, `sim`, `bench`, `bakeoff`, `blobfish` and the blah.dev
verbs, are listed here and parse the rest themselves). :mod:`cli.main` routes what it parses."""

from __future__ import annotations

import argparse
import sys

from cli.global_options import BLAH_VERBS
from cli.parsing import OneLineParser, describe_subcommands, port_number, positive_float
from common.constants import DEFAULT_BASE_URL

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
"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # here: `bakeoff gate` starts without it

    try:
        return version("blah-tui")
    except PackageNotFoundError:  # running from a source tree
        return "0+unknown"


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (``importlib.metadata``
    and the distribution scan were ~30 ms CPU of every command's start, ``export`` too)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")  # fmt: skip

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from diagnosis.compiled import describe_scan_path  # (issue 39: which path diagnosis's scans take, and why)

        parser._print_message(f"blah-tui {_version()}\n{describe_scan_path()}\n", sys.stdout)  # where argparse's own goes
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="blah-tui",
        description=(
            "Tail, search and diagnose a language model's calls on blah.dev. With no subcommand, "
            "opens the app."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    _add_connection_args(parser)
    parser.add_argument("--demo", action="store_true", help="start a local simulated blah.dev and open the app on its demo model")
    parser.add_argument("--log", metavar="LOG_ID", help="open one call in the inspector on start")
    parser.add_argument("--speed", type=positive_float, help="with --demo: how fast simulated time runs (default 1)")
    parser.add_argument("--seed", type=int, help="with --demo: the simulated world's seed (default 7)")

    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sim = sub.add_parser(
        "sim", help="run a local simulator in the foreground (blah.dev; --platform blobfish|all)", add_help=False
    )
    sim.add_argument("sim_args", nargs=argparse.REMAINDER, help="see `blah-tui sim --help`")

    bench = sub.add_parser(
        "bench", help="Blobfish benchmark runs and the community board: run, runs, submit, board, delete",
        add_help=False,
    )
    bench.add_argument("bench_args", nargs=argparse.REMAINDER, help="see `blah-tui bench --help`")

    bakeoff = sub.add_parser(
        "bakeoff", help="bake-offs on the errorbar eval-run queue: list, show, create, watch, cancel, samples, "
        "compare, gate", add_help=False,
    )
    bakeoff.add_argument("bakeoff_args", nargs=argparse.REMAINDER, help="see `blah-tui bakeoff --help`")

    blobfish = sub.add_parser(
        "blobfish", help="SDK evaluations on Blobfish: evals, show, export, publish", add_help=False
    )
    blobfish.add_argument("blobfish_args", nargs=argparse.REMAINDER, help="see `blah-tui blobfish --help`")

    _add_blah_verbs(sub)

    export = sub.add_parser("export", help="download a model's whole call history as JSONL")
    export.add_argument("model_id", metavar="MODEL_ID", help="the model whose calls to download")
    export.add_argument("--source", choices=["eval", "chatroom", "chat", "test"], help="only calls from this source")
    export.add_argument("--errors-only", action="store_true", help="only calls that failed")
    export.add_argument("--since", type=int, metavar="MS", help="only calls newer than this (ms since the epoch)")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    _add_connection_args(export, model=False)

    open_ = sub.add_parser("open", help="browse a saved JSONL dump offline")
    open_.add_argument("file", metavar="FILE.jsonl", help="a dump written by `blah-tui export`")
    open_.add_argument("--model", help="the model the dump is about (default: read from the dump)")

    report = sub.add_parser("report", help="print the blunt diagnosis report of a model (markdown)")
    report.add_argument("model_id", metavar="MODEL_ID", help="the model to diagnose")
    report.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    report.add_argument("--limit", type=int, default=None,
                        help="how many recent calls to read (default: 2000 from the platform, all of a local source)")
    local = report.add_mutually_exclusive_group()
    local.add_argument("--offline", action="store_true",
                       help="diagnose the profile's local archive of the model (every call stored), not the platform")
    local.add_argument("--from", dest="from_file", metavar="FILE.jsonl",
                       help="diagnose the calls in a JSONL dump (as `export` writes, or the platform's /logs pages)")
    report.add_argument(
        "--compare", metavar="OTHER_MODEL_ID",
        help="did the new checkpoint get better? MODEL_ID (after) against OTHER_MODEL_ID (before): "
             "failure rates per kind and per eval, with intervals and a verdict per row",
    )
    _add_connection_args(report, model=False)

    login = sub.add_parser(
        "login",
        help="store the API key (read from standard input, never echoed) for later runs",
        description=(
            "Store the API key for later runs: in the system keyring when one works (asked for at "
            "most 3 s), else in credentials.toml beside the config file, readable only by you (0600)."
        ),
    )
    where = login.add_mutually_exclusive_group()
    where.add_argument("--keyring", dest="where", action="store_const", const="keyring",
                       help="the system keyring only (fail rather than write a file)")
    where.add_argument("--file", dest="where", action="store_const", const="file",
                       help="the private file only (never ask the keyring)")
    _add_profile_arg(login)
    _add_profile_arg(sub.add_parser("logout", help="forget the stored API key"))
    _add_profile_arg(sub.add_parser(
        "status", help="where each profile's API key comes from (never the key) and which config file is read"
    ))

    from cli.commands.profiles import add_profiles_parser

    add_profiles_parser(sub)

    _add_archives_parser(sub)

    config = sub.add_parser("config", help="show or change settings")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    config_set = config_sub.add_parser("set", help="set KEY to VALUE (dotted keys reach tables: templates.MODEL)")
    config_set.add_argument("key", help="a setting: theme, poll_interval, default_model, base_url, bell_on_run_end, " "templates.MODEL, keymap.BINDING_ID")
    config_set.add_argument("value", help="read as TOML when it can be (numbers, true/false), else as text")
    config_sub.add_parser("show", help="print the effective settings")
    config_sub.add_parser("path", help="print the config file's path")

    serve = sub.add_parser(
        "serve",
        help="serve the app to a web browser (textual-serve); one app per browser tab",
        description=(
            "Serve blah-tui to a web browser: open the printed address. Each tab runs its own app "
            "with these options. Anyone who can reach the address can use the app and the API "
            "key's rights, so it listens on 127.0.0.1 unless told otherwise."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--public-url", help="the address browsers use, when behind a proxy (default http://HOST:PORT)")
    serve.add_argument("--demo", action="store_true", help="each tab gets its own local simulated blah.dev")
    serve.add_argument("--seed", type=int, help="with --demo: the simulated world's seed")
    serve.add_argument("--speed", type=positive_float, help="with --demo: how fast simulated time runs")
    serve.add_argument("--log", metavar="LOG_ID", help="open one call in the inspector on start")
    _add_connection_args(serve)
    describe_subcommands(sub)
    describe_subcommands(config_sub)
    return parser


def _add_blah_verbs(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    helps = {
        "runs": "blah.dev eval runs: list, show, results, start, watch, resume, cancel",
        "leaderboard": "the blah.dev leaderboard, best first, each model's change since its previous run",
        "compare": "the same evals answered by two or three models: compare A B [C]",
        "health": "a model's recent health checks: health MODEL",
        "chatroom": "the chatroom: read (--follow tails it), post, mute, unmute",
    }
    for name in BLAH_VERBS:
        verb = sub.add_parser(name, help=helps[name], add_help=False)
        verb.add_argument(f"{name}_args", nargs=argparse.REMAINDER, help=f"see `blah-tui {name} --help`")


def _add_archives_parser(sub: argparse._SubParsersAction[OneLineParser]) -> None:
    archives = sub.add_parser(
        "archives",
        help="list the local archives of calls (one per model and platform) or delete some",
        description=(
            "The app keeps every call it sees of a model in a local archive (one file per model "
            "and platform). With no action, or `list`, print them: platform, model, calls, size, "
            "last used. `prune` deletes those named, or those unused for DAYS days."
        ),
    )
    actions = archives.add_subparsers(dest="archives_command", metavar="ACTION")
    actions.add_parser("list", help="print every archive (the default)")
    prune = actions.add_parser(
        "prune",
        help="delete the archives of the models named, or those unused for DAYS days",
        description=(
            "Delete archives: those of each MODEL named (a model id, or an archive's file name), "
            "and/or those not used for --older-than DAYS days. Says what it will delete first, "
            "then asks (or deletes at once with --yes)."
        ),
    )
    prune.add_argument("models", nargs="*", metavar="MODEL", help="a model id (every platform's archive of it) or a file name")
    prune.add_argument("--older-than", type=float, metavar="DAYS", help="archives not used for this many days")
    prune.add_argument("-y", "--yes", action="store_true", help="delete without asking")


def _add_profile_arg(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subcommand's unset --profile must not undo one given before the subcommand.
    parser.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS,
                        help="the profile to use ([profiles.NAME] in the config; default: default_profile)")


def _add_connection_args(parser: argparse.ArgumentParser, *, model: bool = True) -> None:
    _add_profile_arg(parser)
    parser.add_argument("--base-url", help=f"the platform's origin (default: the profile's, else {DEFAULT_BASE_URL})")
    parser.add_argument("--api-key", help="API key (default: the platform's variable, e.g. $EVALS_BLAH_API_KEY, then the stored key)")
    if model:
        parser.add_argument("--model", help="the model the app is about")
