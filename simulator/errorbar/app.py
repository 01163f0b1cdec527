"""The errorbar FastAPI application: routes under /v1, OpenAPI at /v1/spec."""

from __future__ import annotations

from fastapi import FastAPI

from simulator.chaos import ChaosMiddleware, ChaosState
from simulator.errorbar import routes
from simulator.errorbar.errors import install_error_handlers
from simulator.errorbar.faults import FaultMiddleware, Faults
from simulator.errorbar.runs import RunStore
from simulator.request_log import RequestLog, RequestLogMiddleware

DESCRIPTION = """\
A local, seeded simulation of the errorbar eval-run queue (evalqueue-CONTRACT.md). Every route
needs `Authorization: Bearer sk_...`. Errors are `{"error": {"message", "type", "code"}}`; the
gate's 412 is a verdict body. Runs progress with simulated time; results are computed from the
per-sample verdicts of both orderings.
"""


def create_app(store: RunStore, chaos: ChaosState, faults: Faults, request_log: RequestLog | None = None) -> FastAPI:
    app = FastAPI(title="errorbar eval-run queue simulator", version="0.1.0", description=DESCRIPTION,
                  openapi_url="/v1/spec", docs_url="/docs", redoc_url=None)
    app.state.store = store
    install_error_handlers(app)
    app.include_router(routes.router, prefix="/v1")
    app.add_middleware(FaultMiddleware, faults=faults)
    app.add_middleware(ChaosMiddleware, state=chaos, prefix="/v1")
    if request_log is not None:  # outermost: it also sees the statuses faults make up
        app.add_middleware(RequestLogMiddleware, log=request_log)
    return app
