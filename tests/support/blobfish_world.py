"""The seeded Blobfish world for screen tests, read in-process (no HTTP): an
``EvaluationSource`` over the simulator's own store, at a fixed instant so frames are stable."""

from __future__ import annotations

from typing import Any

from api_client.blobfish.shapes import Summary
from api_client.blobfish.shapes_evidence import Evaluation, parse_evaluation
from simulator.blobfish import shapes
from simulator.blobfish.seed import FORCED_PLANS, forced_index
from simulator.blobfish.store import EvaluationStore

ANCHOR_S = 1_795_000_000.0
""""Now" for the seeded history (2026-11-18): the same evaluations and times on every run."""


class StoreSource:
    """The demo account's evaluations straight from an ``EvaluationStore``, parsed as the client
    parses them (the store is this source's platform edge)."""

    platform = "blobfish"

    def __init__(self, store: EvaluationStore | None = None, newest: int | None = None) -> None:
        """``newest``: list only that many of the newest evaluations (a lighter world)."""
        self.store = store or EvaluationStore(seed=7, anchor_s=ANCHOR_S)
        self.newest = newest
        self.reads = 0

    async def list_evaluations(self) -> list[Summary]:
        out: list[dict[str, Any]] = []
        offset: int | None = 0
        while offset is not None:
            page, offset = self.store.page(self.store.account, offset, 100)
            out += page
        listed = out if self.newest is None else out[: self.newest]
        return [Summary.model_validate(summary) for summary in listed]

    async def get_evaluation(self, evaluation_id: str) -> Evaluation:
        self.reads += 1
        evaluation = self.store.get(self.store.account, evaluation_id)
        if evaluation is None:
            raise LookupError(evaluation_id)
        return parse_evaluation(shapes.detail(evaluation))

    def forced(self, outcome: str) -> dict[str, Any]:
        """The stored evaluation whose first rollout was forced to ``outcome`` (seed.FORCED_PLANS)."""
        n = next(i for i, plan in enumerate(FORCED_PLANS) if plan.forced == outcome)
        return self.store.account.evaluations[forced_index(n)]
