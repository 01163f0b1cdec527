"""The demo world's run cadence is what a person sees on the real platform: runs start when
someone starts them; the world itself starts a few runs of other people's models at most, not
a new run every 80 s."""

from __future__ import annotations

import asyncio
from itertools import pairwise

from simulator.blahdev import runs
from simulator.blahdev.jobs import LIVE_RUN_GAP_SECONDS, MAX_BACKGROUND_RUNS, Jobs
from simulator.blahdev.world import World


def test_background_runs_are_few_far_apart_and_never_the_persons() -> None:
    world = World(11)
    jobs = Jobs(world, speed=1.0, live=True)
    clock = {"now": 0.0}
    started_at: list[float] = []

    async def instant_sleep(seconds: float) -> None:  # simulated time, no waiting
        clock["now"] += seconds

    jobs.sleep = instant_sleep  # type: ignore[method-assign]
    real_create = runs.create_run

    def counting_create(w: World, model_ids: list[str], at: int | None = None) -> dict[str, object]:
        started_at.append(clock["now"])
        return real_create(w, model_ids, at)

    runs_before = len(world.runs)
    runs.create_run = counting_create  # type: ignore[assignment]
    try:
        asyncio.run(asyncio.wait_for(jobs._live_runs(), timeout=30))
    finally:
        runs.create_run = real_create  # type: ignore[assignment]
    background = list(world.runs.values())[runs_before:]
    assert 1 <= len(background) <= MAX_BACKGROUND_RUNS
    assert all(world.person_model_id not in r["model_ids"] for r in background)
    assert all(r["status"] == "completed" for r in background)
    gaps = [b - a for a, b in pairwise(started_at)]
    assert all(gap >= LIVE_RUN_GAP_SECONDS[0] for gap in gaps)
    # an hour of the old cadence made ~45 runs; the world now makes at most a few in any span
    assert len([t for t in started_at if t <= 3600]) <= MAX_BACKGROUND_RUNS
