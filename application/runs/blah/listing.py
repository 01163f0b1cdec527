"""Which runs to show: a model's runs, and the Runs list folded to what a person reads (no
Textual; `blah-tui runs list` and the Runs screen both use these).

A model's runs: the simulator lists ``model_ids`` on each run, the live service does not
(CONTRACT.md: Run is ``{id, started_at, completed_at, status, total_evals, total_models,
completed_count, error}``). So a run without ``model_ids`` is the model's when one of the
model's results (``GET /models/{id}/results``) names it in ``eval_run_id``; that read is made
only when some run lacks ``model_ids``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from api_client.blahdev.shapes import Run
from application.runs.blah.statuses import ACTIVE_STATUSES

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["RECENT_RUNS", "FoldedRuns", "fold_runs", "runs_of_model"]

RECENT_RUNS = 15
"""Ended runs the Runs list shows before folding the older ones into one line."""


async def runs_of_model(client: BlahClient, model_id: str) -> list[Run]:
    """``GET /runs`` (newest first) kept to the runs ``model_id`` took part in."""
    runs = await client.list_runs()
    if all(run.model_ids is not None for run in runs):
        return [run for run in runs if model_id in (run.model_ids or ())]
    results = await client.list_results(model_id)
    with_results = {r.eval_run_id for r in results if r.eval_run_id}
    return [run for run in runs if (model_id in run.model_ids if run.model_ids is not None else run.id in with_results)]


@dataclass(frozen=True, slots=True)
class FoldedRuns:
    shown: list[Run]
    older: list[Run]
    """Ended runs beyond the most recent :data:`RECENT_RUNS`, not listed one per row."""

    def older_summary(self) -> str:
        if not self.older:
            return ""
        counts: dict[str, int] = {}
        for run in self.older:
            counts[run.status or "unknown"] = counts.get(run.status or "unknown", 0) + 1
        parts = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        return f"{len(self.older)} older runs folded ({parts})"


def fold_runs(
    runs: Sequence[Run], *, recent: int = RECENT_RUNS, show_all: bool = False, keep: str | None = None
) -> FoldedRuns:
    """Every active run, plus the ``recent`` newest ended runs (``runs`` newest first); the rest
    are folded. ``keep``: a run id always shown (the one the cursor is on)."""
    if show_all:
        return FoldedRuns(list(runs), [])
    shown: list[Run] = []
    older: list[Run] = []
    ended = 0
    for run in runs:
        if run.status in ACTIVE_STATUSES:
            shown.append(run)
        elif ended < recent:
            ended += 1
            shown.append(run)
        elif run.id == keep:
            shown.append(run)
        else:
            older.append(run)
    return FoldedRuns(shown, older)
