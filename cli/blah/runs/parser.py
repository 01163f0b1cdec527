"""The parser of `blah-tui runs`: its verbs, their options and the help that lists them."""

from __future__ import annotations

import argparse

from cli.blah.connection import (
    EXIT_CODES_HELP,
    connection_parent,
)
from cli.global_options import add_json_option
from cli.parsing import OneLineParser

PROG = "blah-tui runs"


def build_parser() -> argparse.ArgumentParser:
    connection = connection_parent()
    parser = OneLineParser(
        prog=PROG,
        description="blah.dev eval runs: list, show, results, start, watch, resume, cancel.",
        parents=[connection],
        epilog=EXIT_CODES_HELP,
    )
    sub = parser.add_subparsers(dest="runs_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", parents=[connection], help="every run, newest first")
    listing.add_argument("--model", metavar="M", help="only the runs this model took part in")
    add_json_option(listing, "the runs as the platform sent them (a JSON array)")

    show = sub.add_parser("show", parents=[connection], help="one run: status, progress, times, error")
    show.add_argument("run_id", metavar="RUN")
    add_json_option(show)

    results = sub.add_parser(
        "results", parents=[connection], help="each result of a run: score and the judge's reasoning, verbatim"
    )
    results.add_argument("run_id", metavar="RUN")
    add_json_option(results)

    start = sub.add_parser(
        "start", parents=[connection], help="start a run of every eval on these models (council tier; sent once)"
    )
    start.add_argument("--model", metavar="M", action="append", required=True, help="a model (repeat for more)")
    start.add_argument(
        "--eval",
        metavar="E",
        action="append",
        help="refused: the platform runs every eval (POST /runs takes model_ids only)",
    )
    start.add_argument("--watch", action="store_true", help="follow the run to its end (exit code as `runs watch`)")
    add_json_option(start)
    start.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    watch = sub.add_parser(
        "watch", parents=[connection], help="follow a run to its end: progress and ETA on stderr, the run on stdout"
    )
    watch.add_argument("run_id", metavar="RUN")
    add_json_option(watch)

    for name, what in (
        ("resume", "continue a stalled or failed run (council tier; sent once)"),
        ("cancel", "stop a queued or running run (council tier; sent once)"),
    ):
        verb = sub.add_parser(name, parents=[connection], help=what)
        verb.add_argument("run_id", metavar="RUN")
        if name == "resume":
            verb.add_argument("--watch", action="store_true", help="follow the run to its end")
        add_json_option(verb)
        verb.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    return parser


# ---------------------------------------------------------------------------- printing
