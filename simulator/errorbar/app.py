"""The errorbar FastAPI application: routes under /v1, OpenAPI at /v1/spec."""

from __future__ import annotations

from fastapi import FastAPI

from simulator.chaos import ChaosState
from simulator.errorbar import routes
from simulator.errorbar.errors import install_error_handlers
from simulator.errorbar.faults import FaultMiddleware, Faults
from simulator.errorbar.runs import RunStore
from simulator.platform_app import platform_app
from simulator.request_log import RequestLog

DESCRIPTION = """\
A local, seeded simulation of the errorbar eval-run queue (evalqueue-CONTRACT.md). Every route
needs `Authorization: Bearer sk_...`. Errors are `{"error": {"message", "type", "code"}}`; the
gate's 412 is a verdict body. Runs progress with simulated time; results are computed from the
per-sample verdicts of both orderings.
"""


def create_app(store: RunStore, chaos: ChaosState, faults: Faults, request_log: RequestLog | None = None) -> FastAPI:
    return platform_app(
        title="errorbar eval-run queue simulator",
        version="0.1.0",
        description=DESCRIPTION,
        spec_url="/v1/spec",
        prefix="/v1",
        routers=[routes.router],
        install_error_handlers=install_error_handlers,
        chaos=chaos,
        request_log=request_log,
        state={"store": store},
        inner_middleware=[(FaultMiddleware, {"faults": faults})],
    )
