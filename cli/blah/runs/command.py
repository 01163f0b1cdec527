"""`blah-tui runs`: one command run from its arguments to its exit code (:mod:`cli.tree` calls
``run``); the verbs are in :mod:`.verbs`."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from api_client.blahdev.client import BlahClient
from application.runs.blah.follow import Sleep
from cli.blah.connection import GlobalOptions, resolve, run_verb
from cli.blah.runs.parser import PROG, build_parser
from cli.blah.runs.verbs import Runs, confirm_write
from cli.global_options import parse_command

PACE: dict[str, Sleep] = {"sleep": asyncio.sleep}
"""The watch's wait between polls (tests put a quicker one here)."""


async def _dispatch(
    args: argparse.Namespace,
    base_url: str,
    api_key: str | None,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    sleep: Sleep,
    clock: Callable[[], float],
) -> int:
    async with BlahClient(base_url, api_key=api_key) as client:
        runs = Runs(client, args, base_url, out, err, stdin, sleep, clock)
        command = args.runs_command
        if command == "watch":
            return await runs.watch(args.run_id)
        handler = {
            "list": runs.list,
            "show": runs.show,
            "results": runs.results,
            "start": runs.start,
            "resume": runs.resume,
            "cancel": runs.cancel,
        }[command]
        return await handler()


def runs_main(
    argv: Sequence[str],
    globals_: GlobalOptions | None = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    sleep: Sleep | None = None,
    clock: Callable[[], float] | None = None,
) -> int:
    """Run one `blah-tui runs` command; the exit code. ``sleep``/``clock``: the watch's pace."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin
    args = parse_command(build_parser(), argv, (globals_ or GlobalOptions()).before())

    def body() -> int:
        connection = resolve(args, globals_ or GlobalOptions(), err)
        confirm_write(args, stdin, err)
        return asyncio.run(
            _dispatch(
                args,
                connection.base_url,
                connection.api_key,
                out,
                err,
                stdin,
                sleep or PACE["sleep"],
                clock or time.monotonic,
            )
        )

    return run_verb(PROG, body, err)


def run(argv: list[str], given: argparse.Namespace) -> int:
    """`blah-tui [GLOBAL ...] runs ...` (:mod:`cli.tree`)."""
    return runs_main(argv, GlobalOptions.of(given))
