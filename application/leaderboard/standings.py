"""The blah.dev leaderboard as people read it: each model's standing, best first, and its change
since that model's previous completed run (no Textual: the Leaderboard screen and
`blah-tui leaderboard` both use this).

The platform's leaderboard gives one row per model over that model's latest completed run
(``avg_score``, ``eval_count``, ``last_run_at``), so a run of one model moves only that model's
row. The change is computed per model: its results are fetched, grouped by run, and the mean
score over its scored results in its completed run before the latest one is compared with
``avg_score`` now. When the model has no earlier completed run, or its history could not be
loaded, that is said instead of a number.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api_client.blahdev.shapes import LeaderboardEntry, Result, Run
from api_client.errors import BlahError
from application.leaderboard.error_bars import leaderboard_reading
from common.format import DASH

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient
    from diagnosis.board_reading import BoardReading

__all__ = [
    "HISTORY_FETCHES",
    "Board",
    "ModelHistory",
    "Standing",
    "best_first",
    "load_board",
    "load_histories",
    "mean_score",
    "model_history",
    "standings",
]

HISTORY_FETCHES = 4
"""How many models' results are fetched at once (one request per model on the board)."""


@dataclass(frozen=True, slots=True)
class ModelHistory:
    """Where one model's standing comes from: its latest completed run and the one before."""

    current_run: Run | None  # the completed run the leaderboard's row is over (None: not found)
    previous_run: Run | None  # the model's completed run before that (None: it has none)
    previous_avg: float | None  # its mean score over its scored results there (None: none scored)
    current_results: tuple[Result, ...] = ()  # its results in current_run (the board's error bars)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entry: LeaderboardEntry
    history: ModelHistory | None  # None: the model's results could not be loaded

    @property
    def previous_avg(self) -> float | None:
        return self.history.previous_avg if self.history is not None else None

    @property
    def change(self) -> float | None:
        if self.entry.avg_score is None or self.previous_avg is None:
            return None
        return self.entry.avg_score - self.previous_avg

    def change_text(self) -> str:
        if self.history is None:
            return "couldn't load its runs"
        if self.history.previous_run is None:
            return "first run"
        change = self.change
        if change is None:
            return DASH
        return "±0.00" if abs(change) < 0.005 else f"{change:+.2f}"

    def to_json(self) -> dict[str, Any]:
        history = self.history
        return {
            "rank": self.rank,
            "model_id": self.entry.model_id,
            "model_name": self.entry.model_name,
            "avg_score": self.entry.avg_score,
            "eval_count": self.entry.eval_count,
            "last_run_at": self.entry.last_run_at,
            "current_run_id": history.current_run.id if history and history.current_run else None,
            "previous_run_id": history.previous_run.id if history and history.previous_run else None,
            "previous_avg": self.previous_avg,
            "change": self.change,
            "change_text": self.change_text(),
        }


@dataclass(frozen=True, slots=True)
class Board:
    """The standings and, when the runs could not be read, why no change is shown."""

    rows: list[Standing]
    runs_problem: BlahError | None = None
    reading: BoardReading | None = None  # intervals, tiers, MDE (``error_bars.leaderboard_reading``)


def _completion_key(run: Run) -> tuple[int, int]:
    done = run.completed_at if isinstance(run.completed_at, int) else -1
    start = run.started_at if isinstance(run.started_at, int) else -1
    return (done, start)


def mean_score(results: Iterable[Result]) -> float | None:
    """Mean over scored results (None when none is scored)."""
    scores = [r.score for r in results if r.score is not None]
    return sum(scores) / len(scores) if scores else None


def model_history(entry: LeaderboardEntry, results: Sequence[Result], runs: Sequence[Run]) -> ModelHistory:
    """The model's latest completed run (the one whose ``completed_at`` is the entry's
    ``last_run_at``, else its latest) and its completed run before that, from its results."""
    by_run: dict[str, list[Result]] = {}
    for result in results:
        if result.eval_run_id:
            by_run.setdefault(result.eval_run_id, []).append(result)
    own_runs = sorted(
        (r for r in runs if r.status == "completed" and r.id in by_run), key=_completion_key, reverse=True
    )
    if not own_runs:
        return ModelHistory(None, None, None)
    current = next((r for r in own_runs if r.completed_at == entry.last_run_at), own_runs[0])
    index = own_runs.index(current)
    previous = own_runs[index + 1] if index + 1 < len(own_runs) else None
    previous_avg = mean_score(by_run[previous.id]) if previous is not None else None
    return ModelHistory(current, previous, previous_avg, tuple(by_run[current.id]))


def best_first(entries: Sequence[LeaderboardEntry]) -> list[LeaderboardEntry]:
    """Highest ``avg_score`` first; models with no score last; ties keep the platform's order
    (which the contract says is already best first: this only guards a service that is not)."""
    indexed = list(enumerate(entries))
    indexed.sort(key=lambda pair: (pair[1].avg_score is None, -(pair[1].avg_score or 0.0), pair[0]))
    return [entry for _, entry in indexed]


def standings(entries: Sequence[LeaderboardEntry], histories: dict[str, ModelHistory | None]) -> list[Standing]:
    """Entries best first with rank and each model's own history (absent: None)."""
    return [
        Standing(rank=i, entry=entry, history=histories.get(entry.model_id))
        for i, entry in enumerate(best_first(entries), start=1)
    ]


async def load_histories(
    client: BlahClient, entries: Sequence[LeaderboardEntry], runs: Sequence[Run]
) -> dict[str, ModelHistory | None]:
    """Each entry's history; None for a model whose results could not be loaded."""
    gate = asyncio.Semaphore(HISTORY_FETCHES)

    async def one(entry: LeaderboardEntry) -> ModelHistory | None:
        async with gate:
            try:
                results = await client.list_results(entry.model_id)
            except BlahError:
                return None
        return model_history(entry, results, runs)

    found = await asyncio.gather(*(one(e) for e in entries))
    return {e.model_id: h for e, h in zip(entries, found, strict=True)}


async def load_board(client: BlahClient) -> Board:
    """``GET /leaderboard`` (its error propagates), then the runs and each model's history;
    when the runs cannot be read the rows have no change and ``runs_problem`` says why."""
    entries = await client.leaderboard()
    try:
        runs = await client.list_runs()
    except BlahError as error:
        rows = standings(entries, {})
        return Board(rows, runs_problem=error, reading=leaderboard_reading(rows))
    rows = standings(entries, await load_histories(client, entries, runs))
    return Board(rows, reading=leaderboard_reading(rows))
