"""`blah-tui bakeoff watch ID --stop-when-decided [--margin D] [--yes]`: watch a run and cancel
the rest once its verdict is settled (``application.bakeoffs.early_stop``).

Each poll prints the run's progress and every candidate's anytime-valid reading to stderr.
Once every candidate is decided it says "decided at N of M samples", what the rest would cost,
and asks (a terminal; ``--yes`` answers yes; elsewhere nothing is cancelled and the watch goes
on to the end). The cancel is sent once. Exit codes (:class:`cli.exit_codes.ExitCode`): 0 the
run ended DONE; 10 stopped early, decided (:data:`EXIT_DECIDED`: an answer, not an error); 1
ERROR or CANCELLED by someone else; 2 bad usage (a margin outside 0-1); 6 an unknown run; 4 the
queue unreachable or the key refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TextIO

from application.bakeoffs.cost import measured_costs
from application.bakeoffs.early_stop import saving_sentence, watch_until_decided
from cli.exit_codes import ExitCode
from common.safe_strings import clip
from diagnosis.early_stop import EarlyReading

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient

__all__ = ["EXIT_DECIDED", "watch_and_stop"]

EXIT_DECIDED = ExitCode.STOPPED_DECIDED
"""``--stop-when-decided`` cancelled the rest of a decided run."""


def _ask(question: str, yes: bool, stdin: TextIO, err: TextIO) -> bool:
    if yes:
        return True
    if not stdin.isatty():
        err.write("not a terminal and no --yes: nothing is cancelled; watching on to the end\n")
        return False
    err.write(f"{question} [y/N] ")
    err.flush()
    return stdin.readline().strip().lower() in ("y", "yes")


async def watch_and_stop(
    client: ErrorbarClient,
    run_id: str,
    *,
    margin: float | None,
    yes: bool,
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
    sleep: Callable[[float], Awaitable[None]],
    progress: Callable[[assumed.Run], str],
) -> int:
    """The watch (see the module docstring); the exit code."""
    costs = measured_costs(await client.list_runs())

    def line(run: assumed.Run, readings: list[EarlyReading]) -> None:
        err.write(f"{clip(run.status or '?', 12)} {progress(run)}\n")
        for reading in readings:
            err.write(f"  {reading.sentence()}\n")
        err.flush()

    async def confirm(readings: list[EarlyReading], saved: float | None) -> bool:
        err.write(saving_sentence(readings, saved) + "\n")
        return _ask(f"cancel the rest of {clip(run_id, 60)}?", yes, stdin, err)

    outcome = await watch_until_decided(
        client, run_id, margin=margin, sleep=sleep, confirm=confirm, costs=costs, on_poll=line
    )
    for note in outcome.notes:
        err.write(note + "\n")
    run = outcome.run
    if outcome.ending == "stopped_early":
        out.write(f"{clip(run.id, 60)} stopped early, decided (one cancel sent):\n")
        for reading in outcome.readings:
            out.write(f"  {reading.sentence()}\n")
        out.write(f"  {saving_sentence(outcome.readings, outcome.saved)}\n")
        return EXIT_DECIDED
    out.write(f"{clip(run.id, 60)} ended {clip(run.status or '?', 12)}\n")
    for reading in outcome.readings:
        out.write(f"  {reading.sentence()}\n")
    return 0 if run.status == "DONE" else 1
