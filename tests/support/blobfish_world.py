"""The seeded Blobfish world for screen tests, read in-process (no HTTP): an
``EvaluationSource`` over the simulator's own store, at a fixed instant so frames are stable."""

from __future__ import annotations

from typing import Any

from simulator.blobfish import shapes
from simulator.blobfish.seed import FORCED_PLANS, forced_index
from simulator.blobfish.store import EvaluationStore

ANCHOR_S = 1_795_000_000.0
""""Now" for the seeded history (2026-11-18): the same evaluations and times on every run."""


class StoreSource:
    """The demo account's evaluations straight from an ``EvaluationStore``."""

    platform = "blobfish"

    def __init__(self, store: EvaluationStore | None = None, newest: int | None = None) -> None:
        """``newest``: list only that many of the newest evaluations (a lighter world)."""
        self.store = store or EvaluationStore(seed=7, anchor_s=ANCHOR_S)
        self.newest = newest
        self.reads = 0

    async def list_evaluations(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        offset: int | None = 0
        while offset is not None:
            page, offset = self.store.page(self.store.account, offset, 100)
            out += page
        return out if self.newest is None else out[: self.newest]

    async def get_evaluation(self, evaluation_id: str) -> dict[str, Any]:
        self.reads += 1
        evaluation = self.store.get(self.store.account, evaluation_id)
        if evaluation is None:
            raise LookupError(evaluation_id)
        return shapes.detail(evaluation)

    def forced(self, outcome: str) -> dict[str, Any]:
        """The stored evaluation whose first rollout was forced to ``outcome`` (seed.FORCED_PLANS)."""
        n = next(i for i, plan in enumerate(FORCED_PLANS) if plan.forced == outcome)
        return self.store.account.evaluations[forced_index(n)]
