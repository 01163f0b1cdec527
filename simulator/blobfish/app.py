"""The Blobfish FastAPI application: SDK-evaluation and benchmark routes under /api/v1, OpenAPI at /api/spec."""

from __future__ import annotations

from fastapi import FastAPI

from simulator.blobfish import routes_benchmarks, routes_evaluations
from simulator.blobfish.benchmarks import BenchmarkStore
from simulator.blobfish.errors import install_error_handlers
from simulator.blobfish.jsonl_fast_path import JsonlFastPath
from simulator.blobfish.live import LivePublisher
from simulator.blobfish.store import EvaluationStore
from simulator.chaos import ChaosState
from simulator.platform_app import platform_app
from simulator.request_log import RequestLog

PREFIX = "/api/v1"
KEY_HEADERS = (b"authorization", b"x-api-key")
"""Blobfish keys travel in X-API-Key (or Authorization: Bearer)."""

DESCRIPTION = """\
A local, seeded simulation of Blobfish's SDK evaluations (blobfish-CONTRACT.md, section 2).
Every route needs `X-API-Key: bf_...` (or `Authorization: Bearer bf_...`): published jobs are
private. Errors are `{"error": "<code>", "message": "<text>"}`. What the contract leaves open
is assumed in `simulator/blobfish/shapes.py`. Benchmark runs and the community board
(sections 3-4) are simulated too; suites progress with simulated time.
"""


def create_app(
    store: EvaluationStore,
    publisher: LivePublisher,
    chaos: ChaosState,
    request_log: RequestLog | None = None,
    benchmarks: BenchmarkStore | None = None,
    jsonl_fast_path: bool = True,
) -> FastAPI:
    """``jsonl_fast_path``: the evaluation JSONL route's plain good request answered before
    FastAPI's routing (``jsonl_fast_path.py``; the same answers, tests compare both ways)."""
    return platform_app(
        title="Blobfish simulator",
        version="0.1.0",
        description=DESCRIPTION,
        spec_url="/api/spec",
        prefix=PREFIX,
        routers=[routes_evaluations.router, routes_benchmarks.router],
        install_error_handlers=install_error_handlers,
        chaos=chaos,
        request_log=request_log,
        state={"store": store, "benchmarks": benchmarks or BenchmarkStore(store.seed, 1.0)},
        background=publisher,
        key_headers=KEY_HEADERS,
        inner_middleware=[(JsonlFastPath, {"store": store, "prefix": PREFIX})] if jsonl_fast_path else [],
    )
