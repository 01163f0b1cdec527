"""The Blobfish FastAPI application: SDK-evaluation and benchmark routes under /api/v1, OpenAPI at /api/spec."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from simulator.blobfish import routes_benchmarks, routes_evaluations
from simulator.blobfish.errors import install_error_handlers
from simulator.blobfish.benchmarks import BenchmarkStore
from simulator.blobfish.live import LivePublisher
from simulator.blobfish.store import EvaluationStore
from simulator.chaos import ChaosMiddleware, ChaosState
from simulator.request_log import RequestLog, RequestLogMiddleware

KEY_HEADERS = (b"authorization", b"x-api-key")
"""Blobfish keys travel in X-API-Key (or Authorization: Bearer)."""

DESCRIPTION = """\
A local, seeded simulation of Blobfish's SDK evaluations (blobfish-CONTRACT.md, section 2).
Every route needs `X-API-Key: bf_...` (or `Authorization: Bearer bf_...`): published jobs are
private. Errors are `{"error": "<code>", "message": "<text>"}`. What the contract leaves open
is assumed in `simulator/blobfish/shapes.py`. Benchmark runs and the community board
(sections 3-4) are simulated too; suites progress with simulated time.
"""


def create_app(store: EvaluationStore, publisher: LivePublisher, chaos: ChaosState,
               request_log: RequestLog | None = None, benchmarks: BenchmarkStore | None = None) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        publisher.start()
        try:
            yield
        finally:
            await publisher.stop()

    app = FastAPI(title="Blobfish simulator", version="0.1.0", description=DESCRIPTION,
                  openapi_url="/api/spec", docs_url="/docs", redoc_url=None, lifespan=lifespan)
    app.state.store = store
    app.state.benchmarks = benchmarks or BenchmarkStore(store.seed, 1.0)
    install_error_handlers(app)
    app.include_router(routes_evaluations.router, prefix="/api/v1")
    app.include_router(routes_benchmarks.router, prefix="/api/v1")
    app.add_middleware(ChaosMiddleware, state=chaos)
    if request_log is not None:  # outermost: it also sees the statuses chaos makes up
        app.add_middleware(RequestLogMiddleware, log=request_log, key_headers=KEY_HEADERS)
    return app
