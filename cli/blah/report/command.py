"""`blah-tui report MODEL_ID ...`: its parser, and which report it prints: the platform's
(:mod:`cli.blah.report.remote`), a checkpoint against another (:mod:`cli.blah.report.compare`),
or a local history (:mod:`cli.blah.report.local`), each imported only when it runs."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cli.blah.command import run_with_blah_profile
from cli.exit_codes import ExitCode

if TYPE_CHECKING:
    from application.session.profiles.resolve import ResolvedProfile

__all__ = ["build_parser", "run"]

DEFAULT_LIMIT = 2000
"""Recent calls read from the platform when --limit is not given."""


def build_parser() -> argparse.ArgumentParser:
    from cli.global_options import CONNECTION, add_global_options, add_json_option
    from cli.parsing import OneLineParser

    parser = OneLineParser(
        prog="blah-tui report", description="Print the blunt diagnosis report of a model (markdown)."
    )
    parser.add_argument("model_id", metavar="MODEL_ID", help="the model to diagnose")
    add_json_option(parser, "print JSON instead of markdown")
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="how many recent calls to read (default: 2000 from the platform, all of a local source)",
    )
    local = parser.add_mutually_exclusive_group()
    local.add_argument(
        "--offline",
        action="store_true",
        help="diagnose the profile's local archive of the model (every call stored), not the platform",
    )
    local.add_argument(
        "--from",
        dest="from_file",
        metavar="FILE.jsonl",
        help="diagnose the calls in a JSONL dump (as `export` writes, or the platform's /logs pages)",
    )
    parser.add_argument(
        "--compare",
        metavar="OTHER_MODEL_ID",
        help="did the new checkpoint get better? MODEL_ID (after) against OTHER_MODEL_ID (before): "
        "failure rates per kind and per eval, with intervals and a verdict per row",
    )
    add_global_options(parser, CONNECTION)
    return parser


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] report MODEL_ID ...` (:mod:`cli.tree`)."""
    return run_with_blah_profile(build_parser(), argv, given, _report)


def _report(args: argparse.Namespace, profile: ResolvedProfile) -> int:
    """The report the options ask for: local, a checkpoint comparison, or the platform's."""
    if args.offline or args.from_file is not None:
        return _local(args, profile.origin, profile.label)
    limit = args.limit if args.limit is not None else DEFAULT_LIMIT
    if args.compare is not None:
        from cli.blah.report.compare import compare_main

        return compare_main(
            args.model_id,
            args.compare,
            base_url=profile.origin,
            api_key=profile.api_key,
            as_json=args.json,
            limit=limit,
        )
    from cli.blah.report.remote import report_main

    return report_main(args.model_id, base_url=profile.origin, api_key=profile.api_key, as_json=args.json, limit=limit)


def _local(args: argparse.Namespace, origin: str, label: str) -> int:
    """`report MODEL --offline` (the profile's archive of the model) or `--from FILE.jsonl`."""
    from pathlib import Path

    from cli.blah.report.local import local_report_main

    if args.compare is not None:
        print("blah-tui report: --compare reads the platform; it does not go with --offline or --from", file=sys.stderr)
        return ExitCode.USAGE
    archive = dump = None
    if args.offline:
        from api_client.archives.archive import Archive
        from application.session.paths import data_dir

        archive = Archive.path_for(data_dir(), origin, args.model_id, label)
    else:
        dump = Path(args.from_file)
    return local_report_main(
        args.model_id,
        archive_path=archive,
        dump_path=dump,
        as_json=args.json,
        limit=args.limit,
        out=sys.stdout,
        err=sys.stderr,
    )
