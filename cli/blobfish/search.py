"""`blah-tui blobfish search TEXT [--json] [--limit N]`: full-text search over the rollout steps
of every evaluation published with the profile's key (no Textual import).

The steps are first brought into the Blobfish profile's own archive
(``application.evaluations.rollout_steps``: prompt and final answer indexed, as blah.dev calls are), then
searched there: literal terms, all required. A table shows each step's evaluation, rollout,
task and text made inert; ``--json`` prints the matching steps verbatim, and nothing else, on
standard output.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import TYPE_CHECKING, TextIO

from cli.exit_codes import ExitCode
from cli.global_options import add_json_option
from cli.output import cell, table
from common.safe_strings import inert_json

if TYPE_CHECKING:  # imported where used: `blobfish export` builds this parser too, and
    # should not pay for the archive and the steps' index (~40 ms of its start-up)
    from api_client.blobfish import BlobfishClient
    from application.evaluations.rollout_steps import StepHit
    from cli.parsing import OneLineParser

SEARCH_HEADERS = ("evaluation", "rollout", "task", "step", "prompt", "answer")


class SearchProblem(Exception):
    """One line for standard error, and the exit code (`blah-tui blobfish` prints it)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def add_search_parser(sub: argparse._SubParsersAction[OneLineParser], connection: OneLineParser) -> None:
    search = sub.add_parser(
        "search",
        parents=[connection],
        help="find rollout steps by their prompt or answer (full text, in the profile's archive)",
    )
    search.add_argument("text", metavar="TEXT", help="the words to find (all of them, literally)")
    add_json_option(search, "the matching steps as JSON")
    search.add_argument("--limit", type=int, default=100, metavar="N", help="show at most N steps (default 100)")


def _row(hit: StepHit) -> list[str]:
    return [
        cell(hit.evaluation_id, 36),
        cell(hit.rollout_id, 16),
        cell(hit.task_id, 28),
        str(hit.step),
        cell(hit.prompt, 50),
        cell(hit.final_answer, 30),
    ]


async def run_search(
    client: BlobfishClient, args: argparse.Namespace, out: TextIO, *, profile: str, origin: str
) -> None:
    """Bring the steps of ``profile`` (at ``origin``) into its archive, then search them.
    Raises :class:`SearchProblem`; the platform's errors propagate as the client raises them."""
    from api_client.archives.archive import ArchiveError
    from application.evaluations.rollout_steps import (
        describe,
        ingest_evaluations,
        open_steps_archive,
        search_steps,
    )
    from application.session.paths import data_dir

    if not args.text.strip():
        raise SearchProblem("give the words to search for", ExitCode.USAGE)
    if args.limit < 1:
        raise SearchProblem("--limit must be at least 1", ExitCode.USAGE)
    try:
        archive = await asyncio.to_thread(open_steps_archive, data_dir(), profile, origin)
    except (ArchiveError, OSError) as error:
        raise SearchProblem(f"the local archive can't be used ({error})", 1) from None
    try:
        stats = await ingest_evaluations(client, archive)
        count, hits = await asyncio.to_thread(search_steps, archive, args.text, limit=args.limit)
    finally:
        archive.close()
    if args.json:
        out.write(inert_json(json.dumps([hit.as_json() for hit in hits], ensure_ascii=False, indent=2)) + "\n")
        return
    if hits:
        table(SEARCH_HEADERS, [_row(hit) for hit in hits], out, numeric={3})
    shown = f" (showing {len(hits)})" if len(hits) < count else ""
    out.write(
        f"{count} step{'s' if count != 1 else ''} match{'es' if count == 1 else ''}{shown}; "
        f"searched {describe(stats)}\n"
    )
