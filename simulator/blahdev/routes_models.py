"""Models, evals, search, infer, chat (queued jobs) and compare."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from simulator.blahdev import analysis
from simulator.blahdev import shapes as schemas
from simulator.blahdev.auth import Account
from simulator.blahdev.deps import answer_one, error_responses, jobs_of, model_or_404, world_of
from simulator.http import ApiError, json_response

router = APIRouter(tags=["models"])
E404 = error_responses(404)
AUTH = error_responses(401)
E422 = error_responses(422)

_URL = re.compile(r"^https?://[^\s/#?]+(?:[/?#]\S*)?$")
_OPENROUTER = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.:-]+$")
_OPENAI_COMPATIBLE = re.compile(r"^openai-compatible:https?://[^\s/#?]+\S*#\S+$")


def valid_inference_uri(uri: str) -> bool:
    return bool(_URL.match(uri) or _OPENROUTER.match(uri) or _OPENAI_COMPATIBLE.match(uri))


@router.get("/models", response_model=list[schemas.Model], summary="Every model (a bare array)")
async def list_models(request: Request) -> Response:
    world = world_of(request)
    with world.lock:
        return json_response(list(world.models.values()))


@router.get("/models/{model_id}", response_model=schemas.Model, responses=E404)
async def get_model(request: Request, model_id: str) -> Response:
    return json_response(model_or_404(world_of(request), model_id))


@router.post(
    "/models", status_code=201, response_model=schemas.Model, responses={**AUTH, **E422}, summary="Register a model"
)
async def register_model(request: Request, body: schemas.RegisterModel, account: Account) -> Response:
    """`inference_uri`: a full http(s) URL, an OpenRouter path `org/model`, or
    `openai-compatible:https://host#model-name`; anything else is 422. `api_key` is
    accepted and never returned. The new model has no known chat template."""
    if not valid_inference_uri(body.inference_uri):
        raise ApiError(
            422,
            "inference_uri must be a URL, an OpenRouter path like org/model, "
            "or openai-compatible:https://host#model-name",
        )
    model = world_of(request).register_model(
        account["user"], body.name, body.inference_uri, body.description, body.is_official
    )
    return json_response(model, 201)


@router.get("/evals", response_model=list[schemas.Eval], summary="Every eval (a bare array)")
async def list_evals(request: Request) -> Response:
    world = world_of(request)
    with world.lock:
        return json_response(list(world.evals.values()))


@router.get("/evals/{eval_id}", response_model=schemas.Eval, responses=E404, summary="One eval")
async def get_eval(request: Request, eval_id: str) -> Response:
    world = world_of(request)
    return answer_one(world, world.evals, eval_id, "eval")


@router.post(
    "/evals",
    status_code=201,
    response_model=schemas.Eval,
    responses={**AUTH, **E422},
    summary="Submit an eval (not run by the simulator's runs, which use the catalogue)",
)
async def create_eval(request: Request, body: schemas.NewEval, account: Account) -> Response:
    world = world_of(request)
    with world.lock:
        eval_id = world.new_id("ev-user")
        now = world.now()
        ev = {
            "id": eval_id,
            "name": body.name,
            "description": body.description,
            "prompt": body.prompt,
            "expected_behavior": body.expected_behavior,
            "eval_type": body.eval_type,
            "eval_criteria": body.eval_criteria,
            "submitted_by": account["user"],
            "created_at": now,
            "updated_at": now,
            "subject": None,
            "instruction_type": None,
        }
        world.evals[eval_id] = ev
    return json_response(ev, 201)


@router.get(
    "/search",
    response_model=schemas.SearchResults,
    responses=E422,
    summary="Models and evals whose id, name or description contain q",
)
async def search(request: Request, q: Annotated[str, Query(min_length=1, max_length=200)]) -> Response:
    return json_response(world_of(request).search(q))


@router.post(
    "/models/{model_id}/infer",
    response_model=schemas.InferResult,
    responses={**E404, **AUTH, **E422},
    summary='Call the model once (logged with source "test")',
)
async def infer(request: Request, model_id: str, body: schemas.InferRequest, _: Account) -> Response:
    """The prompt is sent as one user turn rendered in the model's own chat template
    (a transcript format when the template is unknown). Answers at once."""
    world = world_of(request)
    model_or_404(world, model_id)
    entry = world.infer(model_id, body.prompt, body.max_tokens)
    keys = (
        "model_id",
        "response",
        "error",
        "latency_ms",
        "finish_reason",
        "prompt_tokens",
        "completion_tokens",
        "max_tokens",
    )
    return json_response({**{k: entry[k] for k in keys}, "log_id": entry["id"]})


def _public_job(job: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in job.items() if not k.startswith("_")}


@router.post(
    "/chat",
    status_code=202,
    response_model=schemas.ChatJob,
    responses={**E404, **AUTH, **E422},
    summary="Queue a chat completion; poll /chat/jobs/{id}",
)
async def chat(request: Request, body: schemas.ChatRequest, _: Account) -> Response:
    """202 with a queued job; it runs after about a second (scaled by speed) and is logged
    with source "chat"; status then `completed` (or `failed` when the call errored)."""
    world = world_of(request)
    model_or_404(world, body.model_id)
    with world.lock:
        job_id = world.new_id("job")
        job: dict[str, Any] = {
            "id": job_id,
            "model_id": body.model_id,
            "status": "queued",
            "response": None,
            "error": None,
            "log_id": None,
            "created_at": world.now(),
            "completed_at": None,
            "_turns": [{"role": m.role, "content": m.content} for m in body.messages],
            "_max_tokens": body.max_tokens,
        }
        world.chat_jobs[job_id] = job
        public = _public_job(job)
    jobs_of(request).chat_job(job_id)
    return json_response(public, 202)


@router.get("/chat/jobs/{job_id}", response_model=schemas.ChatJob, responses=E404)
async def chat_job(request: Request, job_id: str) -> Response:
    world = world_of(request)
    return answer_one(world, world.chat_jobs, job_id, "chat job", _public_job)


@router.get(
    "/compare",
    response_model=schemas.Comparison,
    responses={**E404, **E422},
    summary="The same evals answered by 2-3 models",
)
async def compare(request: Request, model: Annotated[list[str], Query(description="Repeat 2-3 times.")]) -> Response:
    """One row per eval (one prompt each) that at least one of the models answered; each
    model's most recent result for that eval."""
    if not 2 <= len(model) <= 3 or len(set(model)) != len(model):
        raise ApiError(422, "compare needs 2 or 3 different models: ?model=A&model=B[&model=C]")
    world = world_of(request)
    for model_id in model:
        model_or_404(world, model_id)
    return json_response(analysis.compare(world, model))
