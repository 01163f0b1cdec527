"""Shared route helpers: the world and jobs from app state, 404 lookups, one item answered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request, Response

from simulator.blahdev.jobs import Jobs
from simulator.blahdev.world import Json, World
from simulator.http import json_response, not_found


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


def answer_one(
    world: World, table: dict[str, Json], item_id: str, what: str, show: Callable[[Json], Any] = lambda item: item
) -> Response:
    """``GET /WHATS/{id}``: the item as ``show`` makes it, answered under the world's lock (the
    background jobs change items in place); 404 "WHAT 'ID' not found" when there is none."""
    with world.lock:
        item = table.get(item_id)
        if item is None:
            raise not_found(f"{what} {item_id!r}")
        return json_response(show(item))


Responses = dict[int | str, dict[str, Any]]


_MEANINGS = {
    401: "Missing or unknown API key.",
    403: "The key lacks the council tier.",
    404: "Unknown id.",
    409: "The resource is not in a state that allows this.",
    410: "The upload ticket expired.",
    413: "Too large.",
    422: "A body or query value is invalid.",
}


def error_responses(*codes: int) -> Responses:
    """OpenAPI ``responses`` entries for these error statuses (all ``{"error": str}``)."""
    from simulator.blahdev.shapes import Error

    return {code: {"model": Error, "description": _MEANINGS[code]} for code in codes}
