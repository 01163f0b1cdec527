"""`blah-tui blobfish ...`: SDK evaluations on Blobfish from the shell (no Textual import).

    blah-tui blobfish evals [--json]
    blah-tui blobfish show ID [--json]
    blah-tui blobfish export ID [ID ...] -o FILE.jsonl [--json]   (1-50 ids; cli.blobfish.write)
    blah-tui blobfish export --all -o FILE.jsonl [--json]
    blah-tui blobfish publish ENVELOPE.json [--json]
    blah-tui blobfish publish --evaluation ID [--json]
    blah-tui blobfish search TEXT [--json]   (cli.blobfish.search)

The base URL and the key come from :func:`resolve_connection` alone. ``--json`` prints JSON
only on standard output; a problem is one line on standard error and a non-zero exit (2: the
command line, the key or the envelope is wrong and nothing was sent; 1: the platform or the
way to it failed), never a traceback. What the platform sent stays verbatim in JSON and is
made inert (escapes shown, never obeyed) in tables; a value it did not send is "—".
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from collections.abc import Sequence
from typing import TextIO

from api_client.blobfish import BlobfishClient, PublishRefusedLocally
from api_client.blobfish.errors import KeyShapeError
from api_client.blobfish.shapes import DEFAULT_BASE_URL, Summary
from api_client.blobfish.shapes_evidence import Evaluation, Rollout
from api_client.errors import BlahError, MissingKeyError, UnsafePathError
from application.session.base_url import base_url_problem
from application.session.profiles.resolve import ProfileError, resolve_profile
from cli.connection import Connection
from cli.errors import CommandError, error_line, exit_for, fail
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option, parse_command, platform_command_parser
from cli.output import cell, number, print_json, table
from common.format import DASH
from common.iso_time import parse_iso
from common.safe_strings import clip

PROG = "blah-tui blobfish"
KEY_ENV = "BLOBFISH_API_KEY"
BASE_URL_ENV = "BLOBFISH_BASE_URL"
DETAILS_IN_FLIGHT = 4
"""Details fetched at once for the `evals` table (task and failed rollouts are only there)."""


# ---------------------------------------------------------------------------- connection


BlobfishConnection = Connection
"""The one :class:`cli.connection.Connection`, as Blobfish's commands name it."""


def resolve_connection(base_url: str | None, profile: str | None = None) -> BlobfishConnection:
    """The one place that decides the base URL and the key: the profile's
    (``application.session.profiles.resolve_profile``: ``--profile``, else the one Blobfish profile, else
    ``$BLOBFISH_BASE_URL``, else https://blobfish.ai; ``--base-url`` wins), and the key from
    ``$BLOBFISH_API_KEY``, else the one stored for that profile. Raises ``ProfileError``."""
    resolved = resolve_profile(profile, platform="blobfish", base_url_flag=base_url)
    return Connection(resolved.origin, resolved.api_key, resolved.key_source, resolved.name, platform="blobfish")


# ---------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    base_url_help = f"Blobfish's origin (default ${BASE_URL_ENV}, else {DEFAULT_BASE_URL}); key: ${KEY_ENV}"
    parser, sub, connection = platform_command_parser(
        PROG,
        f"SDK evaluations published to Blobfish. The key is read from ${KEY_ENV} (bf_...).",
        dest="blobfish_command",
        base_url_help=base_url_help,
        profile_help="a Blobfish profile ([profiles.NAME] in the config)",
        listed=True,
    )
    evals = sub.add_parser("evals", parents=[connection], help="every published evaluation, newest first")
    add_json_option(evals, "the platform's summaries as JSON")
    show = sub.add_parser("show", parents=[connection], help="one evaluation: its rollouts and their grades")
    show.add_argument("evaluation_id", metavar="ID")
    add_json_option(show, "the full evidence as JSON")
    export = sub.add_parser(
        "export", parents=[connection], help="traces as JSONL (one per rollout), written whole or not at all"
    )
    from cli.blobfish.write import add_export_arguments, add_publish_arguments

    add_export_arguments(export)
    publish = sub.add_parser(
        "publish", parents=[connection], help="publish a completed job (a blobfish.sdk-evaluation.v1 file)"
    )
    add_publish_arguments(publish)
    from cli.blobfish.search import add_search_parser

    add_search_parser(sub, connection)
    return parser


# ---------------------------------------------------------------------------- output


def _created(value: str | None) -> str:
    if not value:
        return DASH
    moment = parse_iso(value)
    if moment is None:
        return clip(value, 25)
    return f"{moment.astimezone(dt.UTC):%Y-%m-%d %H:%M}Z"


EVAL_HEADERS = ("id", "task", "model", "reward", "rollouts", "failed", "created")


def _evaluation_row(summary: Summary, detail: Evaluation | None) -> list[str]:
    return [
        cell(summary.evaluation_id, 36),
        cell(detail.taskset if detail else None, 24),
        cell(summary.model, 28),
        number(summary.mean_reward),
        number(summary.rollout_count),
        number(detail.failed_count if detail else None),
        _created(summary.created_at),
    ]


def _verdict(rollout: Rollout) -> str:
    return {None: DASH, True: "pass", False: "fail"}[rollout.passed]


def _print_detail(detail: Evaluation, out: TextIO) -> None:
    summary = detail.summary
    facts = [
        ("evaluation", cell(detail.evaluation_id, 80)),
        ("job", cell(summary.job_id, 80)),
        ("task", cell(detail.taskset, 80)),
        ("model", cell(detail.model, 80)),
        ("created", _created(summary.created_at)),
        ("reward", f"{number(summary.mean_reward)} (mean of the rollouts' recorded rewards)"),
        ("rollouts", f"{number(summary.rollout_count)}, failed {number(detail.failed_count)}"),
    ]
    for name, value in facts:
        out.write(f"{name:<11} {value}\n")
    rollouts = detail.rollouts
    if not rollouts:
        out.write("\nthe platform sent no rollouts\n")
        return
    out.write("\n")
    rows = []
    for rollout in rollouts:
        grade = rollout.grade
        failed = "; ".join(grade.failed_conditions) if grade else ""
        rows.append(
            [
                cell(rollout.rollout_id, 24),
                cell(rollout.task_id, 32),
                number(rollout.reward),
                _verdict(rollout),
                number(rollout.step_count),
                cell(failed or None, 60),
            ]
        )
    table(("rollout", "task", "reward", "grade", "steps", "failed conditions"), rows, out, {2, 4})


# ---------------------------------------------------------------------------- commands


async def _evals(client: BlobfishClient, as_json: bool, out: TextIO) -> None:
    summaries = await client.list_evaluations()
    if as_json:
        print_json([s.to_json() for s in summaries], out)
        return
    if not summaries:
        out.write("no evaluations published with this key\n")
        return
    gate = asyncio.Semaphore(DETAILS_IN_FLIGHT)

    async def detail(summary: Summary) -> Evaluation:
        async with gate:
            return await client.get_evaluation(summary.evaluation_id)

    details = await asyncio.gather(*(detail(s) for s in summaries))
    rows = [_evaluation_row(s, d) for s, d in zip(summaries, details)]
    table(EVAL_HEADERS, rows, out, {3, 4, 5})


async def _show(client: BlobfishClient, evaluation_id: str, as_json: bool, out: TextIO) -> None:
    detail = await client.get_evaluation(evaluation_id)
    if as_json:
        print_json(detail.raw, out)  # the body as the platform sent it
    else:
        _print_detail(detail, out)


async def _run(args: argparse.Namespace, connection: BlobfishConnection, out: TextIO) -> None:
    async with BlobfishClient(connection.base_url, connection.api_key) as client:
        command = args.blobfish_command
        if command == "evals":
            await _evals(client, args.json, out)
        elif command == "show":
            await _show(client, args.evaluation_id, args.json, out)
        elif command == "export":
            from cli.blobfish.write import export_command

            await export_command(client, args, out)
        elif command == "search":
            from cli.blobfish.search import SearchProblem, run_search

            try:
                await run_search(client, args, out, profile=connection.profile, origin=connection.base_url)
            except SearchProblem as problem:
                raise CommandError(str(problem), problem.code) from None
        else:
            from cli.blobfish.write import publish_command

            await publish_command(client, args, out)


def blobfish_main(
    argv: Sequence[str],
    *,
    given: argparse.Namespace | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run one `blah-tui blobfish` command; the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args = parse_command(parser, argv, given)
    if args.blobfish_command == "export":
        from cli.blobfish.write import export_problem

        if (problem := export_problem(args)) is not None:
            parser.exit(2, f"{PROG} export: {problem} (see {PROG} export --help)\n")
    try:
        connection = resolve_connection(args.base_url, args.profile)
    except ProfileError as error:
        return fail(PROG, str(error), ExitCode.USAGE, err)
    problem = base_url_problem(connection.base_url)
    if problem:
        where = "--base-url" if args.base_url else f"${BASE_URL_ENV}"
        return fail(
            PROG, f"{where} {connection.base_url!r} is not an address: {problem} (e.g. {DEFAULT_BASE_URL})", 2, err
        )
    try:
        asyncio.run(_run(args, connection, out))
    except CommandError as error:
        return fail(PROG, str(error), error.code, err)
    except (KeyShapeError, PublishRefusedLocally, MissingKeyError, UnsafePathError) as error:
        return fail(PROG, error_line(error), ExitCode.USAGE, err)
    except BlahError as error:
        return fail(PROG, error_line(error), exit_for(error), err)
    except ValueError as error:  # a base URL the client cannot use (not an origin, clear-text key)
        return fail(PROG, str(error), ExitCode.USAGE, err)
    except BrokenPipeError:
        raise  # the reader went away (`| head`): cli.main ends quietly
    except OSError as error:
        return fail(PROG, f"cannot write the file: {error.strerror or error}", ExitCode.LOCAL_FILE, err)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted; nothing was written", ExitCode.INTERRUPTED, err)
    return ExitCode.OK


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] blobfish ...` (:mod:`cli.tree`): the options typed before the action
    are its defaults."""
    return blobfish_main(argv, given=given)
