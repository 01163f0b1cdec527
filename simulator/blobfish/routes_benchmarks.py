"""Benchmark runs and the community board (contract sections 3-5): the next piece.

Not served yet: ``POST/GET /api/v1/benchmarks/{slug}/runs``, ``GET .../runs/{run_id}``,
``POST .../runs/{run_id}/submit``, ``GET/DELETE /api/v1/benchmarks/{slug}/community[/{bcr_id}]``.
They go on this router (``bf_`` key required except the public board), their state in a
module of their own beside ``store.py``, their assumed shapes in ``shapes.py``. Until then
these paths answer 404 ``not_found`` like any unknown path.
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["Benchmark runs (not yet simulated)"])
