"""The errorbar client against the queue simulator over real HTTP: a create is sent once (a
lost answer is found in the list, a double call shares one POST), what the queue would refuse
is refused before sending, 402/403/412/422 say what went wrong, the gate's 412 is a verdict,
and the key never shows in an error or the simulator's request log."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from api_client.errorbar import (
    CreateOutcomeUnknown,
    ErrorbarClient,
    FundsError,
    KeyShapeError,
    NothingToScreenError,
    PreconditionError,
    RefusedLocally,
    RoleError,
)
from api_client.errors import BlahError, NotFoundError
from simulator.errorbar.server import ErrorbarServer
from tests.support import sim_http
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _posts(queue: ErrorbarServer) -> int:
    return sum(1 for r in queue.requests.records() if r.method == "POST" and r.path == "/v1/evals")


async def test_a_double_call_queues_one_run(queue: ErrorbarServer) -> None:
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        first, second = await asyncio.gather(client.create_run(COMPARISON), client.create_run(COMPARISON))
    assert first.run.id == second.run.id
    assert _posts(queue) == 1 and queue.store.ids() == [first.run.id]


async def test_a_lost_answer_is_looked_for_in_the_list_and_never_resent(queue: ErrorbarServer) -> None:
    queue.lose_next_answer("POST", "/v1/evals")
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        created = await client.create_run(COMPARISON)
    assert created.settled and created.run.id == queue.store.ids()[0]
    assert created.run.name == COMPARISON["name"]
    assert _posts(queue) == 1
    assert [r.method for r in queue.requests.records()] == ["POST", "GET"]


async def test_a_lost_answer_with_no_run_in_the_list_says_outcome_unknown(queue: ErrorbarServer) -> None:
    queue.lose_next_answer("POST", "/v1/evals")
    queue.fail_next("GET", "/v1/evals", 503, "The list is down.", times=4)
    async with ErrorbarClient(queue.base_url, queue.admin_key, max_attempts=1) as client:
        with pytest.raises(CreateOutcomeUnknown, match="it may still have been queued: check the list"):
            await client.create_run(COMPARISON)
    assert _posts(queue) == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"rubric": "too short"}, "rubric"),
        ({"candidate_models": []}, "candidate_models"),
        ({"candidate_models": [f"m{i}" for i in range(7)]}, "candidate_models"),
        ({"candidate_models": ["you/tiny-sft-v3", "you/tiny-sft-v3"]}, "candidate_models"),
        ({"candidate_models": ["Qwen/Qwen3-32B"]}, "candidate_models"),
        ({"sample_count": 4}, "sample_count"),
        ({"sample_count": 501}, "sample_count"),
        ({"max_output_tokens": 255}, "max_output_tokens"),
        ({"max_output_tokens": 16385}, "max_output_tokens"),
        ({"assertions": [{"type": "regex_match", "value": "([a-z"}]}, "assertions[0]"),
        ({"assertions": [{"type": "json_schema", "value": "{not json"}]}, "assertions[0]"),
        ({"eval_kind": "criterion"}, "criterion_id"),
        ({"sample_filters": {"trace_replay": True}}, "sample_filters.trace_replay"),
    ],
)
async def test_what_the_queue_would_refuse_is_refused_before_sending(
    queue: ErrorbarServer, change: dict[str, object], field: str
) -> None:
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        with pytest.raises(RefusedLocally, match="nothing was sent") as refused:
            await client.create_run({**COMPARISON, **change})
    assert refused.value.field == field
    assert queue.requests.records() == []
    # and the server, sent the same body, refuses it too (the checks mirror its 400s)
    if field != "criterion_id":
        answer = sim_http.post(
            f"{queue.base_url}/v1/evals",
            json={**COMPARISON, **change},
            headers={"Authorization": f"Bearer {queue.admin_key}"},
        )
        assert answer.status_code == 400, answer.text


async def test_402_403_412_422_each_say_what_went_wrong(queue: ErrorbarServer) -> None:
    async with ErrorbarClient(queue.base_url, queue.member_key) as member:
        with pytest.raises(RoleError, match="a key minted by a workspace OWNER or ADMIN"):
            await member.create_run(COMPARISON)
    async with ErrorbarClient(queue.base_url, queue.read_key) as reader:
        with pytest.raises(RoleError, match="read scope only"):
            await reader.create_run(COMPARISON)
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        pending = (await client.create_run(COMPARISON)).run
        with pytest.raises(PreconditionError, match="both runs must be DONE, of the same kind, and judged by the same"):
            await client.compare(pending.id, pending.id)
        with pytest.raises(PreconditionError, match="evidence exists only for a finished run"):
            await client.evidence(pending.id)
        queue.set_balance(0)
        with pytest.raises(FundsError, match="balance cannot pay for this: top up the wallet; nothing was queued"):
            await client.create_run({"screening": True})
        queue.set_balance(10)
        queue.clear_traffic()
        with pytest.raises(NothingToScreenError, match="nothing to screen"):
            await client.create_run({"screening": True})
        with pytest.raises(NotFoundError):
            await client.get_run("ev_missing")


async def test_the_gates_412_is_a_verdict_and_200_only_when_it_passes(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    async with ErrorbarClient(queue.base_url, queue.read_key) as client:
        status, verdict = await client.gate(run["id"], {"min_win_rate": 0.99})
        assert status == 412 and not verdict.passed and verdict.status == "DONE"
        assert [c.model for c in verdict.checks] == COMPARISON["candidate_models"]
        results = (await client.get_run(run["id"])).results
        assert results is not None
        lower = {c.key: c.ci95[0] for c in results.per_candidate if c.ci95}
        assert {c.model: c.actual for c in verdict.checks} == lower
        status, verdict = await client.gate(run["id"], {"min_win_rate": 0.01})
        assert status == 200 and verdict.passed and all(c.passed for c in verdict.checks)
        with pytest.raises(RefusedLocally, match="give at least one"):
            await client.gate(run["id"], {})
        with pytest.raises(RefusedLocally, match="a rate, not a percent"):
            await client.gate(run["id"], {"min_win_rate": 55})
    assert sum(1 for r in queue.requests.records() if r.path.endswith("/gate")) == 2


async def test_compare_two_finished_runs_and_criteria(queue: ErrorbarServer) -> None:
    before, after = queue_run(queue, COMPARISON), queue_run(queue, {**COMPARISON, "name": "again"})
    async with ErrorbarClient(queue.base_url, queue.read_key) as client:
        comparison = await client.compare(before["id"], after["id"])
        assert {r.arm for r in comparison.rows} == set(COMPARISON["candidate_models"])
        for row in comparison.rows:
            assert row.a and row.b and row.delta_ci and row.delta is not None
            assert abs(row.delta - (row.b.rate - row.a.rate)) < 1e-9  # type: ignore[operator]
        criteria = {c.id: c for c in await client.criteria()}
        assert criteria["crit_helpful"].tpr == 0.90 and criteria["crit_helpful"].tpr_ci is not None
        crit = queue_run(queue, CRITERION)
        samples = await client.samples(crit["id"])
        assert [s.index for s in samples] == list(range(CRITERION["sample_count"]))


async def test_the_key_is_never_in_an_error_or_the_request_log(queue: ErrorbarServer) -> None:
    key = queue.admin_key
    async with ErrorbarClient(queue.base_url, key) as client:
        queue.fail_next("GET", "*/ev_x", 500, f"echo {key}")
        with pytest.raises(BlahError) as failure:
            await client.get_run("ev_x")
    assert key not in str(failure.value) and key not in repr(failure.value.__dict__)
    assert key not in queue.requests.text()
    with pytest.raises(KeyShapeError, match="a Blobfish key") as shape:
        ErrorbarClient(queue.base_url, "bf_secretvalue123")
    assert "secretvalue" not in str(shape.value)
