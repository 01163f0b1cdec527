"""Benchmark runs and the community board (contract sections 3-4) over ``benchmarks.py``.

``bf_`` key required on every route but the public board (where a key only adds ``mine``).
A provider ``api_key`` in a body serves that request only: it is never stored, echoed or logged.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import Response

from simulator.blobfish import shapes
from simulator.blobfish.auth import Caller, scope_of
from simulator.blobfish.benchmarks import BenchmarkStore, public
from simulator.blobfish.errors import BlobfishError
from simulator.http import json_response

router = APIRouter(tags=["Benchmark runs"])


class RunRequest(BaseModel):
    """The model request shape; ``suite`` makes it a background suite job."""

    model_config = ConfigDict(extra="ignore")
    provider: Annotated[str, Field(min_length=1, max_length=100)]
    model: Annotated[str, Field(min_length=1, max_length=200)]
    api_key: str | None = Field(default=None, repr=False)
    max_steps: Annotated[int, Field(ge=1, le=40)] = 24
    suite: Literal["sample", "full"] | None = None
    max_tasks: Annotated[int | None, Field(ge=1, le=100)] = None


class SubmitRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")
    display_name: str | None = None
    notes: str | None = None


def bench_of(request: Request) -> BenchmarkStore:
    store: BenchmarkStore = request.app.state.benchmarks
    return store


def _origin(request: Request) -> str:
    return str(request.base_url).rstrip("/")


@router.post("/benchmarks/{slug}/runs", summary="Run the sandbox task (201) or start a suite (202)")
async def start_run(request: Request, scope: Caller, slug: str, body: RunRequest) -> Response:
    store = bench_of(request)
    if body.suite is None:
        if body.max_tasks is not None:
            raise BlobfishError(400, shapes.ERROR_INVALID_REQUEST, "max_tasks bounds a suite; add suite")
        record = store.single_run(
            scope.name, _origin(request), slug, body.provider, body.model, body.api_key, body.max_steps
        )
        return json_response(record, 201)
    job = store.start_suite(
        scope.name,
        _origin(request),
        slug,
        body.provider,
        body.model,
        body.api_key,
        body.suite,
        body.max_steps,
        body.max_tasks,
    )
    retry_after = max(1, math.ceil(shapes.BENCH_RETRY_AFTER_S / store.speed))
    return json_response(public(job), 202, {"Location": job["links"]["self"], "Retry-After": str(retry_after)})


@router.get("/benchmarks/{slug}/runs", summary="The caller's single runs and suite jobs, newest first")
async def list_runs(request: Request, scope: Caller, slug: str) -> Response:
    return json_response(bench_of(request).list_runs(scope.name, slug))


@router.get("/benchmarks/{slug}/runs/{run_id}", summary="One run's whole record")
async def get_run(request: Request, scope: Caller, slug: str, run_id: str) -> Response:
    return json_response(bench_of(request).get_run(scope.name, slug, run_id))


@router.post(
    "/benchmarks/{slug}/runs/{run_id}/submit",
    status_code=201,
    summary="Publish a completed suite run on the community board, once",
)
async def submit(request: Request, scope: Caller, slug: str, run_id: str, body: SubmitRequest) -> Response:
    row = bench_of(request).submit(scope.name, _origin(request), slug, run_id, body.display_name, body.notes)
    return json_response(row, 201)


@router.get("/benchmarks/{slug}/community", summary="The community board (public), best mean score first")
async def community(request: Request, slug: str) -> Response:
    has_key = request.headers.get("x-api-key") is not None or request.headers.get("authorization") is not None
    viewer = scope_of(request).name if has_key else None
    return json_response(bench_of(request).community(viewer, slug))


@router.delete("/benchmarks/{slug}/community/{bcr_id}", summary="Delete your community row")
async def delete(request: Request, scope: Caller, slug: str, bcr_id: str) -> Response:
    return json_response(bench_of(request).delete(scope.name, slug, bcr_id))


@router.get("/benchmarks/{slug}/evidence/{session_id}", summary="ASSUMED: a session's evidence; 410 after 30 minutes")
async def evidence(request: Request, slug: str, session_id: str) -> Response:
    return json_response(bench_of(request).evidence(slug, session_id))
