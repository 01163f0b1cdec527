"""``BenchmarkClient`` and the suite watch against the real Blobfish simulator over HTTP: the
server's poll schedule on a fake clock, chaos on the polls, a lost answer, the interrupted and
rejected-credential suites, ``run_in_progress``, and every community-board refusal."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api_client.blobfish import benchmarks as bench_client
from api_client.blobfish.benchmarks import (
    NOT_YOURS,
    BenchmarkClient,
    BenchRefusedLocally,
    BoardRefusedError,
    RunInProgressError,
)
from api_client.blobfish.shapes_bench import SingleRun, SuiteRun
from api_client.errors import NotFoundError
from application.runs.bench.watch import WatchEvent, eta_seconds, watch_suite
from simulator.blobfish import benchmarks as sim_bench
from simulator.blobfish.server import BlobfishServer
from tests.support import sim_http
from tests.support.bench import SLUG, BreakPolls, FakeClock
from tests.support.blobfish import DropFirstAnswer, RecordingTransport


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=11, live=False) as running:
        yield running


@pytest.fixture
def bf(server: BlobfishServer, clock: FakeClock) -> BlobfishServer:
    """The simulator with fresh benchmark state (one suite per account) on this test's fake clock."""
    server.benchmarks.reset()
    server.benchmarks.clock = clock.time
    return server


async def _nosleep(_: float) -> None:
    return None


def make(
    bf: BlobfishServer, transport: httpx.AsyncBaseTransport | None = None, key: str | None = None, **kw: Any
) -> BenchmarkClient:
    return BenchmarkClient(
        bf.base_url, bf.account_key if key is None else key, transport=transport, sleep=_nosleep, **kw
    )


async def start_and_watch(
    bf: BlobfishServer,
    clock: FakeClock,
    transport: httpx.AsyncBaseTransport | None = None,
    api_key: str | None = None,
    suite: str = "sample",
    **kw: Any,
) -> tuple[Any, Any, list[WatchEvent]]:
    events: list[WatchEvent] = []
    async with make(bf, transport, **kw) as client:
        started = await client.start_suite(SLUG, provider="xai", model="grok-4", suite=suite, api_key=api_key)
        path = client.poll_path(SLUG, started.record.run_id, started.location)
        result = await watch_suite(
            lambda: client.poll_suite(path),
            first_wait=started.retry_after,
            first_record=started.record,
            sleep=clock.sleep,
            clock=clock.time,
            on_event=events.append,
        )
    return started, result, events


def test_the_watch_waits_what_the_server_asks_and_ends_at_the_final_status(
    bf: BlobfishServer, clock: FakeClock
) -> None:
    started, result, events = asyncio.run(start_and_watch(bf, clock))
    assert started.retry_after == 5
    assert started.location and started.location.endswith(f"/runs/{started.record.run_id}")
    asks = [e.record.poll_after_seconds for e in events if e.record is not None and e.wait is not None]
    assert clock.sleeps[0] == started.retry_after
    assert clock.sleeps[1:] == asks
    assert result.record.status == "completed" and result.record.progress.done == 10
    assert result.polls == len(clock.sleeps)
    # the simulated suite takes QUEUE_S + 10 * TASK_S; the watch ends within one poll of it
    assert sim_bench.QUEUE_S + 10 * sim_bench.TASK_S <= sum(clock.sleeps) < sim_bench.QUEUE_S + 11 * sim_bench.TASK_S


def test_chaos_on_the_polls_never_ends_the_watch_early_nor_starts_a_second_suite(
    bf: BlobfishServer, clock: FakeClock
) -> None:
    transport = BreakPolls(["503", "reset", "429", "ok", "503", "503", "reset", "429", "503"])
    started, result, events = asyncio.run(start_and_watch(bf, clock, transport, max_attempts=1))
    assert transport.injected.count("503") == 4 and transport.injected.count("429") == 2
    assert result.record.status == "completed" and result.errors == len(transport.injected)
    assert transport.posts() == 1
    waits_after_429 = [e.wait for e in events if e.error is not None and e.error.status == 429]
    assert waits_after_429 and all(w is not None and w >= 7 for w in waits_after_429)
    listing = bf.benchmarks.list_runs("demo-account", SLUG)
    assert [r["run_id"] for r in listing["suite_runs"]] == [started.record.run_id]


def test_a_lost_answer_starts_one_suite_settled_from_the_run_list(bf: BlobfishServer, clock: FakeClock) -> None:
    transport = DropFirstAnswer()

    async def go() -> Any:
        async with make(bf, transport) as client:
            return await client.start_suite(SLUG, provider="xai", model="grok-4", suite="sample")

    started = asyncio.run(go())
    assert transport.dropped == 1 and started.settled_from_list
    assert [m for m, *_ in transport.sent].count("POST") == 1
    suites = bf.benchmarks.list_runs("demo-account", SLUG)["suite_runs"]
    assert [s["run_id"] for s in suites] == [started.record.run_id]


def test_a_lost_single_run_answer_is_read_back_from_the_list_not_rerun(bf: BlobfishServer) -> None:
    transport = DropFirstAnswer()

    async def go() -> SingleRun:
        async with make(bf, transport) as client:
            return await client.start_single(SLUG, provider="xai", model="grok-4")

    run = asyncio.run(go())
    assert run.run_id.startswith("bmr_")
    assert [m for m, *_ in transport.sent].count("POST") == 1
    assert len(bf.benchmarks.list_runs("demo-account", SLUG)["runs"]) == 1


def test_the_single_run_gets_five_minutes_and_its_record(bf: BlobfishServer) -> None:
    transport = RecordingTransport()

    async def go() -> SingleRun:
        async with make(bf, transport) as client:
            return await client.start_single(SLUG, provider="xai", model="grok-4", api_key="xai-canary", max_steps=3)

    run = asyncio.run(go())
    assert run.kind == "task" and run.credential_source == "request" and run.full_suite_command
    assert run.steps and len(run.steps) <= 3 and run.evidence_url


def test_an_interrupted_suite_is_final_with_the_tasks_graded_so_far_and_no_score(
    bf: BlobfishServer, clock: FakeClock
) -> None:
    bf.die_after_tasks(3)
    _, result, _ = asyncio.run(start_and_watch(bf, clock))
    record: SuiteRun = result.record
    assert record.status == "interrupted" and record.error and record.error.kind == "interrupted"
    assert record.is_final and record.mean_score is None and record.pass_rate is None
    assert record.progress.done == 3 and len(record.tasks or []) == 3


def test_a_rejected_provider_key_fails_the_suite_naming_the_task(bf: BlobfishServer, clock: FakeClock) -> None:
    _, result, _ = asyncio.run(start_and_watch(bf, clock, api_key="xai-reject-me"))
    record = result.record
    stopped_at = sim_bench.BENCHMARKS[SLUG][sim_bench.REJECT_AT_TASK][0]
    assert record.status == "failed" and record.error and record.error.kind == "auth"
    assert record.error.task_id == stopped_at and "not attempted" in (record.error.message or "")
    assert len(record.tasks or []) == sim_bench.REJECT_AT_TASK and record.mean_score is None


def test_a_second_suite_names_the_running_one(bf: BlobfishServer) -> None:
    async def go() -> tuple[str, RunInProgressError]:
        async with make(bf) as client:
            first = await client.start_suite(SLUG, provider="xai", model="grok-4", suite="full")
            with pytest.raises(RunInProgressError) as caught:
                await client.start_suite(SLUG, provider="xai", model="grok-4", suite="sample")
            return first.record.run_id, caught.value

    first, error = asyncio.run(go())
    assert error.run_id == first and error.code == "run_in_progress"


def test_the_runs_list_is_newest_first_and_another_key_sees_nothing(bf: BlobfishServer, clock: FakeClock) -> None:
    async def go() -> Any:
        async with make(bf) as client:
            a = await client.start_single(SLUG, provider="xai", model="grok-4")
            b = await client.start_single(SLUG, provider="xai", model="grok-3")
            mine = await client.list_runs(SLUG)
        async with make(bf, key=bf.isolated_key) as stranger:
            theirs = await stranger.list_runs(SLUG)
            with pytest.raises(NotFoundError) as caught:
                await stranger.get_run(SLUG, a.run_id)
        return a, b, mine, theirs, caught.value

    a, b, mine, theirs, error = asyncio.run(go())
    assert [r.run_id for r in mine.runs] == [b.run_id, a.run_id]
    assert theirs.runs == [] and theirs.suite_runs == [] and error.message == NOT_YOURS


# ---------------------------------------------------------------------------- board


def _completed(bf: BlobfishServer, clock: FakeClock) -> str:
    _, result, _ = asyncio.run(start_and_watch(bf, clock))
    assert result.record.status == "completed"
    return str(result.record.run_id)


def test_submit_once_then_already_submitted_names_the_row_then_delete_allows_again(
    bf: BlobfishServer, clock: FakeClock
) -> None:
    run_id = _completed(bf, clock)

    async def go() -> Any:
        async with make(bf) as client:
            row = await client.submit(SLUG, run_id, display_name="grok-4 · my scaffold", notes="t=0")
            with pytest.raises(BoardRefusedError) as again:
                await client.submit(SLUG, run_id)
            board = await client.board(SLUG)
            async with BenchmarkClient(bf.base_url, None) as anonymous:
                public = await anonymous.board(SLUG)
            await client.delete(SLUG, row.community_run_id)
            resubmitted = await client.submit(SLUG, run_id)
        return row, again.value, board, public, resubmitted

    row, again, board, public, resubmitted = asyncio.run(go())
    assert row.mine and row.community_run_id.startswith("bcr_") and row.badge == sim_bench.shapes.BENCH_BADGE
    assert again.code == "already_submitted" and again.community_run_id == row.community_run_id
    assert row.community_run_id in again.message
    mine = [r for r in board.community_runs if r.mine]
    assert [r.community_run_id for r in mine] == [row.community_run_id]
    assert all(r.mine is None for r in public.community_runs)
    scores = [r.mean_score or 0 for r in board.community_runs]
    assert scores == sorted(scores, reverse=True)
    assert resubmitted.community_run_id != row.community_run_id


def _refusal(bf: BlobfishServer, run_id: str, **kw: Any) -> BoardRefusedError:
    async def go() -> BoardRefusedError:
        async with make(bf, key=kw.pop("key", None)) as client:
            with pytest.raises(BoardRefusedError) as caught:
                await client.submit(SLUG, run_id, **kw)
            return caught.value

    return asyncio.run(go())


def test_a_single_task_run_is_not_a_suite_run(bf: BlobfishServer) -> None:
    async def single() -> str:
        async with make(bf) as client:
            return (await client.start_single(SLUG, provider="xai", model="grok-4")).run_id

    error = _refusal(bf, asyncio.run(single()))
    assert error.code == "not_a_suite_run" and "single-task run" in error.message


def test_a_running_or_interrupted_suite_is_not_completed(bf: BlobfishServer, clock: FakeClock) -> None:
    async def start() -> str:
        async with make(bf) as client:
            return (await client.start_suite(SLUG, provider="xai", model="grok-4", suite="sample")).record.run_id

    running = asyncio.run(start())
    error = _refusal(bf, running)
    assert error.code == "suite_run_not_completed" and "has not completed" in error.message
    bf.kill_benchmark_runners()
    assert _refusal(bf, running).code == "suite_run_not_completed"


def test_a_suite_with_no_graded_task_is_refused(bf: BlobfishServer, clock: FakeClock) -> None:
    run_id = _completed_ungraded(bf, clock)
    error = _refusal(bf, run_id)
    assert error.code == "suite_run_not_graded" and "nothing to publish" in error.message


def _completed_ungraded(bf: BlobfishServer, clock: FakeClock) -> str:
    """A completed one-task suite whose grader recorded nothing (not reachable by time alone)."""

    async def start() -> str:
        async with make(bf) as client:
            return (
                await client.start_suite(SLUG, provider="xai", model="grok-4", suite="sample", max_tasks=1)
            ).record.run_id

    run_id = asyncio.run(start())
    clock.now += 3600
    with bf.benchmarks.lock:
        job = bf.benchmarks.scopes["demo-account"].suites[-1]
        bf.benchmarks._advance(job)
        job["tasks"], job["graded"] = [], 0  # the grader recorded nothing for its one task
    return run_id


def test_an_over_long_name_is_refused_here_and_by_the_platform(bf: BlobfishServer, clock: FakeClock) -> None:
    run_id = _completed(bf, clock)
    transport = RecordingTransport()

    async def local() -> None:
        async with make(bf, transport) as client:
            with pytest.raises(BenchRefusedLocally):
                await client.submit(SLUG, run_id, display_name="x" * 81)
            with pytest.raises(BenchRefusedLocally):
                await client.submit(SLUG, run_id, notes="n" * 501)

    asyncio.run(local())
    assert transport.sent == []
    answer = sim_http.post(
        f"{bf.base_url}/api/v1/benchmarks/{SLUG}/runs/{run_id}/submit",
        headers={"X-API-Key": bf.account_key},
        json={"notes": "n" * 501},
    )
    assert answer.status_code == 400 and answer.json()["error"] == "invalid_submission"


def test_invalid_submission_from_the_platform_has_its_sentence(
    bf: BlobfishServer, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = _completed(bf, clock)
    monkeypatch.setattr(bench_client, "check_submission", lambda *_: None)  # let the platform judge it

    async def go() -> BoardRefusedError:
        async with make(bf) as client:
            with pytest.raises(BoardRefusedError) as caught:
                await client.submit(SLUG, run_id, display_name="x" * 81)
            return caught.value

    error = asyncio.run(go())
    assert error.code == "invalid_submission" and "at most 80" in error.message


def test_a_stranger_reads_not_yours_or_not_there(bf: BlobfishServer, clock: FakeClock) -> None:
    run_id = _completed(bf, clock)
    error = _refusal(bf, run_id, key=bf.isolated_key)
    assert error.status == 404 and error.message == NOT_YOURS

    async def delete() -> BoardRefusedError:
        async with make(bf) as owner:
            row = await owner.submit(SLUG, run_id)
        async with make(bf, key=bf.isolated_key) as stranger:
            with pytest.raises(BoardRefusedError) as caught:
                await stranger.delete(SLUG, row.community_run_id)
        return caught.value

    assert asyncio.run(delete()).message == NOT_YOURS


def test_evidence_links_expire_after_thirty_minutes(bf: BlobfishServer, clock: FakeClock) -> None:
    async def single() -> SingleRun:
        async with make(bf) as client:
            return await client.start_single(SLUG, provider="xai", model="grok-4")

    url = asyncio.run(single()).evidence_url
    assert url and sim_http.get(url).status_code == 200
    clock.now += 30 * 60
    gone = sim_http.get(url)
    assert gone.status_code == 410 and gone.json()["error"] == "evidence_expired"


def test_the_eta_comes_from_the_pace_seen_and_is_absent_until_known() -> None:
    assert eta_seconds([(0.0, 0), (5.0, 0)], 10) is None
    assert eta_seconds([(0.0, 0), (10.0, 1)], 10) is None  # one task: no pace yet
    assert eta_seconds([(0.0, 0), (10.0, 1), (30.0, 3)], 10) == 70.0
    assert eta_seconds([(10.0, 1), (30.0, 3)], None) is None
