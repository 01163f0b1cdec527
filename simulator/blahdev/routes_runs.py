"""Runs, results and the leaderboard."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request
from starlette.responses import Response

from simulator.blahdev import leaderboard as standings
from simulator.blahdev import runs
from simulator.blahdev import shapes as schemas
from simulator.blahdev.auth import Council
from simulator.blahdev.deps import answer_one, error_responses, jobs_of, model_or_404, world_of
from simulator.blahdev.world import Json, World
from simulator.http import ApiError, json_response, not_found

router = APIRouter(tags=["runs"])
E404 = error_responses(404)
COUNCIL = error_responses(401, 403)
E409 = error_responses(409)


def _run_or_404(world: World, run_id: str) -> Json:
    with world.lock:
        run = world.runs.get(run_id)
        if run is None:
            raise not_found(f"run {run_id!r}")
        return dict(run)


@router.get("/runs", response_model=list[schemas.Run], summary="Every run, newest first (a bare array)")
async def list_runs(request: Request) -> Response:
    return json_response([dict(r) for r in runs.runs_newest_first(world_of(request))])


@router.get("/runs/{run_id}", response_model=schemas.Run, responses=E404)
async def get_run(request: Request, run_id: str) -> Response:
    return json_response(_run_or_404(world_of(request), run_id))


@router.get(
    "/runs/{run_id}/results",
    response_model=list[schemas.Result],
    responses=E404,
    summary="Every result of a run, oldest first",
)
async def run_results(request: Request, run_id: str) -> Response:
    return _results(request, run_id=run_id)


def _results(request: Request, *, run_id: str | None = None, model_id: str | None = None) -> Response:
    """Every result of the run or the model named, oldest first; 404 when there is no such one."""
    world = world_of(request)
    if run_id is not None:
        _run_or_404(world, run_id)
    if model_id is not None:
        model_or_404(world, model_id)
    return json_response(runs.results_where(world, run_id=run_id, model_id=model_id))


def _change_run(request: Request, run_id: str, change: Callable[[World, str], Json]) -> Json:
    """The run after ``change`` (resume, cancel); 404 when there is no such run, 409 when its
    state does not allow the change."""
    world = world_of(request)
    _run_or_404(world, run_id)
    try:
        return change(world, run_id)
    except runs.RunStateError as exc:
        raise ApiError(409, str(exc)) from exc


@router.post(
    "/runs",
    status_code=201,
    response_model=schemas.Run,
    responses={**COUNCIL, **E404},
    summary="Start a run of every eval for these models (council tier)",
)
async def start_run(request: Request, body: schemas.StartRun, _: Council) -> Response:
    """201 with the queued run; it turns `running` with its first result and progresses in the
    background (about a minute per model at speed 1), then `completed` with completed_at set,
    firing `run.completed` webhooks."""
    world = world_of(request)
    for model_id in body.model_ids:
        model_or_404(world, model_id)
    run = runs.create_run(world, list(dict.fromkeys(body.model_ids)))
    jobs_of(request).start_run(run["id"])
    return json_response(dict(run), 201)


@router.post(
    "/runs/{run_id}/resume",
    response_model=schemas.Run,
    responses={**COUNCIL, **E404, **E409},
    summary="Continue a stalled or failed run without redoing finished evals (council tier)",
)
async def resume_run(request: Request, run_id: str, _: Council) -> Response:
    run = _change_run(request, run_id, runs.resume_run)
    jobs_of(request).start_run(run_id)
    return json_response(run)


@router.post(
    "/runs/{run_id}/cancel",
    response_model=schemas.Run,
    responses={**COUNCIL, **E404, **E409},
    summary="Stop a queued or running run (council tier)",
)
async def cancel_run(request: Request, run_id: str, _: Council) -> Response:
    return json_response(_change_run(request, run_id, runs.cancel_run))


@router.get(
    "/results/{result_id}",
    response_model=schemas.Result,
    responses=E404,
    summary="One result with the judge's score_details",
)
async def get_result(request: Request, result_id: str) -> Response:
    world = world_of(request)
    return answer_one(world, world.results, result_id, "result")


@router.get(
    "/models/{model_id}/results",
    response_model=list[schemas.Result],
    responses=E404,
    summary="Every result of a model, oldest first (a bare array)",
)
async def model_results(request: Request, model_id: str) -> Response:
    return _results(request, model_id=model_id)


@router.get(
    "/leaderboard",
    response_model=list[schemas.LeaderboardEntry],
    summary="Standings per model over its latest completed run, best first",
)
async def leaderboard(request: Request) -> Response:
    """One row per model: its latest run with status `completed` (stalled/failed/running runs
    do not count); last_run_at is that run's completed_at. avg_score is over the model's
    scored results there (failed calls have no score); eval_count counts distinct evals
    scored; models with no score are listed last with avg_score null."""
    return json_response(standings.leaderboard(world_of(request)))
