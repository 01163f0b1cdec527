"""The Blobfish simulator's benchmark routes over plain HTTP: the documented statuses and headers,
time-driven progress with ``--speed``, one suite per account, faults, and the public board."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from simulator.blobfish import benchmarks as sim_bench
from simulator.blobfish.server import BlobfishServer
from tests.support import sim_http
from tests.support.bench import SLUG, FakeClock

SPEED = 4.0


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=17, speed=SPEED, live=False) as running:
        yield running


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bf(server: BlobfishServer, clock: FakeClock) -> BlobfishServer:
    server.benchmarks.reset()
    server.benchmarks.clock = clock.time
    return server


def url(bf: BlobfishServer, tail: str = "") -> str:
    return f"{bf.base_url}/api/v1/benchmarks/{SLUG}{tail}"


def key(bf: BlobfishServer) -> dict[str, str]:
    return {"X-API-Key": bf.account_key}


def test_a_suite_answers_202_with_location_and_retry_after_then_progresses_with_speed(
    bf: BlobfishServer, clock: FakeClock
) -> None:
    started = sim_http.post(
        url(bf, "/runs"), headers=key(bf), json={"provider": "xai", "model": "m", "suite": "sample"}
    )
    assert started.status_code == 202
    record = started.json()
    assert started.headers["location"] == record["links"]["self"] and record["status"] == "queued"
    assert started.headers["retry-after"] == str(math.ceil(5 / SPEED))
    clock.now += (sim_bench.QUEUE_S + 3 * sim_bench.TASK_S) / SPEED
    polled = sim_http.get(started.headers["location"], headers=key(bf)).json()
    assert polled["status"] == "running" and polled["progress"] == {"done": 3, "total": 10}
    assert polled["poll_after_seconds"] == math.ceil(sim_bench.TASK_S / SPEED)
    clock.now += 10 * sim_bench.TASK_S / SPEED
    done = sim_http.get(started.headers["location"], headers=key(bf)).json()
    assert done["status"] == "completed" and "poll_after_seconds" not in done and done["graded"] == 10
    assert done["coverage"] == {"hosted_tasks": 12, "official_suite": False}


def test_one_suite_per_account_and_another_account_may_start_its_own(bf: BlobfishServer) -> None:
    body = {"provider": "xai", "model": "m", "suite": "full", "max_tasks": 2}
    first = sim_http.post(url(bf, "/runs"), headers=key(bf), json=body).json()
    second = sim_http.post(url(bf, "/runs"), headers=key(bf), json=body)
    assert second.status_code == 409 and second.json()["error"] == "run_in_progress"
    assert second.json()["run_id"] == first["run_id"] and first["progress"]["total"] == 2
    other = sim_http.post(url(bf, "/runs"), headers={"X-API-Key": bf.isolated_key}, json=body)
    assert other.status_code == 202


def test_a_killed_runner_reads_interrupted_never_running(bf: BlobfishServer, clock: FakeClock) -> None:
    started = sim_http.post(
        url(bf, "/runs"), headers=key(bf), json={"provider": "xai", "model": "m", "suite": "sample"}
    )
    clock.now += (sim_bench.QUEUE_S + 2 * sim_bench.TASK_S) / SPEED
    assert bf.kill_benchmark_runners() == 1
    clock.now += 3600
    record = sim_http.get(started.headers["location"], headers=key(bf)).json()
    assert record["status"] == "interrupted" and record["error"]["kind"] == "interrupted"
    assert len(record["tasks"]) == 2 and "mean_score" not in record and "poll_after_seconds" not in record


@pytest.mark.parametrize(
    "body",
    [
        {"provider": "xai", "model": "m", "max_steps": 41},
        {"provider": "xai", "model": "m", "suite": "sample", "max_tasks": 0},
        {"provider": "xai", "model": "m", "suite": "all"},
        {"provider": "xai", "model": "m", "max_tasks": 3},
    ],
)
def test_out_of_range_requests_are_invalid_request(bf: BlobfishServer, body: dict[str, object]) -> None:
    answer = sim_http.post(url(bf, "/runs"), headers=key(bf), json=body)
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_request"


def test_runs_need_a_key_the_board_does_not_and_the_provider_key_is_never_echoed(bf: BlobfishServer) -> None:
    assert sim_http.get(url(bf, "/runs")).status_code == 401
    board = sim_http.get(url(bf, "/community")).json()["community_runs"]
    assert board and all("mine" not in row and row["badge"] == sim_bench.shapes.BENCH_BADGE for row in board)
    mine = sim_http.get(url(bf, "/community"), headers=key(bf)).json()["community_runs"]
    assert all(row["mine"] is False for row in mine)
    single = sim_http.post(
        url(bf, "/runs"), headers=key(bf), json={"provider": "xai", "model": "m", "api_key": "xai-secret-echo-check"}
    )
    assert single.status_code == 201 and "xai-secret-echo-check" not in single.text
    assert "xai-secret-echo-check" not in sim_http.get(url(bf, "/runs"), headers=key(bf)).text
    assert sim_http.get(f"{bf.base_url}/api/v1/benchmarks/no-such-bench/community").status_code == 404
