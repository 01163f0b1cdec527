"""A result read at any moment after it exists carries its ``score_details`` (the live service
never answers a result without them): read right at a run's completion, many times, over HTTP,
including results whose call failed (a model in a health outage)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from simulator.server import SimulatorServer
from tests.support import sim_http

RUNS = 6
READS_PER_RUN = 8


@pytest.fixture(scope="module")
def fast() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=400.0, live=False) as server:
        yield server


def _until_completed(api: httpx.Client, run_id: str) -> None:
    deadline = time.monotonic() + 30
    while api.get(f"/runs/{run_id}").json()["status"] != "completed":
        assert time.monotonic() < deadline, "the run did not complete"


def _missing_details(results: list[dict[str, object]]) -> list[object]:
    return [r["id"] for r in results if not isinstance(r.get("score_details"), str) or not r["score_details"]]


def test_results_read_at_completion_always_carry_score_details(fast: SimulatorServer) -> None:
    down_model = next(m for m in fast.world.peer_model_ids)
    with fast.world.lock:  # every call of this model fails: its results are the ones that came back empty
        fast.world.outages[down_model] = [(0, 2**62)]
    api = sim_http.Client(base_url=fast.base_url + "/api/v1", timeout=10)
    auth = {"Authorization": f"Bearer {fast.council_key}"}
    failed_seen = 0
    for _ in range(RUNS):
        run = api.post("/runs", json={"model_ids": [fast.person_model_id, down_model]}, headers=auth).json()
        _until_completed(api, run["id"])
        for _ in range(READS_PER_RUN):
            results = api.get(f"/runs/{run['id']}/results").json()
            assert results and _missing_details(results) == []
            failed = [r for r in results if r["error"] is not None]
            failed_seen += len(failed)
            assert all(r["score"] is None and "not judged" in r["score_details"].lower() for r in failed)
        one = api.get(f"/results/{results[-1]['id']}").json()
        assert one["score_details"]
    assert failed_seen, "the outage made failed calls, so the check covered them"


def test_results_of_the_seeded_past_carry_score_details(fast: SimulatorServer) -> None:
    api = sim_http.Client(base_url=fast.base_url + "/api/v1", timeout=10)
    for run in api.get("/runs").json():
        assert _missing_details(api.get(f"/runs/{run['id']}/results").json()) == []
