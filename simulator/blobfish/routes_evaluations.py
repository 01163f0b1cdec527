"""The SDK-evaluation routes (contract section 2): list, detail, JSONL export, publish."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from simulator.blobfish import shapes
from simulator.blobfish.auth import Caller, store_of
from simulator.blobfish.envelope import MAX_BYTES, too_large
from simulator.blobfish.errors import BlobfishError
from simulator.blobfish.shapes import ERROR_INVALID_REQUEST, ERROR_NOT_FOUND
from simulator.http import json_response

router = APIRouter(tags=["SDK evaluations"])


@router.get("/evaluations", summary="The caller's evaluations, newest first, one page")
async def list_evaluations(
    request: Request,
    scope: Caller,
    limit: Annotated[
        int, Query(ge=1, description=f"page size; above {shapes.MAX_LIMIT} it is clamped")
    ] = shapes.DEFAULT_LIMIT,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Response:
    summaries, following = store_of(request).page(scope, offset, min(limit, shapes.MAX_LIMIT))
    return json_response(shapes.list_body(summaries, following))


@router.get("/evaluations/{evaluation_id}", summary="One evaluation's full evidence (JSON, or JSONL traces)")
async def get_evaluation(
    request: Request,
    scope: Caller,
    evaluation_id: str,
    format: Annotated[str, Query(description="json (default) or jsonl")] = "json",
) -> Response:
    if format not in ("json", "jsonl"):
        raise BlobfishError(400, ERROR_INVALID_REQUEST, "format must be json or jsonl")
    store = store_of(request)
    if format == "jsonl":
        lines = store.jsonl(scope, evaluation_id)
        if lines is None:
            raise BlobfishError(404, ERROR_NOT_FOUND, "no such evaluation")
        return Response(lines, media_type=shapes.JSONL_MEDIA_TYPE)
    evaluation = store.get(scope, evaluation_id)
    if evaluation is None:
        raise BlobfishError(404, ERROR_NOT_FOUND, "no such evaluation")
    return json_response(shapes.detail(evaluation))


async def _read_body(request: Request) -> bytes:
    """The body, refused with 413 as soon as it passes 1 MiB (it is not read any further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BYTES:
        raise too_large(int(declared))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BYTES:
            raise too_large(len(body))
    return bytes(body)


@router.post("/evaluations", status_code=201, summary="Publish one completed job (201 new, 200 identical retry)")
async def publish_evaluation(request: Request, scope: Caller) -> Response:
    raw = await _read_body(request)
    evaluation, created = store_of(request).publish(scope, raw)
    return json_response(shapes.receipt(evaluation, str(request.base_url)), 201 if created else 200)
