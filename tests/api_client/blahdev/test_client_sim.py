"""BlahClient against the real simulator over loopback: every endpoint, every error kind.

Reads use the shared session ``sim`` (through the ``client`` fixture); anything that
changes the world runs on a private ``fresh_sim``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import httpx
import pytest

from api_client.blahdev.client import BlahClient
from api_client.errors import (
    AuthError,
    BadRequestError,
    ConflictError,
    InvalidResponseError,
    MissingKeyError,
    NotFoundError,
    OutcomeUnknownError,
    RateLimitedError,
    ServerError,
    UnreachableError,
    UnsafePathError,
)
from api_client.transport.retry import RetryPolicy
from simulator.blahdev import runs as sim_runs
from simulator.chaos import ChaosConfig
from simulator.server import SimulatorServer


async def no_wait(_: float) -> None:
    return None


@pytest.fixture
async def fresh(fresh_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, sleep=no_wait) as c:
        yield c


# --------------------------------------------------------------------------- reads


async def test_models_evals_search(client: BlahClient, sim: SimulatorServer) -> None:
    models = await client.list_models()
    assert {sim.person_model_id, *sim.peer_model_ids} == {m.id for m in models}
    person = await client.get_model(sim.person_model_id)
    assert person.id == sim.person_model_id and person.name
    evals = await client.list_evals()
    assert evals and all(e.id for e in evals)
    one = await client.get_eval(evals[0].id)
    assert one.id == evals[0].id and one.prompt
    found = await client.search(person.name or person.id)
    assert sim.person_model_id in {m.id for m in found.models}


async def test_logs_page_stats_and_one_log(client: BlahClient, sim: SimulatorServer) -> None:
    page = await client.get_logs(sim.person_model_id, limit=20, stats=True)
    assert len(page.logs) == 20
    times = [e.created_at for e in page.logs]
    assert times == sorted(times, reverse=True)
    assert page.next_since == times[0] and page.next_before == times[-1]
    assert page.stats is not None and page.stats.total is not None and page.stats.total >= 20
    assert set(page.stats.by_source) <= {"eval", "chatroom", "chat", "test"}
    one = await client.get_log(page.logs[0].id)
    assert one == page.logs[0]
    errors = await client.get_logs(sim.person_model_id, errors_only=True, source="chat", limit=5)
    assert errors.logs and all(e.error is not None and e.source == "chat" for e in errors.logs)
    older = await client.get_logs(sim.person_model_id, before=times[-1], limit=5)
    assert all(e.created_at < times[-1] for e in older.logs)


async def test_iter_logs_reads_all_history_once(client: BlahClient, sim: SimulatorServer) -> None:
    total = (await client.get_logs(sim.person_model_id, stats=True, limit=1)).stats
    assert total is not None and total.total
    seen = [e.id async for e in client.iter_logs(sim.person_model_id)]
    assert len(seen) == len(set(seen)) == total.total


async def test_diagnose_results_runs_leaderboard(client: BlahClient, sim: SimulatorServer) -> None:
    diagnosis = await client.diagnose(sim.person_model_id)
    assert {f.kind for f in diagnosis.findings} == {"loop", "truncation", "empty", "continuation"}
    results = await client.list_results(sim.person_model_id)
    assert results
    parsed = [r for r in results if r.score_details_parsed is not None]
    assert parsed  # the simulator's judge writes JSON most of the time
    result = await client.get_result(results[0].id)
    assert result.id == results[0].id and result.model_id == sim.person_model_id
    all_runs = await client.list_runs()
    assert all_runs
    run = await client.get_run(all_runs[0].id)
    assert run.id == all_runs[0].id and run.status
    in_run = await client.run_results(all_runs[-1].id)
    assert all(r.eval_run_id == all_runs[-1].id for r in in_run)
    board = await client.leaderboard()
    scores = [b.avg_score for b in board if b.avg_score is not None]
    assert board and scores == sorted(scores, reverse=True)


async def test_health_compare_chatroom_games_sets_lens(client: BlahClient, sim: SimulatorServer) -> None:
    health = await client.health(sim.person_model_id)
    assert health.model_id == sim.person_model_id and health.checks
    comparison = await client.compare([sim.person_model_id, sim.peer_model_ids[0]])
    assert set(comparison.models) == {sim.person_model_id, sim.peer_model_ids[0]}
    room = await client.chatroom(limit=5)
    assert 0 < len(room.messages) <= 5
    said_by_model = next(m for m in room.messages if m.log_id)
    detail = await client.chatroom_message(said_by_model.id)
    assert detail.log is not None and detail.log.id == said_by_model.log_id
    games = await client.list_games()
    assert games
    game = await client.get_game(games[0].id)
    assert game.turns is not None
    sets = await client.list_training_sets()
    if sets:
        assert (await client.get_training_set(sets[0].id)).id == sets[0].id
    assert isinstance(await client.list_webhooks(), list)
    bundle = await client.lens(sim.person_model_id)
    assert bundle.available is True
    events = [e async for e in client.lens_analyze(sim.person_model_id, "Once upon a time", top_k=3)]
    assert events[0].type == "start" and events[-1].type == "done"
    layer = next(e for e in events if e.type == "layer")
    assert layer.top_k is not None and len(layer.top_k) == 3


# --------------------------------------------------------------------------- writes


async def test_register_infer_chat(fresh: BlahClient, fresh_sim: SimulatorServer) -> None:
    model = await fresh.register_model(
        "My Tiny Model", "openai-compatible:https://host.example#tiny", description="test"
    )
    assert (await fresh.get_model(model.id)).name == "My Tiny Model"
    answer = await fresh.infer(fresh_sim.person_model_id, "The capital of France is", max_tokens=16)
    assert answer.log_id is not None
    logged = await fresh.get_log(answer.log_id)
    assert logged.source == "test" and logged.max_tokens == 16
    assert "The capital of France is" in (logged.prompt or "")
    job = await fresh.chat(fresh_sim.person_model_id, [{"role": "user", "content": "Hello"}])
    for _ in range(200):
        job = await fresh.get_chat_job(job.id)
        if job.status in ("completed", "failed"):
            break
        await asyncio.sleep(0.02)
    assert job.status in ("completed", "failed") and job.log_id


async def test_webhooks_chatroom_games(fresh: BlahClient, fresh_sim: SimulatorServer) -> None:
    hook = await fresh.create_webhook("http://127.0.0.1:9/hook", ["run.completed"], secret="s3")
    assert hook.id in {h.id for h in await fresh.list_webhooks()}
    await fresh.delete_webhook(hook.id)
    assert hook.id not in {h.id for h in await fresh.list_webhooks()}
    peer = fresh_sim.peer_model_ids[0]
    posted = await fresh.post_chatroom("What are you all working on?", reply_from=peer)
    assert posted.message.content == "What are you all working on?"
    assert posted.replies_expected_from == [peer]
    muted = await fresh.set_chatroom_enabled(peer, False)
    assert muted.model_id == peer and muted.chatroom_enabled is False
    assert (await fresh.get_model(peer)).chatroom_enabled is False
    assert (await fresh.set_chatroom_enabled(peer, True)).chatroom_enabled is True
    game = await fresh.create_game("comedy_night")
    assert game.game_type == "comedy_night"
    assert (await fresh.get_game(game.id)).id == game.id


async def test_training_set_upload(fresh: BlahClient) -> None:
    data = b"".join(b'{"prompt": "p%d", "completion": "c"}\n' % i for i in range(3000))
    ticket = await fresh.request_upload("my-set", "data.jsonl", len(data))
    assert ticket.max_bytes is not None and ticket.training_set_id
    progress: list[tuple[int, int]] = []
    await fresh.upload_training_set(ticket, data, progress=lambda s, t: progress.append((s, t)))
    assert progress[-1] == (len(data), len(data)) and len(progress) > 1
    stored = await fresh.get_training_set(ticket.training_set_id)
    assert stored.status == "ready" and stored.example_count == 3000


async def test_runs_start_cancel_resume(fresh: BlahClient, fresh_sim: SimulatorServer) -> None:
    started = await fresh.start_run([fresh_sim.person_model_id])
    assert started.run is not None and started.run.status in ("queued", "running")
    run_id = started.run.id
    cancelled = await fresh.cancel_run(run_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(ConflictError) as info:
        await fresh.cancel_run(run_id)
    assert info.value.status == 409 and info.value.server_error
    with pytest.raises(ConflictError):
        await fresh.resume_run(run_id)
    second = await fresh.start_run([fresh_sim.person_model_id])
    assert second.run is not None
    sim_runs.stall_run(fresh_sim.world, second.run.id)
    assert (await fresh.get_run(second.run.id)).status == "stalled"
    assert (await fresh.resume_run(second.run.id)).status == "running"
    clusters = await fresh.failure_clusters(fresh_sim.person_model_id)
    assert clusters.clusters and all(c.log_ids for c in clusters.clusters)


# --------------------------------------------------------------------------- errors


async def test_error_kinds_from_the_simulator(client: BlahClient, sim: SimulatorServer) -> None:
    with pytest.raises(NotFoundError) as nf:
        await client.get_model("no-such-model")
    assert nf.value.status == 404 and nf.value.server_error
    with pytest.raises(NotFoundError):
        await client.get_log("no-such-log")
    with pytest.raises(BadRequestError) as bad:
        await client.get_logs(sim.person_model_id, limit=501)
    assert bad.value.status == 422
    with pytest.raises(BadRequestError):
        await client.compare([sim.person_model_id])
    async with BlahClient(sim.base_url, api_key="blah_wrong") as wrong:
        with pytest.raises(AuthError) as unauth:
            await wrong.start_run([sim.person_model_id])
    assert unauth.value.status == 401
    async with BlahClient(sim.base_url, api_key=sim.member_key) as member:
        with pytest.raises(AuthError) as forbidden:
            await member.start_run([sim.person_model_id])
        with pytest.raises(AuthError):
            await member.set_chatroom_enabled(sim.peer_model_ids[0], False)
    assert forbidden.value.status == 403 and "council" in str(forbidden.value)
    assert sim.member_key not in str(forbidden.value)
    async with BlahClient(sim.base_url) as anonymous:
        assert await anonymous.list_models()
        with pytest.raises(MissingKeyError):
            await anonymous.infer(sim.person_model_id, "hi")
        with pytest.raises(AuthError) as needs_key:
            await anonymous.list_webhooks()  # a read, but the server wants a key
    assert needs_key.value.status == 401


async def test_path_traversal_never_reaches_another_endpoint(fresh: BlahClient, fresh_sim: SimulatorServer) -> None:
    started = await fresh.start_run([fresh_sim.person_model_id])
    assert started.run is not None
    run_id = started.run.id
    with pytest.raises(NotFoundError):
        await fresh.set_chatroom_enabled(f"../../runs/{run_id}/cancel", False)
    with pytest.raises(NotFoundError):
        await fresh.get_logs(f"../../runs/{run_id}/cancel")
    with pytest.raises(UnsafePathError):
        await fresh.cancel_run("..")
    assert (await fresh.get_run(run_id)).status in ("queued", "running")


@pytest.mark.parametrize(
    ("chaos", "expected", "attempts", "write_expected"),
    [
        (ChaosConfig(rate_5xx=1.0, seed=1), ServerError, None, ServerError),  # 500 or 502/503
        (ChaosConfig(rate_429=1.0, retry_after=1), RateLimitedError, 4, RateLimitedError),
        (ChaosConfig(rate_html=1.0), ServerError, 4, ServerError),
        # cut mid-body: the write reached the server, so its outcome is unknown
        (ChaosConfig(rate_reset=1.0), UnreachableError, 4, OutcomeUnknownError),
        (ChaosConfig(rate_truncate=1.0), InvalidResponseError, 1, InvalidResponseError),
    ],
    ids=["5xx", "429", "html", "reset", "truncate"],
)
async def test_chaos_faults_map_to_errors(
    fresh_sim: SimulatorServer,
    chaos: ChaosConfig,
    expected: type[Exception],
    attempts: int | None,
    write_expected: type[Exception],
) -> None:
    sleeps: list[float] = []

    async def sleep(s: float) -> None:
        sleeps.append(s)

    async with BlahClient(
        fresh_sim.base_url,
        fresh_sim.council_key,
        sleep=sleep,
        retry=RetryPolicy(rng=random.Random(3)),
    ) as c:
        fresh_sim.set_chaos(chaos)
        with pytest.raises(expected):
            await c.list_models()
        retries = len(sleeps)
        assert retries == attempts - 1 if attempts else retries <= 3
        with pytest.raises(write_expected):  # a write is tried once, never again
            await c.post_chatroom("hello")
        assert len(sleeps) == retries
        fresh_sim.set_chaos(None)
        assert await c.list_models()  # the pool survived the broken connections


async def test_chaos_slow_answers_hit_the_deadline(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, fresh_sim.council_key, deadline=0.4) as c:
        fresh_sim.set_chaos(ChaosConfig(rate_trickle=1.0))
        with pytest.raises(UnreachableError):
            await c.get_logs(fresh_sim.person_model_id, limit=200)  # ~1 s of trickle
        fresh_sim.set_chaos(ChaosConfig(rate_latency=1.0, latency_s=1.0))
        with pytest.raises(UnreachableError):
            await c.list_models()
        with pytest.raises(OutcomeUnknownError):
            await c.infer(fresh_sim.person_model_id, "hi")
        fresh_sim.set_chaos(None)
        assert await c.list_models()


async def test_pool_survives_cancelled_requests(fresh_sim: SimulatorServer) -> None:
    limits = httpx.Limits(max_connections=3, max_keepalive_connections=3)
    async with BlahClient(fresh_sim.base_url, limits=limits, timeout=httpx.Timeout(10, pool=3)) as c:
        fresh_sim.set_chaos(ChaosConfig(rate_latency=1.0, latency_s=30))
        tasks = [asyncio.create_task(c.list_models()) for _ in range(50)]
        await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)
        fresh_sim.set_chaos(None)
        assert await c.list_models()


# --------------------------------------------------------------------------- tail


async def test_tail_delivers_a_burst_bigger_than_a_page_once(fresh: BlahClient, fresh_sim: SimulatorServer) -> None:
    model = fresh_sim.person_model_id
    tail = fresh.tail_logs(model)  # pages of 500: more than the 300 the simulator puts in 1 ms
    small = fresh.tail_logs(model, page_size=200)  # fewer than one millisecond can hold
    assert await tail.poll() == [] and await small.poll() == []
    burst = set(fresh_sim.world.add_log_burst(650, same_ms=True, model_id=model))
    one_more = fresh_sim.world.infer(model, "and one more", max_tokens=8)["id"]
    batch = await tail.poll()
    got = [e.id for e in batch]
    assert len(got) == len(set(got)) == 651
    assert set(got) == burst | {one_more}
    assert got[-1] == one_more  # oldest first
    assert await tail.poll() == []
    assert not tail.state.may_have_missed

    partial = [e.id for e in await small.poll()]
    assert len(partial) == len(set(partial)) < 651  # some are out of reach...
    assert small.state.may_have_missed and small.state.missed_reason  # ...and it says so
