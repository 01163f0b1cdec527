"""Training sets (with uploads to the simulator itself) and BLAH Lens."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import orjson
from fastapi import APIRouter, Request
from starlette.responses import Response, StreamingResponse

from simulator.blahdev import lens, training
from simulator.blahdev import shapes as schemas
from simulator.blahdev.auth import Account
from simulator.blahdev.deps import answer_one, error_responses, jobs_of, model_or_404, world_of
from simulator.http import ApiError, json_response

router = APIRouter(tags=["training sets, lens"])
E404 = error_responses(404)
AUTH = error_responses(401)
LENS_LINE_SECONDS = 0.03


@router.get(
    "/training-sets",
    response_model=list[schemas.TrainingSet],
    summary="Every training set, newest first (a bare array)",
)
async def list_sets(request: Request) -> Response:
    world = world_of(request)
    with world.lock:
        items = sorted(world.training_sets.values(), key=lambda t: (t["created_at"], t["id"]), reverse=True)
        return json_response([dict(t) for t in items])


@router.get("/training-sets/{set_id}", response_model=schemas.TrainingSet, responses=E404)
async def get_set(request: Request, set_id: str) -> Response:
    world = world_of(request)
    return answer_one(world, world.training_sets, set_id, "training set", dict)


@router.post(
    "/training-sets/request-upload",
    status_code=201,
    response_model=schemas.UploadTicket,
    responses=error_responses(401, 413, 422),
    summary="Get a URL to PUT a JSONL file to",
)
async def request_upload(request: Request, body: schemas.UploadRequest, _: Account) -> Response:
    """Creates the set with status `pending_upload`. PUT the file's bytes to `upload_url`
    (on the simulator itself, valid one hour, at most `max_bytes` = 10 MB); each non-empty
    line must be a JSON object. Then the set is `ready` with `example_count`."""
    try:
        ticket = training.request_upload(
            world_of(request), body.name, body.filename, body.size_bytes, str(request.base_url)
        )
    except training.UploadError as exc:
        raise ApiError(exc.status, exc.message) from exc
    return json_response(ticket, 201)


@router.put(
    "/uploads/{token}",
    response_model=schemas.TrainingSet,
    responses=error_responses(404, 410, 413, 422),
    summary="Upload target of a ticket (the token authorises it; no key needed)",
)
async def put_upload(request: Request, token: str) -> Response:
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > training.MAX_UPLOAD_BYTES:
            raise ApiError(413, f"upload exceeds the {training.MAX_UPLOAD_BYTES}-byte limit")
    try:
        return json_response(training.store_upload(world_of(request), token, bytes(body)))
    except training.UploadError as exc:
        raise ApiError(exc.status, exc.message) from exc


@router.get(
    "/models/{model_id}/lens",
    response_model=schemas.LensBundle,
    responses=E404,
    summary="The model's Lens bundle ({available: false} when it has none)",
)
async def get_lens(request: Request, model_id: str) -> Response:
    """Only the person's model publishes a bundle. Any other known model answers 200
    `{"model_id", "available": false}`; an unknown model 404."""
    world = world_of(request)
    model_or_404(world, model_id)
    return json_response(lens.bundle(world, model_id))


@router.post(
    "/models/{model_id}/lens/analyze",
    responses={
        200: {
            "content": {"application/x-ndjson": {}},
            "description": "NDJSON LensEvent lines: `start` {layers, "
            "tokens}, per new token one `layer` {layer, position, top_k: [{token, prob}]} per layer then "
            "`token` {position, token}, finally `done`.",
        },
        **E404,
    },
    summary="Stream what each layer predicts (NDJSON)",
    response_class=StreamingResponse,
)
async def analyze(request: Request, model_id: str, body: schemas.LensAnalyze) -> Response:
    """A model without a bundle: 404 `{"error": "model has no Lens bundle"}`. Lines are
    spaced by a few tens of milliseconds (scaled by speed). No key needed (a read)."""
    world = world_of(request)
    model_or_404(world, model_id)
    if not lens.has_bundle(world, model_id):
        raise ApiError(404, "model has no Lens bundle")
    speed = jobs_of(request).speed
    events = list(lens.analyze(world, body.prompt, body.max_new_tokens, body.top_k))

    async def lines() -> AsyncIterator[bytes]:
        for n, event in enumerate(events):
            if n:
                await asyncio.sleep(LENS_LINE_SECONDS / speed)
            yield orjson.dumps(event) + b"\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")
