"""The parser and the start of `blah-tui export` (:mod:`cli.blah.export` is imported only when
it runs: `export --help` never loads the HTTP client, the archive or the progress bar), and how
every blah.dev-only command starts (:func:`run_with_blah_profile`: export and report)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from application.session.profiles.resolve import ResolvedProfile

__all__ = ["build_parser_export", "run_export", "run_with_blah_profile"]


def run_with_blah_profile(
    parser: argparse.ArgumentParser,
    argv: list[str],
    given: argparse.Namespace,
    command: Callable[[argparse.Namespace, ResolvedProfile], int],
) -> int:
    """A command that works on blah.dev only (export, report): ``argv`` parsed (``--help`` ends
    here, before the connection's modules are imported), the blah.dev profile resolved, and
    ``command`` run with both; a profile that cannot be resolved is said on stderr, and
    :attr:`ExitCode.USAGE` returned."""
    from cli.global_options import parse_command

    args = parse_command(parser, argv, given)
    from cli.blah.connection import blah_profile

    profile = blah_profile(args)
    if profile is None:
        return ExitCode.USAGE
    return command(args, profile)


def build_parser_export() -> argparse.ArgumentParser:
    from cli.global_options import CONNECTION, add_global_options
    from cli.parsing import OneLineParser

    parser = OneLineParser(prog="blah-tui export", description="Download a model's whole call history as JSONL.")
    parser.add_argument("model_id", metavar="MODEL_ID", help="the model whose calls to download")
    parser.add_argument("--source", choices=["eval", "chatroom", "chat", "test"], help="only calls from this source")
    parser.add_argument("--errors-only", action="store_true", help="only calls that failed")
    parser.add_argument("--since", type=int, metavar="MS", help="only calls newer than this (ms since the epoch)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    add_global_options(parser, CONNECTION)
    return parser


def run_export(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] export MODEL_ID ...` (:mod:`cli.tree`)."""
    return run_with_blah_profile(build_parser_export(), argv, given, _export)


def _export(args: argparse.Namespace, profile: ResolvedProfile) -> int:
    """The download, to standard output or ``--output``."""
    from cli.blah.export import export_main

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
