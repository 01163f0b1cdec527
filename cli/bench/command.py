"""`blah-tui bench ...`: Blobfish benchmark runs and the community board (no Textual import).

    blah-tui bench run SLUG --model M --provider P [--suite sample|full] [--max-tasks N]
                   [--max-steps N] [--provider-key-env VAR | --provider-key-stdin] [--watch] [--json] [--yes]
    blah-tui bench runs SLUG [--json]
    blah-tui bench submit SLUG RUN_ID [--display-name N] [--notes T] [--yes]
    blah-tui bench board SLUG [--json]
    blah-tui bench delete SLUG COMMUNITY_RUN_ID [--yes]

The connection (origin and ``bf_`` key) comes from ``resolve_connection`` as for
`blah-tui blobfish`. The provider key comes from the environment variable the person names,
or one line of standard input; never from a command-line value. It goes into that one request
body and nowhere else (not printed, logged, stored or exported). Writes are confirmed on a
terminal (``--yes`` skips; off a terminal ``--yes`` is required) and sent once.

Exit codes (:class:`cli.exit_codes.ExitCode`): 0 done (with ``--watch``: completed); 1 the
suite failed; 2 the command line is wrong, nothing sent; 3 the suite was interrupted; 4 the
platform cannot be reached or refuses the key; 6 an unknown run or benchmark; 7 the platform
refused the request (a run already in progress, a board refusal).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from api_client.blobfish.benchmarks import (
    BenchmarkClient,
    BenchRefusedLocally,
    RunInProgressError,
)
from api_client.blobfish.errors import KeyShapeError
from api_client.blobfish.shapes_bench import SuiteRun
from api_client.errors import BlahError, MissingKeyError, UnsafePathError
from application.runs.bench.known import known_slugs, remember_slug
from application.runs.bench.watch import Sleep, WatchEvent, watch_suite
from application.session.base_url import base_url_problem
from application.session.profiles.resolve import ProfileError
from cli.bench.print import print_board, print_runs, print_single, print_suite
from cli.blobfish.command import BASE_URL_ENV, DEFAULT_BASE_URL, resolve_connection
from cli.errors import CommandError, confirm, error_line, exit_for, fail
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option, parse_command, platform_command_parser
from cli.output import cell as _cell
from cli.output import number as _number
from cli.output import print_json
from common.safe_strings import clip, one_line

PROG = "blah-tui bench"
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_UNREACHABLE = (
    ExitCode.OK,
    ExitCode.NO,
    ExitCode.USAGE,
    ExitCode.UNDECIDED,
    ExitCode.UNREACHABLE,
)
BLOBFISH_KEY_PREFIX = "bf_"


@dataclass(frozen=True)
class Pace:
    """How the watch waits and reads the time."""

    sleep: Sleep
    clock: Callable[[], float]


# ---------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    parser, sub, connection = platform_command_parser(
        PROG,
        "Blobfish benchmark runs and the community board.",
        dest="bench_command",
        base_url_help=f"Blobfish's origin (default ${BASE_URL_ENV}, else {DEFAULT_BASE_URL})",
        profile_help="a Blobfish profile",
    )

    def benchmark_action(action: str, help: str) -> argparse.ArgumentParser:
        """An action on one benchmark: the connection's options, then its SLUG."""
        one = sub.add_parser(action, parents=[connection], help=help)
        one.add_argument("slug", metavar="SLUG")
        return one

    run = benchmark_action("run", "run the sandbox task, or start a suite")
    run.add_argument("--model", required=True)
    run.add_argument("--provider", required=True)
    run.add_argument("--suite", choices=("sample", "full"))
    run.add_argument("--max-tasks", type=int, metavar="N", help="1-100 (with --suite)")
    run.add_argument("--max-steps", type=int, metavar="N", help="1-40 (default 24, the platform's)")
    source = run.add_mutually_exclusive_group()
    source.add_argument("--provider-key-env", metavar="VAR", help="the environment variable holding the provider key")
    source.add_argument("--provider-key-stdin", action="store_true", help="read the provider key from standard input")
    run.add_argument("--watch", action="store_true", help="poll the suite to its end, print the final record")
    add_json_option(run, "the record as JSON")
    run.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    runs = benchmark_action("runs", "your single runs and suite runs, newest first")
    add_json_option(runs)

    submit = benchmark_action("submit", "publish a completed suite run on the board")
    submit.add_argument("run_id", metavar="RUN_ID")
    submit.add_argument("--display-name", metavar="NAME", help="at most 80 characters")
    submit.add_argument("--notes", metavar="TEXT", help="at most 500 characters")
    add_json_option(submit)
    submit.add_argument("--yes", action="store_true")

    board = benchmark_action("board", "the community board, best mean score first")
    add_json_option(board)

    delete = benchmark_action("delete", "delete your row from the board")
    delete.add_argument("community_run_id", metavar="COMMUNITY_RUN_ID")
    delete.add_argument("--yes", action="store_true")
    return parser


# ---------------------------------------------------------------------------- input


def provider_key(args: argparse.Namespace, env: dict[str, str], stdin: TextIO) -> str | None:
    """The provider key from ``--provider-key-env VAR`` or standard input; None without either."""
    if args.provider_key_env:
        value = env.get(args.provider_key_env, "").strip()
        if not value:
            raise CommandError(f"${clip(args.provider_key_env, 80)} is not set or empty; nothing was sent", EXIT_USAGE)
    elif args.provider_key_stdin:
        value = (getpass.getpass("provider key: ") if stdin.isatty() else stdin.readline()).strip()
        if not value:
            raise CommandError("no provider key on standard input; nothing was sent", EXIT_USAGE)
    else:
        return None
    if value.startswith(BLOBFISH_KEY_PREFIX):
        raise CommandError(
            "that is a Blobfish key (bf_...), not a provider key (xai-..., sk-...); nothing was sent", EXIT_USAGE
        )
    return value


# ---------------------------------------------------------------------------- commands


def _progress_line(err: TextIO) -> Callable[[WatchEvent], None]:
    def show(event: WatchEvent) -> None:
        if event.error is not None:
            err.write(f"poll failed ({clip(event.error.message, 120)}); trying again in {event.wait:.0f} s\n")
            return
        record = event.record
        assert record is not None
        progress = record.progress
        done = f"{_number(progress.done if progress else None)}/{_number(progress.total if progress else None)}"
        eta = f", about {event.eta_s:.0f} s left" if event.eta_s is not None and event.wait is not None else ""
        nxt = f"; next poll in {event.wait:.0f} s" if event.wait is not None else ""
        err.write(f"{_cell(record.status, 12)} {done}{eta}{nxt}\n")
        err.flush()

    return show


def _exit_for(record: SuiteRun) -> int:
    return {"completed": EXIT_OK, "interrupted": EXIT_INTERRUPTED}.get(record.status or "", EXIT_FAILED)


async def _run(
    client: BenchmarkClient,
    args: argparse.Namespace,
    key: str | None,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    pace: Pace,
) -> int:
    if args.suite is None:
        if args.max_tasks is not None:
            raise CommandError("--max-tasks bounds a suite: add --suite sample|full", EXIT_USAGE)
        remember_slug(args.slug, "run")
        err.write(
            f"running the sandbox task (up to four minutes; Ctrl-C stops waiting, not the run: the platform "
            f"has no cancel, and blah-tui bench runs {_cell(args.slug, 60)} shows it when graded)\n"
        )
        err.flush()
        try:
            single = await client.start_single(
                args.slug, provider=args.provider, model=args.model, api_key=key, max_steps=args.max_steps
            )
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise CommandError(
                f"stopped waiting; the sandbox task goes on at the platform (it has no cancel): "
                f"blah-tui bench runs {_cell(args.slug, 60)} shows it when graded",
                130,
            ) from None
        print_json(single.to_json(), out) if args.json else print_single(single, out)
        return EXIT_OK
    try:
        started = await client.start_suite(
            args.slug,
            provider=args.provider,
            model=args.model,
            suite=args.suite,
            api_key=key,
            max_steps=args.max_steps,
            max_tasks=args.max_tasks,
        )
        record, location, first_wait = started.record, started.location, started.retry_after
        remember_slug(args.slug, "run")
        if started.settled_from_list:
            err.write(f"the answer was lost; the run list shows the suite started: {_cell(record.run_id, 60)}\n")
    except RunInProgressError as error:
        running = error.run_id
        if running is None:
            raise
        located = await client.find_run(running, [args.slug, *known_slugs()])
        on = located[0] if located else None
        where = "" if on in (None, args.slug) else f" on {_cell(on, 60)}"
        err.write(f"a suite run is already in progress for this account: {_cell(running, 60)}{where}\n")
        if on is None:
            err.write(
                "it runs on a benchmark this machine has not run yet; its id is above (one suite runs per "
                "account at a time)\n"
            )
            return ExitCode.REFUSED
        if not args.watch:
            err.write(f"follow it with: blah-tui bench runs {_cell(on, 60)}, or this command again with --watch\n")
            return ExitCode.REFUSED
        if not args.yes:
            confirm(f"follow {_cell(running, 60)} instead", args.yes, stdin, err)
        found = located[1] if located else None
        assert isinstance(found, SuiteRun)
        args.slug = on
        record, location, first_wait = found, None, found.poll_after_seconds
    if not args.watch:
        print_json(record.to_json(), out) if args.json else print_suite(record, out)
        return EXIT_OK
    path = client.poll_path(args.slug, record.run_id, location or record.self_url)
    result = await watch_suite(
        lambda: client.poll_suite(path),
        first_wait=first_wait,
        first_record=record,
        sleep=pace.sleep,
        clock=pace.clock,
        on_event=_progress_line(err),
    )
    print_json(result.record.to_json(), out) if args.json else print_suite(result.record, out)
    return _exit_for(result.record)


async def _runs(client: BenchmarkClient, args: argparse.Namespace, out: TextIO) -> None:
    listing = await client.list_runs(args.slug)
    print_json(listing.to_json(), out) if args.json else print_runs(listing, out)


async def _dispatch(
    args: argparse.Namespace,
    base_url: str,
    api_key: str | None,
    key: str | None,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    pace: Pace,
) -> int:
    async with BenchmarkClient(base_url, api_key) as client:
        command = args.bench_command
        if command == "run":
            return await _run(client, args, key, out, err, stdin, pace)
        if command == "runs":
            await _runs(client, args, out)
        elif command == "board":
            board = await client.board(args.slug)
            if args.json:
                from application.leaderboard.bench_error_bars import pass_rate_json

                shown = board.to_json()
                for row_json, row in zip(shown.get("community_runs") or [], board.community_runs, strict=True):
                    row_json["error_bars"] = pass_rate_json(row)
                print_json(shown, out)
            else:
                print_board(board.community_runs, out)
        elif command == "submit":
            row = await client.submit(args.slug, args.run_id, display_name=args.display_name, notes=args.notes)
            if args.json:
                print_json(row.to_json(), out)
            else:
                out.write(f"submitted {_cell(row.run_id, 40)} as community run {_cell(row.community_run_id, 40)}\n")
                if row.badge:
                    out.write(f"{one_line(row.badge, None)}\n")
        else:
            await client.delete(args.slug, args.community_run_id)
            out.write(
                f"deleted community run {_cell(args.community_run_id, 40)}; the suite run may be submitted again\n"
            )
    return EXIT_OK


def bench_main(
    argv: Sequence[str],
    *,
    given: argparse.Namespace | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    env: dict[str, str] | None = None,
    sleep: Sleep | None = None,
    clock: Callable[[], float] | None = None,
) -> int:
    """Run one `blah-tui bench` command; the exit code. ``sleep``/``clock``: the watch's
    (tests pass a fake pair; the default is real time)."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    env = dict(os.environ) if env is None else env
    args = parse_command(build_parser(), argv, given)
    try:
        connection = resolve_connection(getattr(args, "base_url", None), getattr(args, "profile", None))
    except ProfileError as error:
        return fail(PROG, str(error), EXIT_USAGE, err)
    problem = base_url_problem(connection.base_url)
    if problem:
        return fail(PROG, f"{connection.base_url!r} is not an address: {problem}", EXIT_USAGE, err)
    try:
        key = provider_key(args, env, stdin) if args.bench_command == "run" else None
        if args.bench_command == "run":
            what = f"a {args.suite} suite" if args.suite else "the sandbox task"
            confirm(f"run {what} of {clip(args.slug, 60)} with {clip(args.model, 60)}?", args.yes, stdin, err)
        elif args.bench_command == "submit":
            confirm(f"publish {clip(args.run_id, 60)} on the {clip(args.slug, 60)} board?", args.yes, stdin, err)
        elif args.bench_command == "delete":
            confirm(f"delete {clip(args.community_run_id, 60)} from the board?", args.yes, stdin, err)
        pace = Pace(sleep or asyncio.sleep, clock or time.monotonic)
        return asyncio.run(_dispatch(args, connection.base_url, connection.api_key, key, out, err, stdin, pace))
    except CommandError as error:
        return fail(PROG, str(error), error.code, err)
    except (KeyShapeError, MissingKeyError, UnsafePathError, BenchRefusedLocally) as error:
        return fail(PROG, error_line(error), EXIT_USAGE, err)
    except BlahError as error:
        return fail(PROG, error_line(error), exit_for(error), err)
    except ValueError as error:
        return fail(PROG, str(error), EXIT_USAGE, err)
    except KeyboardInterrupt:
        return fail(PROG, "interrupted", ExitCode.INTERRUPTED, err)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] bench ...` (:mod:`cli.tree`): the options typed before the action
    are its defaults."""
    return bench_main(argv, given=given)
