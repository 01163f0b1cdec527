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
from cli.parser import _version, build_parser  # noqa: F401  (_version: `blah-tui --version`'s, read by tests)
from cli.parsing import end_quietly_on_closed_pipe

if TYPE_CHECKING:
    from application.session.profiles.resolve import ResolvedProfile


def resolve_api_key(flag: str | None) -> tuple[str | None, str]:
    """(key, source name) as :func:`application.session.credentials.stored_key.resolve_key`; a problem with the stored key
    is said on stderr."""
    from application.session.credentials.stored_key import resolve_key

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
    from cli.migration_progress import migration_progress_bar

    try:
        with migration_progress_bar():  # an archive of an older layout is rewritten on first open
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
    from application.session.profiles.resolve import ProfileError, resolve_profile

    try:
        profile = resolve_profile(getattr(args, "profile", None), base_url_flag=args.base_url, key_flag=args.api_key)
    except ProfileError as error:
        print(f"blah-tui: {error}", file=sys.stderr)
        return 2
    return run_profile(profile, model_id=args.model, log_id=args.log)


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


def _blah_profile(args: argparse.Namespace) -> ResolvedProfile | None:
    """The blah.dev profile of a command that works on blah.dev only (export, report); a
    problem with it is said on stderr (None then)."""
    from application.session.profiles.resolve import ProfileError, resolve_profile

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


def run() -> None:
    """The ``blah-tui`` program (its console script, and ``python -m cli.main``): ``main``, then
    the interpreter's exit without its last full collection of the cyclic garbage collector.

    At exit CPython collects every generation once more, walking every object still alive
    (tens of thousands after a command's imports and work): 40-60 ms after a Blobfish export's
    last byte was written, measured, when nothing of ours is left to collect (files are
    closed and archives committed before ``main`` returns). Freezing what is alive moves it
    out of that walk; objects are still released as the interpreter tears its modules down, and
    standard output and atexit handlers are flushed and run as before. Not in ``main``: a
    program or test that calls ``main`` in its own process keeps its collector as it was."""
    code = main()
    gc.freeze()
    raise SystemExit(code)


if __name__ == "__main__":
    run()
