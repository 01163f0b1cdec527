"""The Blobfish community board as the screens and `blah-tui bench` say it (no Textual).

The wording of its honesty boundary (a self-run is never the official leaderboard), of each
row's coverage, and the two writes (publish a suite run, delete a row), each sent once: when
an answer is lost, the outcome stays unknown until the board has been read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from api_client.blobfish.benchmarks import NOT_YOURS, BenchmarkClient, BenchRefusedLocally, BoardRefusedError
from api_client.blobfish.shapes_bench import Board, CommunityRow, Coverage, RunList, SuiteRun
from api_client.errors import AuthError, BlahError, MissingKeyError, NotFoundError, OutcomeUnknownError
from common.format import DASH

EXAMPLE_SLUG = "counselbench-100"
"""The benchmark the platform's own page uses as its example (and the simulator serves)."""

DOCUMENTED_BADGE = (
    "self-run \u00b7 graded by the benchmark's own verifier \u00b7 not the frozen official suite unless suite:full"
)
"""The badge the platform's page says every community row carries, verbatim. Rows show the
badge the platform sent; this is what a confirmation shows before a row exists."""

HONESTY_LINE = (
    "Community board: self-runs published by their owners, graded by each benchmark's own "
    "verifier. NOT the official leaderboard (the Harbor run of the frozen release), and never "
    "merged into it."
)

NO_KEY_TO_WRITE = "needs a Blobfish key (bf_...); none is configured. Nothing was sent"


def coverage_sentence(coverage: Coverage | None) -> str:
    """Hosted tasks against the official suite, as the record says (or that it says nothing)."""
    if coverage is None or coverage.official_suite is None:
        return "coverage not recorded"
    hosted = DASH if coverage.hosted_tasks is None else str(coverage.hosted_tasks)
    if coverage.official_suite:
        return f"covers the official suite ({hosted} hosted tasks)"
    return f"self-run, not the official suite ({hosted} hosted tasks)"


def by_mean_score(rows: Sequence[CommunityRow]) -> list[CommunityRow]:
    """Best mean score first (as the platform sends them; kept in its order on ties); a row
    without a mean score last, never as 0."""
    return sorted(rows, key=lambda row: (row.mean_score is None, -(row.mean_score or 0.0)))


def publishable(runs: RunList) -> list[SuiteRun]:
    """The completed suite runs (newest first): the only ones the platform publishes."""
    return [run for run in runs.suite_runs if run.status == "completed"]


def sentence(text: str) -> str:
    """A client refusal (written to follow "bench: ") as a sentence on its own."""
    text = text.strip()
    return (text[:1].upper() + text[1:]) if text else text


WriteKind = Literal["done", "refused", "not_done", "unknown", "failed"]


@dataclass(frozen=True)
class BoardWrite:
    """What became of one publication or deletion.

    ``done``: it took effect (``settled`` when the answer was lost and the board showed it);
    ``refused``: the platform (or the local check) said no, in ``message``; ``not_done``: the
    answer was lost and the board shows it did not happen; ``unknown``: the answer was lost and
    the board could not be read; ``failed``: any other error."""

    kind: WriteKind
    message: str
    row: CommunityRow | None = None
    existing_id: str | None = None
    settled: bool = False


def _failure(error: BlahError, verb: str, done: str) -> BoardWrite:
    if isinstance(error, MissingKeyError):
        return BoardWrite("refused", f"{verb.capitalize()} {NO_KEY_TO_WRITE}.")
    if isinstance(error, AuthError):
        return BoardWrite("refused", f"Blobfish refused the key ({error.status}): nothing was {done}.")
    return BoardWrite("failed", f"{verb.capitalize()} failed: {error}")


async def _settle_by_board(
    client: BenchmarkClient, slug: str, advice: str, settle: Callable[[Board], BoardWrite]
) -> BoardWrite:
    """A write whose answer was lost: what the board now shows settles it (``settle``); a
    board that cannot be read leaves it "unknown" (``advice``: what to read before trying again)."""
    try:
        board = await client.board(slug)
    except BlahError as error:
        return BoardWrite(
            "unknown", f"The answer was lost and the board could not be read ({error}): outcome unknown. {advice}"
        )
    return settle(board)


async def publish_once(
    client: BenchmarkClient, slug: str, run_id: str, display_name: str | None, notes: str | None
) -> BoardWrite:
    """Submit ``run_id`` once. A lost answer is settled by reading the board (the person's row
    for this run there: it went through); it is never resent."""
    try:
        row = await client.submit(slug, run_id, display_name=display_name, notes=notes)
    except BenchRefusedLocally as error:
        return BoardWrite("refused", sentence(error.message))
    except BoardRefusedError as error:
        return BoardWrite("refused", sentence(error.message), existing_id=error.community_run_id)
    except OutcomeUnknownError:

        def published(board: Board) -> BoardWrite:
            mine = next((r for r in board.community_runs if r.run_id == run_id and r.mine), None)
            if mine is not None:
                return BoardWrite(
                    "done", "The answer was lost; the board shows it went through.", row=mine, settled=True
                )
            return BoardWrite(
                "not_done",
                "The answer was lost and the board does not show this run: it did not "
                "go through. You can publish it again.",
            )

        return await _settle_by_board(client, slug, "Read the board before publishing again.", published)
    except BlahError as error:
        return _failure(error, "publishing", "published")
    return BoardWrite("done", "Published.", row=row)


async def delete_once(client: BenchmarkClient, slug: str, community_run_id: str) -> BoardWrite:
    """Delete one of the person's rows once; a lost answer is settled by reading the board."""
    try:
        await client.delete(slug, community_run_id)
    except BoardRefusedError as error:
        return BoardWrite("refused", sentence(error.message))
    except OutcomeUnknownError:

        def deleted(board: Board) -> BoardWrite:
            if any(r.community_run_id == community_run_id for r in board.community_runs):
                return BoardWrite(
                    "not_done", "The answer was lost and the row is still on the board: it was not deleted."
                )
            return BoardWrite("done", "The answer was lost; the board shows the row is gone.", settled=True)

        return await _settle_by_board(client, slug, "Read the board to see whether the row is still there.", deleted)
    except BlahError as error:
        return _failure(error, "deleting", "deleted")
    return BoardWrite("done", "Deleted; the suite run may be published again.")


def board_error(error: BlahError, slug: str) -> str:
    """Why the board of ``slug`` could not be shown, in one sentence."""
    if isinstance(error, NotFoundError):
        return f"Blobfish has no benchmark {slug!r} (404): check the slug on the benchmark's page."
    return f"Couldn't load the board: {error}"


__all__ = [
    "DOCUMENTED_BADGE",
    "EXAMPLE_SLUG",
    "HONESTY_LINE",
    "NOT_YOURS",
    "BoardWrite",
    "board_error",
    "by_mean_score",
    "coverage_sentence",
    "delete_once",
    "publish_once",
    "publishable",
    "sentence",
]
