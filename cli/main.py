"""`blah-tui`: the app and its subcommands.

    blah-tui [--demo | --base-url URL] [--model ID] [--api-key KEY] [--log LOG_ID]
    blah-tui sim | export | open | report | archives | serve | login | logout | status | config | profiles
    | blobfish ...

Subcommands import what they need lazily so that `blah-tui export` never loads Textual.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cli.global_options import BLAH_VERBS, OWN_PARSER_OPTIONS, Refused, globals_to_subcommand
from cli.parsing import OneLineParser, end_quietly_on_closed_pipe, port_number, positive_float
from common.constants import DEFAULT_BASE_URL

if TYPE_CHECKING:
    from application.session.profiles import ResolvedProfile

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
    parser.add_argument("--version", action="version", version=f"blah-tui {_version()}")
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
    config_set.add_argument("key", help="a setting: theme, poll_interval, default_model, base_url, bell_on_run_end, templates.MODEL, keymap.BINDING_ID")
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
    _describe_subcommands(sub)
    _describe_subcommands(config_sub)
    return parser


def _add_blah_verbs(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _blah_verb(args_list: list[str]) -> int | None:
    """A blah.dev verb after any global ``--base-url``/``--api-key``/``--profile``: its exit
    code; None when the command line is another command's."""
    from cli.commands.blah_common import split_globals

    routed = split_globals(args_list)
    if routed is None:
        return None
    globals_, (verb, *rest) = routed
    if verb == "runs":
        from cli.commands.runs import runs_main

        return runs_main(rest, globals_)
    if verb == "chatroom":
        from cli.commands.chatroom import chatroom_main

        return chatroom_main(rest, globals_)
    from cli.commands.leaderboard import standings_main

    return standings_main(verb, rest, globals_)


def _add_archives_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def _describe_subcommands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`blah-tui COMMAND --help` opens with the same sentence `blah-tui --help` lists it with."""
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, subparser in sub.choices.items():
        if subparser.description is None and helps.get(name):
            subparser.description = f"{helps[name][0].upper()}{helps[name][1:]}."


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


def resolve_api_key(flag: str | None) -> tuple[str | None, str]:
    """(key, source name) as :func:`application.session.credentials.resolve_key`; a problem with the stored key
    is said on stderr."""
    from application.session.credentials import resolve_key

    found = resolve_key(flag)
    if found.problem:
        print(f"blah-tui: {found.problem}; going on without a key", file=sys.stderr)
    return found.key, found.source


DEMO_SEED, DEMO_SPEED = 7, 1.0
def _options_of(command: str) -> set[str] | None:
    """The option strings ``command`` takes (None: it parses its own and says so itself)."""
    if command in OWN_PARSER_OPTIONS:
        return OWN_PARSER_OPTIONS[command]
    parser = build_parser()
    for action in parser._subparsers._group_actions if parser._subparsers else ():  # noqa: SLF001
        sub = getattr(action, "choices", None) or {}
        if command in sub:
            options = set(sub[command]._option_string_actions)  # noqa: SLF001
            return options if len(options) > 2 else None  # only -h/--help: a command with its own parser
    return None  # not a command: the parser says so


def main(argv: Sequence[str] | None = None) -> int:
    """`blah-tui ...`; the exit code. A closed standard output (``| head``) ends it quietly."""
    try:
        code = _main(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        return end_quietly_on_closed_pipe()


def _main(args_list: list[str]) -> int:
    try:
        args_list = globals_to_subcommand(args_list, _options_of)
    except Refused as refused:
        print(f"blah-tui: {refused}", file=sys.stderr)
        return 2
    if args_list[:1] == ["sim"]:
        from simulator.cli import main as sim_main

        return sim_main(args_list[1:])
    if args_list[:1] == ["blobfish"]:
        from cli.commands.blobfish import blobfish_main

        return blobfish_main(args_list[1:])
    if args_list[:1] == ["bench"]:
        from cli.commands.bench import bench_main

        return bench_main(args_list[1:])
    if args_list[:1] == ["bakeoff"]:
        from cli.commands.bakeoff import bakeoff_main

        return bakeoff_main(args_list[1:])
    if not set(args_list).isdisjoint(BLAH_VERBS):
        routed = _blah_verb(args_list)
        if routed is not None:
            return routed
    parser = build_parser()
    args = parser.parse_args(args_list)
    bad_url = _base_url_error(getattr(args, "base_url", None))
    if bad_url:
        print(f"blah-tui: {bad_url}", file=sys.stderr)
        return 2
    if args.command in BLAH_VERBS:  # only options the verb cannot use came before it
        print(f"blah-tui: only --base-url, --api-key and --profile apply to `{args.command}`; "
              f"see `blah-tui {args.command} --help`", file=sys.stderr)
        return 2
    if args.command == "export":
        return _export(args)
    if args.command == "archives":
        from cli.commands.archives import archives_main

        return archives_main(args)
    if args.command == "profiles":
        from cli.commands.profiles import profiles_main

        return profiles_main(args)
    if args.command in ("login", "logout", "status", "config"):
        from cli.commands.account import account_main

        return account_main(args)
    if args.command == "serve":
        from cli.commands.serve import serve_main

        return serve_main(
            host=args.host, port=args.port, public_url=args.public_url, demo=args.demo, seed=args.seed,
            speed=args.speed, model=args.model, base_url=args.base_url, api_key=args.api_key, log_id=args.log,
            profile=getattr(args, "profile", None),
        )  # fmt: skip
    if args.command == "report":
        from cli.commands.report import report_main

        profile = _blah_profile(args)
        if profile is None:
            return 2
        if args.offline or args.from_file is not None:
            return _local_report(args, profile)
        limit = args.limit if args.limit is not None else 2000
        if args.compare is not None:
            from cli.commands.report_compare import compare_main

            return compare_main(
                args.model_id, args.compare, base_url=profile.origin, api_key=profile.api_key,
                as_json=args.json, limit=limit,
            )
        return report_main(
            args.model_id, base_url=profile.origin, api_key=profile.api_key, as_json=args.json, limit=limit
        )
    # The app's start (its imports, the session it opens) makes some 50,000 objects that live as
    # long as the process and next to no garbage, yet the collector ran ~120 times over them:
    # 50-65 ms before the first frame. It is off until BlahApp.run freezes them and turns it on.
    gc.disable()
    try:
        return _run_app(args)
    finally:
        gc.enable()


def _run_app(args: argparse.Namespace) -> int:
    """The app: on a JSONL dump (``open``), on the demo platforms, or on a profile's platform."""
    if args.command == "open":
        from cli.launch import run_offline

        return run_offline(args.file, model_id=args.model)
    from cli.launch import run_demo, run_profile

    if args.demo:
        return run_demo(seed=DEMO_SEED if args.seed is None else args.seed,
                        speed=DEMO_SPEED if args.speed is None else args.speed, log_id=args.log)
    from application.session.profiles import ProfileError, resolve_profile

    try:
        profile = resolve_profile(getattr(args, "profile", None), base_url_flag=args.base_url, key_flag=args.api_key)
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return 2
    return run_profile(profile, model_id=args.model, log_id=args.log)


def _blah_profile(args: argparse.Namespace) -> ResolvedProfile | None:
    """The blah.dev profile of a command that works on blah.dev only (export, report); a
    problem with it is said on stderr (None then)."""
    from application.session.profiles import ProfileError, resolve_profile

    try:
        profile = resolve_profile(
            getattr(args, "profile", None), platform="blah", base_url_flag=args.base_url, key_flag=args.api_key
        )
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return None
    if profile.key_problem:
        print(f"blah-tui: {profile.key_problem}; going on without a key", file=sys.stderr)
    return profile


def _base_url_error(raw: str | None) -> str | None:
    """A plain sentence when ``--base-url`` cannot be a platform address (checked before any
    command builds a client from it), else None."""
    if raw is None:
        return None
    from application.session.base_url import base_url_problem, explain_bad_base_url

    problem = base_url_problem(raw)
    return explain_bad_base_url(raw, problem) if problem else None


def _local_report(args: argparse.Namespace, profile: ResolvedProfile) -> int:
    """`report MODEL --offline` (the profile's archive of the model) or `--from FILE.jsonl`."""
    from pathlib import Path

    from cli.commands.report_local import local_report_main

    if args.compare is not None:
        print("blah-tui report: --compare reads the platform; it does not go with --offline or --from", file=sys.stderr)
        return 2
    archive = dump = None
    if args.offline:
        from api_client.archives.archive import Archive
        from application.session.paths import data_dir

        archive = Archive.path_for(data_dir(), profile.origin, args.model_id, profile.label)
    else:
        dump = Path(args.from_file)
    return local_report_main(
        args.model_id, archive_path=archive, dump_path=dump, as_json=args.json, limit=args.limit,
        out=sys.stdout, err=sys.stderr,
    )


def _export(args: argparse.Namespace) -> int:
    from cli.commands.export import export_main

    profile = _blah_profile(args)
    if profile is None:
        return 2
    return export_main(
        args.model_id,
        base_url=profile.origin,
        api_key=profile.api_key,
        source=args.source,
        errors_only=args.errors_only,
        since=args.since,
        output=args.output,
        profile=profile.label,
    )


if __name__ == "__main__":
    raise SystemExit(main())
