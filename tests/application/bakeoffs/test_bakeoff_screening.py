"""A screening's result through the real client (over HTTP) into its typed model, and the
application's plain reading of it: the recommendation ("switch to X: N% cheaper, answers match
R% [lo-hi]" from the queue's own figures, or "keep", a good outcome), the next step's prefill,
what a missing figure reads as, and the 403 that names the role and the key's source."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api_client.errorbar import RoleError
from api_client.errorbar import shapes as assumed
from api_client.errorbar.client import ErrorbarClient
from application.bakeoffs.screening import (
    candidate_lines,
    is_screening,
    money,
    percent_interval,
    prefill,
    screening_body,
    token_shape_text,
    verdict,
)
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, queue_server


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


async def _screened(queue: ErrorbarServer, **overrides: object) -> assumed.Run:
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        created = await client.create_run(screening_body(**overrides))  # type: ignore[arg-type]
        queue.finish(created.run.id)
        return await client.get_run(created.run.id)


async def test_the_client_parses_the_screening_once_into_its_model(queue: ErrorbarServer) -> None:
    run = await _screened(queue)
    sent = queue.store.get(run.id).results["screening"]  # type: ignore[index]
    screening = run.results.screening  # type: ignore[union-attr]
    assert isinstance(screening, assumed.Screening) and is_screening(run)
    assert screening.incumbent is not None and screening.incumbent.model == sent["incumbent"]["model"]
    assert screening.token_shape is not None and screening.token_shape.requests == sent["token_shape"]["requests"]
    for parsed, raw in zip(screening.per_candidate, sent["per_candidate"], strict=True):
        assert parsed.model == raw["model"] and parsed.est_savings_pct == raw["est_savings_pct"]
        assert parsed.similarity is not None and parsed.similarity.ci95 == raw["similarity"]["ci95"]
        assert (parsed.status, parsed.quality) == (raw["status"], raw["quality"])
    assert run.to_json()["results"]["screening"]["recommendation"] == sent["recommendation"]


async def test_switch_is_said_with_the_queues_own_figures_and_leads_to_a_bakeoff(queue: ErrorbarServer) -> None:
    run = await _screened(queue)
    raw = queue.store.get(run.id).results["screening"]  # type: ignore[index]
    model = raw["recommendation"]["model"]
    figures = next(c for c in raw["per_candidate"] if c["model"] == model)
    sim = figures["similarity"]
    said = verdict(run.results.screening)  # type: ignore[union-attr]
    assert said.action == "switch" and not said.good_outcome and said.models == (model,)
    assert said.sentence == (
        f"switch to {model}: {round(figures['est_savings_pct'])}% cheaper, answers match "
        f"{round(sim['match_rate'] * 100)}% [{round(sim['ci95'][0] * 100)}-{round(sim['ci95'][1] * 100)}]"
    )
    assert said.reason == raw["recommendation"]["reason"]
    lines = candidate_lines(run.results.screening)  # type: ignore[union-attr]
    assert [line.model for line in lines if line.recommended] == [model]
    next_step = prefill(run)
    assert next_step is not None
    assert next_step.baseline_model == raw["incumbent"]["model"] and next_step.candidate_models == (model,)
    assert next_step.rubric == run.rubric and 1 <= len(next_step.name) <= 80


async def test_keep_is_a_good_outcome_with_nothing_to_follow(queue: ErrorbarServer) -> None:
    run = await _screened(queue, candidates=["anthropic/claude-sonnet-4"], sample_count=10)
    said = verdict(run.results.screening)  # type: ignore[union-attr]
    assert said.action == "keep" and said.good_outcome and said.models == ()
    assert said.sentence.startswith("keep the incumbent (Qwen/Qwen3-32B): ")
    assert "A good outcome" in said.sentence
    assert prefill(run) is None
    line = candidate_lines(run.results.screening)[0]  # type: ignore[union-attr]
    assert line.savings.startswith("-") and not line.recommended


def test_what_the_queue_did_not_send_stays_a_dash_and_other_shapes_still_read() -> None:
    run = assumed.Run.model_validate(
        {
            "id": "ev_x",
            "status": "DONE",
            "sample_filters": {"screening": True},
            "results": {
                "screening": {
                    "incumbent": "Qwen/Qwen3-32B",
                    "recommendation": "switch",
                    "token_shape": {"p50_in": 12},
                    "per_candidate": [{"model": "m/a", "similarity": {"matched": 3, "ci95": "x"}}],
                }
            },
        }
    )
    screening = run.results.screening  # type: ignore[union-attr]
    assert screening is not None and screening.incumbent.model == "Qwen/Qwen3-32B"  # type: ignore[union-attr]
    line = candidate_lines(screening)[0]
    assert (line.matched, line.differed, line.match, line.usd_per_request, line.savings, line.monthly) == (
        "3",
        "—",
        "—",
        "—",
        "—",
        "—",
    )
    assert verdict(screening).sentence == "switch, says the queue, but it did not name the model"
    assert token_shape_text(screening.token_shape) == "p50_in: 12"  # an unknown shape, shown as sent
    assert percent_interval(0.91, None) == "91% (no interval sent)"
    assert (money(None), money(0.000324, per_request=True), money(-67.08, signed=True)) == ("—", "$0.000324", "-$67.08")
    renamed = assumed.Screening.model_validate(
        {
            "recommendation": {"action": "switch", "candidate": "m/a"},
            "per_candidate": [{"model": "m/a", "est_savings_pct": 38.2}],
        }
    )
    assert verdict(renamed).sentence == "switch to m/a: 38% cheaper, answers match: not sent"
    not_an_object = assumed.Run.model_validate({"id": "ev_y", "results": {"screening": ["odd"]}})
    assert not_an_object.results.screening is None and not is_screening(not_an_object)  # type: ignore[union-attr]


async def test_a_403_names_the_role_needed_and_the_keys_source_never_the_key(queue: ErrorbarServer) -> None:
    async with ErrorbarClient(queue.base_url, queue.member_key, key_source="$ERRORBAR_API_KEY") as member:
        with pytest.raises(RoleError) as refused:
            await member.create_run(COMPARISON)
    message = str(refused.value)
    assert "needs a key minted by a workspace OWNER or ADMIN" in message
    assert "the key used ($ERRORBAR_API_KEY) is not one" in message
    assert "the key's user is a member" in message  # the queue's own words: the role the key has
    assert queue.member_key not in message and "sk_" not in message
