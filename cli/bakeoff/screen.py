"""`blah-tui bakeoff screen`: is there a cheaper model worth testing? (no Textual import)

    blah-tui bakeoff screen [--name N] [--sample-count N] [--candidate M ...] [--dataset ID] [--yes] [--json]

The queue fills the run in (``{"screening": true}``; only the flags above are honoured). It
spends money: confirmed on a terminal (``--yes`` otherwise), sent once (a lost answer is
looked for in the run list, never resent), then watched to its end (progress on stderr) and
its screening printed: the incumbent and its token shape, per candidate the similarity,
$/request, savings and the monthly projection, and the recommendation.

Exit codes (:class:`cli.exit_codes.ExitCode`): 0 the screening finished DONE (a "keep" is a
good outcome, not a failure); 1 the run ended ERROR or CANCELLED; 2 bad usage (nothing sent);
4 the queue could not be reached or refused the key (403 too); 5 the create's outcome is
unknown; 7 the queue refused (402 no funds, 422 nothing to screen, 400).
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TextIO

from application.bakeoffs.screening import screening_body
from cli.bakeoff.screen_print import print_screening
from cli.errors import EXIT_USAGE, CommandError
from cli.exit_codes import ExitCode
from cli.global_options import add_json_option
from common.safe_strings import clip

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

EXIT_OK, EXIT_FAILED = ExitCode.OK, ExitCode.NO
MAX_CANDIDATES = 6
Sleep = Callable[[float], Awaitable[None]]


def add_parser(sub: Any, connection: argparse.ArgumentParser) -> None:
    screen = sub.add_parser(
        "screen", parents=[connection], help="screen for a cheaper model (spends money; sent once; watched to the end)"
    )
    screen.add_argument("--name", help="1-80 characters (default: the queue's)")
    screen.add_argument("--sample-count", type=int, metavar="N", help="5-500 (default: up to 40 logged prompts)")
    screen.add_argument(
        "--candidate",
        action="append",
        metavar="MODEL",
        help="screen this model instead of the queue's pick; repeat, at most 6",
    )
    screen.add_argument("--dataset", metavar="ID", help="sample a managed dataset instead of live logs")
    screen.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    add_json_option(screen, "print the finished run as JSON")


def body_of(args: argparse.Namespace) -> dict[str, Any]:
    """The create body, checked here first (a bad value: exit 2, nothing sent)."""
    if args.name is not None and not 1 <= len(args.name.strip()) <= 80:
        raise CommandError("--name: 1 to 80 characters; nothing was sent", EXIT_USAGE)
    if args.sample_count is not None and not 5 <= args.sample_count <= 500:
        raise CommandError(
            f"--sample-count: a whole number 5..500, not {args.sample_count}; nothing was sent", EXIT_USAGE
        )
    candidates = [c.strip() for c in args.candidate or []]
    if any(not c for c in candidates):
        raise CommandError("--candidate: a model id is required; nothing was sent", EXIT_USAGE)
    if len(candidates) > MAX_CANDIDATES:
        raise CommandError(
            f"--candidate: at most {MAX_CANDIDATES}, not {len(candidates)}; nothing was sent", EXIT_USAGE
        )
    twice = sorted({c for c in candidates if candidates.count(c) > 1})
    if twice:
        raise CommandError(f"--candidate: {clip(twice[0], 80)} is given twice; nothing was sent", EXIT_USAGE)
    if args.dataset is not None and not args.dataset.strip():
        raise CommandError("--dataset: a dataset id is required; nothing was sent", EXIT_USAGE)
    return screening_body(
        name=args.name,
        sample_count=args.sample_count,
        candidates=candidates,
        dataset_id=args.dataset.strip() if args.dataset else None,
    )


def question(body: dict[str, Any]) -> str:
    """The confirmation: what runs and that it spends."""
    asked = []
    if body.get("candidate_models"):
        asked.append("candidates " + clip(", ".join(body["candidate_models"]), 200))
    else:
        asked.append("the cheapest model of each family other than your incumbent's")
    asked.append(f"{body['sample_count']} samples" if "sample_count" in body else "up to 40 logged prompts")
    if body.get("sample_filters"):
        asked.append("from dataset " + clip(str(body["sample_filters"]["dataset_id"]), 60))
    return (
        f"screen for a cheaper model ({'; '.join(asked)}; each candidate answers every prompt and is judged "
        "three times against your logged answers)? It spends money"
    )


async def run(
    client: ErrorbarClient,
    body: dict[str, Any],
    *,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    sleep: Sleep,
    print_json: Callable[[Any, TextIO], None],
) -> int:
    """Send once, watch to the end, print. Refusals propagate (the dispatcher maps them)."""
    from api_client.errorbar.client import wait_until_terminal

    created = await client.create_run(body)
    run_id = created.run.id
    if created.settled:
        err.write(f"the answer was lost; the run list shows it was queued: {clip(run_id, 60)}\n")
    err.write(f"screening {clip(run_id, 60)} queued; watching it to the end\n")
    err.flush()

    def line(polled: assumed.Run) -> None:
        ratio = "—" if polled.progress_ratio is None else f"{polled.progress_ratio * 100:.0f}%"
        err.write(f"{clip(polled.status or '?', 12)} {ratio}\n")
        err.flush()

    final = await wait_until_terminal(client, run_id, sleep=sleep, on_poll=line)
    if as_json:
        print_json(final.to_json(), out)
    else:
        print_screening(final, out)
    if final.status != "DONE":
        why = f" ({clip(final.error, 200)})" if final.error else ""
        err.write(f"blah-tui bakeoff: the screening ended {clip(final.status or '?', 12)}{why}: no result\n")
        return EXIT_FAILED
    return EXIT_OK
