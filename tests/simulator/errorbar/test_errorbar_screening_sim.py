"""Screening on the errorbar queue simulator, over real HTTP: ``{"screening": true}`` filled in
from the workspace (incumbent = the dominant logged model, its logged answers as the baseline,
the cheapest model of each other family), ``results.screening`` recomputable from the samples'
similarity readings (Wilson intervals checked against scipy) and the figures consistent with
each other, the honoured overrides, and the refusals (400, 402, 403, 404, 422)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from simulator.errorbar.world import CATALOG_BY_ID
from tests.support import sim_http
from tests.support.errorbar import get, headers, queue_run, queue_server
from tests.support.scipy_reference import scipy_stats


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _post(queue: ErrorbarServer, body: object, key: str | None = None) -> tuple[int, dict]:  # type: ignore[type-arg]
    answer = sim_http.post(f"{queue.base_url}/v1/evals", json=body, headers=headers(key or queue.admin_key), timeout=30)
    return answer.status_code, answer.json()


def _finished(queue: ErrorbarServer, body: dict) -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    run = queue_run(queue, body)
    return get(queue, f"/v1/evals/{run['id']}").json(), get(queue, f"/v1/evals/{run['id']}/samples").json()


def test_a_bare_screening_run_is_filled_in_from_the_workspace(queue: ErrorbarServer) -> None:
    logged = Counter(row.model for row in queue.store.traffic)
    incumbent = logged.most_common(1)[0][0]
    status, run = _post(queue, {"screening": True})
    assert status == 201 and run["status"] == "PENDING" and run["results"] is None
    assert run["baseline_model"] == "__stored__" and run["sample_filters"] == {"screening": True}
    assert run["sample_count"] == min(40, logged[incumbent])
    families = {CATALOG_BY_ID[m].family for m in run["candidate_models"]}
    assert CATALOG_BY_ID[incumbent].family not in families and len(families) == len(run["candidate_models"])
    for model in run["candidate_models"]:  # the cheapest of its family
        family = CATALOG_BY_ID[model].family
        assert CATALOG_BY_ID[model].micros_per_token == min(
            m.micros_per_token for m in CATALOG_BY_ID.values() if m.family == family
        )
    queue.finish(run["id"])
    done = get(queue, f"/v1/evals/{run['id']}").json()
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    replies = {row.reply for row in queue.store.traffic if row.model == incumbent}
    assert samples and all(s["baseline_answer"] in replies for s in samples)  # the incumbent's logged answers
    screening = done["results"]["screening"]
    assert screening["incumbent"]["model"] == incumbent
    assert screening["token_shape"]["requests"] == logged[incumbent]
    assert [c["model"] for c in screening["per_candidate"]] == run["candidate_models"]


def test_similarity_is_recomputable_from_the_samples(queue: ErrorbarServer) -> None:
    run, samples = _finished(queue, {"screening": True})
    for candidate in run["results"]["screening"]["per_candidate"]:
        readings = Counter(
            answer["similarity"]
            for sample in samples
            for answer in sample["candidates"]
            if answer["model"] == candidate["arm"]
        )
        similarity = candidate["similarity"]
        judged = readings["matched"] + readings["differed"]
        assert similarity == {
            "matched": readings["matched"],
            "differed": readings["differed"],
            "unparsed": readings["unparsed"],
            "judged": judged,
            "match_rate": pytest.approx(readings["matched"] / judged),
            "ci95": pytest.approx(
                list(scipy_stats().binomtest(readings["matched"], judged).proportion_ci(method="wilson")), abs=1e-9
            ),
        }
    # the match rate is never part of win/loss: those are the pairwise readings' own
    for candidate in run["results"]["per_candidate"]:
        outcomes = Counter(
            answer["outcome"]
            for sample in samples
            for answer in sample["candidates"]
            if answer["model"] == candidate["arm"]
        )
        assert (candidate["wins"], candidate["losses"], candidate["ties"]) == (
            outcomes["win"],
            outcomes["loss"],
            outcomes["tie"],
        )


def test_costs_savings_and_the_recommendation_hold_together(queue: ErrorbarServer) -> None:
    run, _ = _finished(queue, {"screening": True})
    screening = run["results"]["screening"]
    incumbent = screening["incumbent"]
    volume = incumbent["monthly_requests"]
    assert incumbent["projected_monthly_usd"] == pytest.approx(incumbent["est_usd_per_request"] * volume, abs=0.01)
    for c in screening["per_candidate"]:
        assert c["est_savings_pct"] == pytest.approx(
            100 * (incumbent["est_usd_per_request"] - c["est_usd_per_request"]) / incumbent["est_usd_per_request"],
            abs=0.1,
        )
        assert c["projected_monthly_usd"] == pytest.approx(c["est_usd_per_request"] * volume, abs=0.1)
        assert c["projected_monthly_savings_usd"] == pytest.approx(
            incumbent["projected_monthly_usd"] - c["projected_monthly_usd"], abs=0.1
        )
    eligible = [
        c for c in screening["per_candidate"] if c["est_savings_pct"] >= 10 and c["similarity"]["ci95"][0] >= 0.6
    ]
    assert eligible, "the seeded world has a cheaper model worth testing"
    best = max(eligible, key=lambda c: c["projected_monthly_savings_usd"])
    assert screening["recommendation"]["action"] == "switch"
    assert screening["recommendation"]["model"] == best["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert screening["judge_shares_family"] is (run["judge_model"] in run["candidate_models"])


def test_overrides_are_honoured_and_a_pricier_field_says_keep(queue: ErrorbarServer) -> None:
    body = {
        "screening": True,
        "name": "only the big ones",
        "sample_count": 12,
        "candidate_models": ["anthropic/claude-sonnet-4"],
        "rubric": "ignored by screening",
    }
    run, samples = _finished(queue, body)
    assert (run["name"], run["sample_count"], run["candidate_models"]) == (
        "only the big ones",
        12,
        ["anthropic/claude-sonnet-4"],
    )
    assert len(samples) == 12
    screening = run["results"]["screening"]
    assert screening["per_candidate"][0]["est_savings_pct"] < 0
    assert screening["recommendation"]["action"] == "keep" and screening["recommendation"]["model"] is None


def test_refusals_name_what_is_wrong(queue: ErrorbarServer) -> None:
    status, body = _post(queue, {"screening": True, "candidate_models": ["Qwen/Qwen3-32B"]})
    assert status == 400 and body["error"]["message"] == "candidate 'Qwen/Qwen3-32B' is the incumbent"
    status, body = _post(queue, {"screening": True, "candidate_models": ["nope/model"]})
    assert status == 400 and body["error"]["message"] == "Model 'nope/model' is not available."
    status, body = _post(queue, {"screening": True, "sample_filters": {"dataset_id": "ds_missing"}})
    assert status == 404 and body["error"]["code"] == "not_found"
    status, body = _post(queue, {"screening": True}, key=queue.member_key)
    assert status == 403
    queue.set_balance(0.0001)  # less than the screening would cost
    status, body = _post(queue, {"screening": True})
    assert status == 402 and body["error"]["code"] == "insufficient_balance"
    queue.set_balance(100)
    queue.store.traffic = [row for row in queue.store.traffic if row.model == "Qwen/Qwen3-32B"][:4]
    status, body = _post(queue, {"screening": True})
    assert status == 422 and body["error"]["code"] == "unprocessable" and "fewer than 5" in body["error"]["message"]
    assert get(queue, "/v1/evals").json()["data"] == []  # nothing was queued by any of these
