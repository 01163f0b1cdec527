"""Eval runs and their results: creating, progressing, stalling, failing, resuming, cancelling.

A run covers every eval for every model in it. As on the live platform an eval is one
prompt, ``total_evals`` counts evals, and progress is ``completed_count`` of
``total_evals * total_models``: each completed (eval, model) unit is one logged call (source
``eval``) plus one Result.
"""

from __future__ import annotations

import json

from simulator.blahdev import catalog
from simulator.blahdev.scorer import judge
from simulator.blahdev.small_model import stable_rng
from simulator.blahdev.world import Json, World, turns_for

ACTIVE = ("queued", "running")
RESUMABLE = ("stalled", "failed")


class RunStateError(Exception):
    """The run is not in a state that allows the operation (HTTP 409)."""


def create_run(world: World, model_ids: list[str], at: int | None = None) -> Json:
    with world.lock:
        run_id = world.new_id("run")
        pairs = [(ev.id, m) for ev in catalog.EVALS for m in model_ids]
        run: Json = {
            "id": run_id,
            "started_at": at if at is not None else world.now(),
            "completed_at": None,
            "status": "queued",
            "total_evals": len(catalog.EVALS),
            "total_models": len(model_ids),
            "completed_count": 0,
            "error": None,
            "model_ids": list(model_ids),
        }
        world.runs[run_id] = run
        world.run_state[run_id] = {"pairs": pairs, "done": set()}
        return run


def pending_pairs(world: World, run_id: str) -> list[tuple[str, str]]:
    with world.lock:
        state = world.run_state[run_id]
        return [p for p in state["pairs"] if p not in state["done"]]


def run_eval(world: World, run_id: str, eval_id: str, model_id: str, at: int | None = None) -> Json | None:
    """Ask ``model_id`` one eval of a run and judge the reply; None when the run is no longer running."""
    with world.lock:
        run = world.runs[run_id]
        state = world.run_state[run_id]
        if run["status"] == "queued":
            run["status"] = "running"
        if run["status"] != "running" or (eval_id, model_id) in state["done"]:
            return None
        ev = catalog.EVALS_BY_ID[eval_id]
        entry, gen = world.call_model(
            model_id, turns_for(ev), source="eval", max_tokens=ev.max_tokens, spec=ev, run_id=run_id, at=at
        )
        verdict = judge(stable_rng(world.seed, "judge", entry["id"]), ev, gen)
        result_id = world.new_id("res")
        raw = {
            "request": {"prompt": entry["prompt"], "max_tokens": ev.max_tokens},
            "response": {
                "text": gen.response,
                "finish_reason": gen.finish_reason,
                "completion_tokens": gen.completion_tokens,
                "error": gen.error,
            },
        }
        result: Json = {
            "id": result_id,
            "eval_run_id": run_id,
            "eval_id": ev.id,
            "model_id": model_id,
            "response": gen.response,
            "score": verdict.score,
            "score_details": verdict.score_details,
            "latency_ms": gen.latency_ms,
            "error": gen.error,
            "raw_data": json.dumps(raw),
            "created_at": entry["created_at"],
            "log_id": entry["id"],
        }
        entry["result_id"] = result_id
        world.results[result_id] = result
        if verdict.flaw:
            world.judge_flaws[result_id] = verdict.flaw
        state["done"].add((eval_id, model_id))
        run["completed_count"] = len(state["done"])
        return result


def finish_run(world: World, run_id: str, at: int | None = None) -> Json:
    with world.lock:
        run = world.runs[run_id]
        if run["status"] != "running" or pending_pairs(world, run_id):
            return run
        run["status"] = "completed"
        run["completed_at"] = at if at is not None else world.now()
        snapshot = dict(run)
    world.emit("run.completed", {"run": snapshot})
    return snapshot


def _move(
    world: World,
    run_id: str,
    status: str,
    *,
    allowed: tuple[str, ...] | None = None,
    refusal: str = "",
    event: str | None = None,
    **fields: object,
) -> Json:
    """Put the run in ``status`` (and set ``fields``) if it is in one of the ``allowed``
    statuses (any, when None; else :class:`RunStateError` "run is STATUS``refusal``"), then
    fire ``event`` with the run as it now is; that copy back."""
    with world.lock:
        run = world.runs[run_id]
        if allowed is not None and run["status"] not in allowed:
            raise RunStateError(f"run is {run['status']}{refusal}")
        run["status"] = status
        run.update(fields)
        snapshot = dict(run)
    if event is not None:
        world.emit(event, {"run": snapshot})
    return snapshot


def stall_run(world: World, run_id: str) -> Json:
    """Make a queued/running run stop part-way, as if its worker died (fires run.stalled)."""
    return _move(
        world,
        run_id,
        "stalled",
        allowed=ACTIVE,
        refusal=", only a queued or running run can stall",
        event="run.stalled",
    )


def fail_run(world: World, run_id: str, error: str, at: int | None = None) -> Json:
    """Mark a run failed with ``error`` (fires run.failed); it can then be resumed."""
    return _move(world, run_id, "failed", event="run.failed", error=error, completed_at=None)


def cancel_run(world: World, run_id: str) -> Json:
    return _move(
        world,
        run_id,
        "cancelled",
        allowed=ACTIVE,
        refusal="; only a queued or running run can be cancelled",
        completed_at=world.now(),
    )


def resume_run(world: World, run_id: str) -> Json:
    return _move(
        world, run_id, "running", allowed=RESUMABLE, refusal="; only a stalled or failed run can be resumed", error=None
    )


def runs_newest_first(world: World) -> list[Json]:
    with world.lock:
        return sorted(world.runs.values(), key=lambda r: (r["started_at"], r["id"]), reverse=True)


def results_where(world: World, *, model_id: str | None = None, run_id: str | None = None) -> list[Json]:
    with world.lock:
        return [
            r
            for r in world.results.values()
            if (model_id is None or r["model_id"] == model_id) and (run_id is None or r["eval_run_id"] == run_id)
        ]
