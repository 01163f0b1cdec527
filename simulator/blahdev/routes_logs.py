"""Logs, diagnose, failure clusters and health of one model."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from simulator.blahdev import analysis
from simulator.blahdev import shapes as schemas
from simulator.blahdev.auth import Council
from simulator.blahdev.deps import error_responses, model_or_404, world_of
from simulator.http import json_response, not_found

router = APIRouter(tags=["logs"])
E404 = error_responses(404)
E422 = error_responses(422)


@router.get(
    "/models/{model_id}/logs",
    response_model=schemas.LogPage,
    responses={**E404, **E422},
    summary="A page of a model's calls, newest first",
)
async def get_logs(
    request: Request,
    model_id: str,
    source: Literal["eval", "chatroom", "chat", "test"] | None = None,
    since: Annotated[int | None, Query(description="Only entries with created_at > since (ms).")] = None,
    before: Annotated[int | None, Query(description="Only entries with created_at < before (ms).")] = None,
    errors_only: bool = False,
    limit: Annotated[int, Query(ge=1, le=500, description="1-500; the newest `limit` matches.")] = 50,
    stats: Annotated[bool, Query(description="Add totals over ALL matching entries.")] = False,
) -> Response:
    """CONTRACT semantics: `next_since` is the newest returned created_at (the request's
    `since` when the page is empty), `next_before` the oldest (null when empty). At most 300
    entries of one model share a millisecond."""
    world = world_of(request)
    model_or_404(world, model_id)
    page = world.query_logs(
        model_id, source=source, since=since, before=before, errors_only=errors_only, limit=limit, stats=stats
    )
    return json_response(page)


@router.get("/logs/{log_id}", response_model=schemas.LogEntry, responses=E404, summary="One call in full")
async def get_log(request: Request, log_id: str) -> Response:
    entry = world_of(request).log(log_id)
    if entry is None:
        raise not_found(f"log {log_id!r}")
    return json_response(entry)


@router.get(
    "/models/{model_id}/diagnose",
    response_model=schemas.Diagnosis,
    responses=E404,
    summary="The platform's own (naive) failure summary",
)
async def get_diagnose(request: Request, model_id: str) -> Response:
    """Over the newest 1000 calls. Heuristics, deliberately simple: loop = one 20-char chunk
    (at offsets 0, 20, 40...) occurring 4+ times; truncation = finish_reason "length";
    empty = response == "" exactly; continuation = the reply starts lowercase. It misses
    whitespace-only replies, template leaks and paragraph loops. All four kinds are always
    listed, with count 0 when nothing matched."""
    world = world_of(request)
    model_or_404(world, model_id)
    return json_response(analysis.diagnose(world, model_id))


@router.post(
    "/models/{model_id}/failure-clusters",
    response_model=schemas.FailureClusters,
    responses=error_responses(401, 403, 404),
    summary="Group the failures (council tier; spends a judge call)",
)
async def post_failure_clusters(request: Request, model_id: str, _: Council) -> Response:
    """Over the newest 1000 calls; clusters biggest first, each with up to 50 log ids (newest first)."""
    world = world_of(request)
    model_or_404(world, model_id)
    return json_response(analysis.failure_clusters(world, model_id))


@router.get(
    "/models/{model_id}/health",
    response_model=schemas.Health,
    responses={**E404, **E422},
    summary="Recent health checks, newest first",
)
async def get_health(
    request: Request,
    model_id: str,
    limit: Annotated[int, Query(ge=1, le=2000, description="Checks to return (every 5 min).")] = 600,
) -> Response:
    world = world_of(request)
    model_or_404(world, model_id)
    return json_response(world.health_of(model_id, limit))
