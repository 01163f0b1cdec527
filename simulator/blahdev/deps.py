"""Shared route helpers: the world and jobs from app state, 404 lookups."""

from __future__ import annotations

from fastapi import Request

from simulator.http import not_found
from simulator.jobs import Jobs
from simulator.world import Json, World


def world_of(request: Request) -> World:
    world: World = request.app.state.world
    return world


def jobs_of(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


def model_or_404(world: World, model_id: str) -> Json:
    with world.lock:
        model = world.models.get(model_id)
    if model is None:
        raise not_found(f"model {model_id!r}")
    return model
