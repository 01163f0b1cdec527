"""The Blobfish community board's error bars (no Textual; the Community board tab and
`blah-tui bench board` share them).

What the platform gives decides what can be said, and nothing is invented:

- every row sends its counts (``graded``, ``passed``): its **pass rate** gets a Wilson interval
  from them (none when a count is missing or nothing was graded);
- a row's **mean score** is an average: it gets an interval, a paired test and a tier only when
  its per-task scores are known, that is for the person's own rows, whose suite runs
  (``GET .../runs``) list their tasks (``tasks: [{task_id, score}]``); tasks are matched across
  rows by ``task_id``. Every other row keeps its average, said to be one ("average only").
"""

from __future__ import annotations

from collections.abc import Sequence

from api_client.blobfish.benchmarks import BenchmarkClient
from api_client.blobfish.shapes_bench import CommunityRow, SuiteRun
from api_client.errors import BlahError
from common.format import DASH
from diagnosis.board_reading import BoardReading, read_board
from diagnosis.stats import Interval, wilson_interval

__all__ = [
    "community_reading",
    "load_own_runs",
    "pass_rate_cell",
    "pass_rate_interval",
    "pass_rate_json",
    "task_scores",
]


def _counts(row: CommunityRow) -> tuple[int, int] | None:
    """(passed, graded) when the row's counts allow a rate."""
    if row.graded is None or row.passed is None or row.graded <= 0 or not 0 <= row.passed <= row.graded:
        return None
    return row.passed, row.graded


def pass_rate_interval(row: CommunityRow) -> Interval | None:
    """Wilson interval of ``passed / graded`` (None when the counts do not allow one)."""
    counts = _counts(row)
    return None if counts is None else wilson_interval(*counts)


def pass_rate_cell(row: CommunityRow) -> str:
    """``70.0% [39.7–89.2]``; without counts the platform's rate and "no interval"; else a dash."""
    counts = _counts(row)
    if counts is None:
        return DASH if row.pass_rate is None else f"{row.pass_rate * 100:.1f}% (no interval)"
    low, high = wilson_interval(*counts)
    return f"{counts[0] / counts[1] * 100:.1f}% [{low * 100:.1f}–{high * 100:.1f}]"


def pass_rate_json(row: CommunityRow) -> dict[str, object]:
    """A row's pass rate for ``bench board --json``: the Wilson interval from its graded/passed
    counts, or why there is none (never an invented one)."""
    counts = _counts(row)
    if counts is None:
        return {"pass_rate": None, "why": "the board sends no usable graded/passed counts for this row: no interval"}
    low, high = wilson_interval(*counts)
    return {
        "pass_rate": {
            "estimate": counts[0] / counts[1],
            "low": low,
            "high": high,
            "level": 0.95,
            "method": "wilson",
            "passed": counts[0],
            "graded": counts[1],
        },
        "mean_score": "the board's average (it sends no per-task scores): no interval",
    }


def task_scores(run: SuiteRun) -> dict[str, float]:
    """A suite run's scored tasks: task id -> score."""
    return {
        task.task_id: float(task.score)
        for task in run.tasks or ()
        if task.task_id is not None and task.score is not None
    }


def community_reading(rows: Sequence[CommunityRow], own_runs: Sequence[SuiteRun]) -> BoardReading:
    """The board read as far as its data allows (see the module): rows keyed by community run id."""
    by_run = {run.run_id: task_scores(run) for run in own_runs}
    scores: dict[str, dict[str, float]] = {}
    averages: dict[str, float | None] = {}
    for row in rows:
        tasks = by_run.get(row.run_id or "") if row.mine else None
        if tasks:
            scores[row.community_run_id] = tasks
        else:
            averages[row.community_run_id] = row.mean_score
    return read_board(scores, averages=averages)


async def load_own_runs(client: BenchmarkClient, slug: str, rows: Sequence[CommunityRow]) -> list[SuiteRun]:
    """The person's suite runs behind their rows (none without such a row, or when they cannot
    be read: those rows keep their averages)."""
    if not any(row.mine for row in rows):
        return []
    try:
        return list((await client.list_runs(slug)).suite_runs)
    except BlahError:
        return []
