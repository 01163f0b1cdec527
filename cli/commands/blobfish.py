"""`blah-tui blobfish ...`: SDK evaluations on Blobfish from the shell (no Textual import).

    blah-tui blobfish evals [--json]
    blah-tui blobfish show ID [--json]
    blah-tui blobfish export ID -o FILE.jsonl
    blah-tui blobfish export --all -o FILE.jsonl
    blah-tui blobfish publish ENVELOPE.json [--json]
    blah-tui blobfish search TEXT [--json]   (cli.commands.blobfish_search)

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
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from api_client.blobfish import BlobfishClient, PublishRefusedLocally
from api_client.blobfish.errors import KeyShapeError
from api_client.blobfish.publication import prepare
from api_client.blobfish.shapes import DEFAULT_BASE_URL, Detail, Rollout, Summary
from api_client.errors import BlahError, MissingKeyError, UnsafePathError
from application.session.base_url import base_url_problem
from application.session.profiles import ProfileError, resolve_profile
from cli.commands.command_error import CommandError, error_line, fail
from cli.parsing import platform_command_parser
from common.format import DASH
from common.iso_time import parse_iso
from common.plain_text import inert_json, one_line

PROG = "blah-tui blobfish"
KEY_ENV = "BLOBFISH_API_KEY"
BASE_URL_ENV = "BLOBFISH_BASE_URL"
DETAILS_IN_FLIGHT = 4
"""Details fetched at once for the `evals` table (task and failed rollouts are only there)."""



# ---------------------------------------------------------------------------- connection


@dataclass(frozen=True)
class BlobfishConnection:
    """Where to reach Blobfish and with which key (``key_source`` names where it came from)."""

    base_url: str
    api_key: str | None
    key_source: str
    profile: str = ""  # the profile's name: whose archive the steps go to


def resolve_connection(base_url: str | None, profile: str | None = None) -> BlobfishConnection:
    """The one place that decides the base URL and the key: the profile's
    (``application.session.profiles.resolve_profile``: ``--profile``, else the one Blobfish profile, else
    ``$BLOBFISH_BASE_URL``, else https://blobfish.ai; ``--base-url`` wins), and the key from
    ``$BLOBFISH_API_KEY``, else the one stored for that profile. Raises ``ProfileError``."""
    resolved = resolve_profile(profile, platform="blobfish", base_url_flag=base_url)
    return BlobfishConnection(resolved.origin, resolved.api_key, resolved.key_source, resolved.name)


# ---------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    base_url_help = f"Blobfish's origin (default ${BASE_URL_ENV}, else {DEFAULT_BASE_URL}); key: ${KEY_ENV}"
    parser, sub, connection = platform_command_parser(
        PROG, f"SDK evaluations published to Blobfish. The key is read from ${KEY_ENV} (bf_...).",
        dest="blobfish_command", base_url_help=base_url_help,
        profile_help="a Blobfish profile ([profiles.NAME] in the config)", listed=True,
    )
    evals = sub.add_parser("evals", parents=[connection], help="every published evaluation, newest first")
    evals.add_argument("--json", action="store_true", help="the platform's summaries as JSON")
    show = sub.add_parser("show", parents=[connection], help="one evaluation: its rollouts and their grades")
    show.add_argument("evaluation_id", metavar="ID")
    show.add_argument("--json", action="store_true", help="the full evidence as JSON")
    export = sub.add_parser(
        "export", parents=[connection], help="traces as JSONL (one per rollout), written whole or not at all"
    )
    which = export.add_mutually_exclusive_group(required=True)
    which.add_argument("evaluation_id", metavar="ID", nargs="?", help="one evaluation")
    which.add_argument("--all", action="store_true", help="every evaluation, newest first")
    export.add_argument("-o", "--output", metavar="FILE.jsonl", required=True, help="the file to write")
    publish = sub.add_parser(
        "publish", parents=[connection], help="publish a completed job (a blobfish.sdk-evaluation.v1 file)"
    )
    publish.add_argument("envelope", metavar="ENVELOPE.json", help="sent byte for byte as it is in the file")
    publish.add_argument("--json", action="store_true", help="the receipt as JSON")
    from cli.commands.blobfish_search import add_search_parser

    add_search_parser(sub, connection)
    return parser


# ---------------------------------------------------------------------------- output


def _print_json(value: Any, out: TextIO) -> None:
    out.write(inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def _cell(value: str | None, width: int = 40) -> str:
    return DASH if value is None or value == "" else one_line(value, width)


def _number(value: float | int | None) -> str:
    if value is None:
        return DASH
    return str(value) if isinstance(value, int) else f"{value:.2f}"


def _created(value: str | None) -> str:
    if not value:
        return DASH
    moment = parse_iso(value)
    if moment is None:
        return one_line(value, 25)
    return f"{moment.astimezone(dt.UTC):%Y-%m-%d %H:%M}Z"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int], out: TextIO) -> None:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(parts).rstrip()

    out.write(line(headers) + "\n")
    for row in rows:
        out.write(line(row) + "\n")


EVAL_HEADERS = ("id", "task", "model", "reward", "rollouts", "failed", "created")


def _evaluation_row(summary: Summary, detail: Detail | None) -> list[str]:
    return [
        _cell(summary.evaluation_id, 36),
        _cell(detail.taskset if detail else None, 24),
        _cell(summary.model, 28),
        _number(summary.mean_reward),
        _number(summary.rollout_count),
        _number(detail.failed_count if detail else None),
        _created(summary.created_at),
    ]


def _verdict(rollout: Rollout) -> str:
    return {None: DASH, True: "fail", False: "pass"}[rollout.failed]


def _print_detail(detail: Detail, out: TextIO) -> None:
    facts = [
        ("evaluation", _cell(detail.evaluation_id, 80)),
        ("job", _cell(detail.job_id, 80)),
        ("task", _cell(detail.taskset, 80)),
        ("model", _cell(detail.model, 80)),
        ("created", _created(detail.created_at)),
        ("reward", f"{_number(detail.mean_reward)} (mean of the rollouts' recorded rewards)"),
        ("rollouts", f"{_number(detail.rollout_count)}, failed {_number(detail.failed_count)}"),
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
        failed = "; ".join(grade.failed_conditions or []) if grade else ""
        rows.append([
            _cell(rollout.rollout_id, 24), _cell(rollout.task_id, 32), _number(rollout.reward), _verdict(rollout),
            _number(len(rollout.steps) if rollout.steps is not None else None), _cell(failed or None, 60),
        ])  # fmt: skip
    _table(("rollout", "task", "reward", "grade", "steps", "failed conditions"), rows, {2, 4}, out)


# ---------------------------------------------------------------------------- commands


async def _evals(client: BlobfishClient, as_json: bool, out: TextIO) -> None:
    summaries = await client.list_evaluations()
    if as_json:
        _print_json([s.to_json() for s in summaries], out)
        return
    if not summaries:
        out.write("no evaluations published with this key\n")
        return
    gate = asyncio.Semaphore(DETAILS_IN_FLIGHT)

    async def detail(summary: Summary) -> Detail:
        async with gate:
            return await client.get_evaluation(summary.evaluation_id)

    details = await asyncio.gather(*(detail(s) for s in summaries))
    rows = [_evaluation_row(s, d) for s, d in zip(summaries, details)]
    _table(EVAL_HEADERS, rows, {3, 4, 5}, out)


async def _show(client: BlobfishClient, evaluation_id: str, as_json: bool, out: TextIO) -> None:
    detail = await client.get_evaluation(evaluation_id)
    if as_json:
        _print_json(detail.to_json(), out)
    else:
        _print_detail(detail, out)


async def _export(client: BlobfishClient, args: argparse.Namespace, out: TextIO) -> None:
    dest = Path(args.output)
    if dest.is_dir():
        raise CommandError(f"{one_line(str(dest), 200)} is a directory; name a file", 2)
    if args.all:
        result = await client.export_all_jsonl(dest)
    else:
        result = await client.export_jsonl(args.evaluation_id, dest)
    out.write(
        f"wrote {result.lines:,} traces ({result.bytes:,} bytes) of {result.evaluations:,} "
        f"evaluation{'s' if result.evaluations != 1 else ''} to {one_line(str(dest), 200)}\n"
    )


async def _publish(client: BlobfishClient, args: argparse.Namespace, out: TextIO) -> None:
    try:
        body = Path(args.envelope).read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {one_line(args.envelope, 200)}: {exc.strerror or exc}", 2) from None
    publication = prepare(body)  # refused here, nothing sent, when it breaks a publish rule
    receipt = await client.publish(publication)
    if args.json:
        _print_json(receipt.to_json(), out)
        return
    out.write(f"published evaluation {_cell(receipt.evaluation_id, 80)} (job {_cell(receipt.job_id, 80)})\n")
    out.write(f"dashboard: {_cell(receipt.dashboard_url, 300)}\n")


async def _run(args: argparse.Namespace, connection: BlobfishConnection, out: TextIO) -> None:
    async with BlobfishClient(connection.base_url, connection.api_key) as client:
        command = args.blobfish_command
        if command == "evals":
            await _evals(client, args.json, out)
        elif command == "show":
            await _show(client, args.evaluation_id, args.json, out)
        elif command == "export":
            await _export(client, args, out)
        elif command == "search":
            from cli.commands.blobfish_search import SearchProblem, run_search

            try:
                await run_search(client, args, out, profile=connection.profile, origin=connection.base_url)
            except SearchProblem as problem:
                raise CommandError(str(problem), problem.code) from None
        else:
            await _publish(client, args, out)


def blobfish_main(argv: Sequence[str], *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one `blah-tui blobfish` command; the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(list(argv))
    try:
        connection = resolve_connection(args.base_url, args.profile)
    except ProfileError as error:
        return fail(PROG, str(error), 2, err)
    problem = base_url_problem(connection.base_url)
    if problem:
        where = "--base-url" if args.base_url else f"${BASE_URL_ENV}"
        return fail(PROG, f"{where} {connection.base_url!r} is not an address: {problem} (e.g. {DEFAULT_BASE_URL})",
                    2, err)
    try:
        asyncio.run(_run(args, connection, out))
    except CommandError as error:
        return fail(PROG, str(error), error.code, err)
    except (KeyShapeError, PublishRefusedLocally, MissingKeyError, UnsafePathError) as error:
        return fail(PROG, error_line(error), 2, err)
    except BlahError as error:
        return fail(PROG, error_line(error), 1, err)
    except ValueError as error:  # a base URL the client cannot use (not an origin, clear-text key)
        return fail(PROG, str(error), 2, err)
    except BrokenPipeError:
        raise  # the reader went away (`| head`): cli.main ends quietly
    except OSError as error:
        return fail(PROG, f"cannot write the file: {error.strerror or error}", 1, err)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted; nothing was written", 130, err)
    return 0

