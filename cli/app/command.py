"""The parsers and the start of the app's own commands: `open`, `serve` and `sim`. Their code
(:mod:`cli.app.open_file`, :mod:`cli.app.serve`, :mod:`simulator.cli`) is imported only when
one runs."""

from __future__ import annotations

import argparse
import sys

from cli.exit_codes import ExitCode


def build_parser_open() -> argparse.ArgumentParser:
    from cli.global_options import add_global_options
    from cli.parsing import OneLineParser

    parser = OneLineParser(prog="blah-tui open", description="Browse a saved JSONL dump offline.")
    parser.add_argument("file", metavar="FILE.jsonl", help="a dump written by `blah-tui export`")
    add_global_options(
        parser, ("--model",), helps={"--model": "the model the dump is about (default: read from the dump)"}
    )
    return parser


def run_open(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui open FILE` (:mod:`cli.tree`): the app on the dump."""
    from cli.global_options import parse_command
    from common.gc_tuning import collector_off_for_startup

    args = parse_command(build_parser_open(), argv, given)  # --help ends here
    with collector_off_for_startup():  # from here on, the app's start (common/gc_tuning.py)
        from cli.app.launch import run_offline

        return run_offline(args.file, model_id=getattr(args, "model", None))


def build_parser_serve() -> argparse.ArgumentParser:
    from cli.global_options import CONNECTION, add_global_options
    from cli.parsing import OneLineParser, port_number

    parser = OneLineParser(
        prog="blah-tui serve",
        description=(
            "Serve blah-tui to a web browser: open the printed address. Each tab runs its own app "
            "with these options. Anyone who can reach the address can use the app and the API "
            "key's rights, so it listens on 127.0.0.1 unless told otherwise."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--public-url", help="the address browsers use, when behind a proxy (default http://HOST:PORT)")
    add_global_options(
        parser,
        ("--demo", "--seed", "--speed", "--log", *CONNECTION, "--model"),
        helps={
            "--demo": "each tab gets its own local simulated blah.dev",
            "--seed": "with --demo: the simulated world's seed",
            "--speed": "with --demo: how fast simulated time runs",
        },
    )
    return parser


def run_serve(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui serve ...` (:mod:`cli.tree`)."""
    from cli.global_options import parse_command

    args = parse_command(build_parser_serve(), argv, given)  # --help ends here
    from cli.app.serve import serve_main

    raw = getattr(args, "base_url", None)
    if raw is not None:
        from application.session.base_url import base_url_problem, explain_bad_base_url

        problem = base_url_problem(raw)
        if problem:
            print(f"blah-tui: {explain_bad_base_url(raw, problem)}", file=sys.stderr)
            return ExitCode.USAGE
    return serve_main(
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        demo=getattr(args, "demo", False),
        seed=getattr(args, "seed", None),
        speed=getattr(args, "speed", None),
        model=getattr(args, "model", None),
        base_url=raw,
        api_key=getattr(args, "api_key", None),
        log_id=getattr(args, "log", None),
        profile=getattr(args, "profile", None),
    )


def build_parser_sim() -> argparse.ArgumentParser:
    from simulator.cli import build_parser as simulator_parser

    return simulator_parser()


def run_sim(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [--speed X] [--seed N] sim ...` (:mod:`cli.tree`): the options typed before
    `sim` are handed to its parser as typed."""
    from cli.global_options import as_flags
    from simulator.cli import main

    return main([*argv, *as_flags(given)])
