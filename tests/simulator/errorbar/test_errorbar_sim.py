"""The errorbar queue simulator over real HTTP: every number of a result is recomputable from
the run's samples, the criterion run's corrected rate is the Rogan–Gladen correction of its
observed rate, runs progress with time, and each error status of the contract comes back in
the contract's envelope."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from diagnosis.stats import rogan_gladen, wilson_interval
from simulator.errorbar.server import ErrorbarServer
from tests.support import sim_http
from tests.support.errorbar import COMPARISON, CRITERION, get, headers, queue_run, queue_server


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) < 1e-9


def test_every_count_of_a_comparison_is_recomputable_from_its_samples(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    results = get(queue, f"/v1/evals/{run['id']}").json()["results"]
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    assert len(samples) == results["sample_count"] == COMPARISON["sample_count"]
    for row in results["per_candidate"]:
        answers = [c for s in samples for c in s["candidates"] if c["model"] == row["arm"]]
        outcomes = [a["outcome"] for a in answers]
        wins, losses, ties, failed = (outcomes.count(k) for k in ("win", "loss", "tie", "failed"))
        assert (row["wins"], row["losses"], row["ties"], row["failed"], row["attempted"]) == (
            wins,
            losses,
            ties,
            failed,
            len(answers),
        )
        # each outcome follows from the two orderings' readings (ab: baseline first)
        for answer in answers:
            ab, ba = answer["orderings"]["ab"], answer["orderings"]["ba"]
            expected = (
                "failed"
                if ab is None or ba is None
                else "win"
                if ab == ba == "candidate"
                else "loss"
                if ab == ba == "baseline"
                else "tie"
            )
            assert answer["outcome"] == expected
        judged = wins + losses + ties
        assert _close(row["win_rate"], (wins + ties / 2) / judged)
        low, high = wilson_interval(wins + ties / 2, judged)
        assert _close(row["ci95"][0], low) and _close(row["ci95"][1], high)
        assert row["truncated"] == sum(1 for a in answers if a["truncated"])
        assert row["eval_cost_micros"] == sum(a["cost_micros"] for a in answers)
        assert row["avg_latency_ms"] == round(sum(a["latency_ms"] for a in answers) / len(answers), 1)
        assert row["judged_share"] == round(judged / len(answers), 4)
        per_model = {r["model"]: r for r in results["assertion_results"]["per_model"]}[row["arm"]]
        assert per_model["passed_all"] == sum(1 for a in answers if all(a["assertions"]))
    assert results["baseline"]["truncated"] == sum(1 for s in samples if s["baseline_truncated"])
    # the person's verbose model is cut at the 1,024-token cap and that shows on both sides
    tiny_v2 = {r["arm"]: r for r in results["per_candidate"]}["you/tiny-sft-v2"]
    assert tiny_v2["truncated"] > 0


def test_the_spec_sheet_position_bias_is_recomputable_from_the_orderings(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    sheet = get(queue, f"/v1/evals/{run['id']}/pairwise").json()["candidates"]["you/tiny-sft-v3"]["spec_sheet"]
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    readings = [c["orderings"] for s in samples for c in s["candidates"] if c["model"] == "you/tiny-sft-v3"]
    readings = [(r["ab"], r["ba"]) for r in readings if r["ab"] is not None and r["ba"] is not None]
    first = sum((ab == "baseline") + (ba == "candidate") for ab, ba in readings)
    second = sum((ab == "candidate") + (ba == "baseline") for ab, ba in readings)
    assert sheet["picks_first"] == first and sheet["picks_second"] == second
    assert _close(sheet["first_minus_second"], (first - second) / (2 * len(readings)) * 100)
    assert sheet["disagreement_ties"] == sum(1 for ab, ba in readings if ab != ba)
    assert first > second  # the judge's position bias shows


def test_a_criterion_run_corrects_its_observed_rate_with_the_frozen_judge(queue: ErrorbarServer) -> None:
    run = queue_run(queue, CRITERION)
    record = get(queue, f"/v1/evals/{run['id']}").json()
    snapshot, results = record["criterion_snapshot"], record["results"]
    assert (snapshot["tpr"], snapshot["tnr"]) == (0.90, 0.84)
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    assert [c["model"] for c in samples[0]["candidates"]] == ["Qwen/Qwen3-32B", "you/tiny-sft-v3"]
    for row in results["per_model"]:
        outcomes = [c["outcome"] for s in samples for c in s["candidates"] if c["model"] == row["model"]]
        passed, failed = outcomes.count("pass"), outcomes.count("fail")
        assert (row["judged_pass"], row["judged_fail"], row["unparsed"]) == (passed, failed, outcomes.count("unparsed"))
        observed = passed / (passed + failed)
        assert _close(row["observed_pass_rate"], observed)
        by_hand = min(1.0, max(0.0, (observed + 0.84 - 1) / (0.90 + 0.84 - 1)))
        assert _close(row["corrected_pass_rate"], by_hand)
        assert _close(row["corrected_pass_rate"], rogan_gladen(observed, 0.90, 0.84))
    assert _close(results["judge_youden"], 0.74)


def test_a_judge_no_better_than_chance_gives_no_corrected_rate(queue: ErrorbarServer) -> None:
    run = queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})
    rows = get(queue, f"/v1/evals/{run['id']}").json()["results"]["per_model"]
    assert all(r["corrected_pass_rate"] is None and r["corrected_ci"] is None for r in rows)
    assert all(r["observed_pass_rate"] is not None for r in rows)


def test_a_run_progresses_with_time_and_shows_partial_samples() -> None:
    with queue_server(speed=2.0) as server:
        now = [1000.0]
        server.store.clock = lambda: now[0]  # simulated time, moved by the test
        run = queue_run(server, {**COMPARISON, "sample_count": 10}, finish=False)
        assert run["status"] == "PENDING" and run["progress_ratio"] == 0 and run["results"] is None
        assert get(server, f"/v1/evals/{run['id']}/samples").json() == []
        # 10 samples x (3 generations + 4 judge readings) = 70 units of 0.1 s, after 1 s pending; speed 2
        now[0] += 0.5 + 35 * 0.1 / 2
        half = get(server, f"/v1/evals/{run['id']}").json()
        assert half["status"] == "RUNNING" and half["progress_ratio"] == 0.5 and half["results"] is None
        assert len(get(server, f"/v1/evals/{run['id']}/samples").json()) == 5
        now[0] += 35 * 0.1 / 2
        done = get(server, f"/v1/evals/{run['id']}").json()
        assert done["status"] == "DONE" and done["progress_ratio"] == 1.0 and done["results"] is not None
        assert len(get(server, f"/v1/evals/{run['id']}/samples").json()) == 10


def _error(answer: httpx.Response) -> dict[str, str]:
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "code"}, body
    return body["error"]


def test_each_error_status_of_the_contract(queue: ErrorbarServer) -> None:
    base, admin = queue.base_url, headers(queue.admin_key)

    def post(body: dict[str, Any], key: str = queue.admin_key) -> httpx.Response:
        return sim_http.post(f"{base}/v1/evals", json=body, headers=headers(key))

    assert _error(post({**COMPARISON, "sample_count": 4}))["message"] == "sample_count must be an integer 5..500"
    assert (
        post({**COMPARISON, "candidate_models": ["nope/model"]}).json()["error"]["message"]
        == "Model 'nope/model' is not available."
    )
    assert sim_http.get(f"{base}/v1/evals").status_code == 401
    assert (
        _error(sim_http.get(f"{base}/v1/evals", headers={"Authorization": "Bearer sk_wrong"}))["code"]
        == "invalid_api_key"
    )
    forbidden = post(COMPARISON, queue.member_key)
    assert forbidden.status_code == 403 and "OWNER or ADMIN" in _error(forbidden)["message"]
    assert post(COMPARISON, queue.read_key).status_code == 403
    missing = sim_http.get(f"{base}/v1/evals/ev_nope", headers=admin)
    assert missing.status_code == 404 and _error(missing)["code"] == "not_found"
    pending = queue_run(queue, COMPARISON, finish=False)
    refused = sim_http.get(f"{base}/v1/evals/compare", params={"a": pending["id"], "b": pending["id"]}, headers=admin)
    assert refused.status_code == 412 and _error(refused)["code"] == "precondition_failed"
    assert sim_http.get(f"{base}/v1/evals/{pending['id']}/evidence", headers=admin).status_code == 412
    deleting = sim_http.delete(f"{base}/v1/evals/{pending['id']}", headers=admin)
    assert (
        deleting.status_code == 400 and _error(deleting)["message"] == "Cancel it first — a live run can't be deleted."
    )
    queue.fail_next("GET", "/v1/evals", 429, "Slow down.", retry_after=2)
    limited = sim_http.get(f"{base}/v1/evals", headers=admin)
    assert (
        limited.status_code == 429
        and limited.headers["retry-after"] == "2"
        and _error(limited)["code"] == "rate_limited"
    )
    queue.fail_next("POST", "*/cancel", 409, "A slice is being written.")
    assert sim_http.post(f"{base}/v1/evals/{pending['id']}/cancel", headers=admin).status_code == 409


def test_screening_funds_and_nothing_to_screen() -> None:
    with queue_server() as server:
        admin = headers(server.admin_key)
        server.set_balance(0)
        broke = sim_http.post(f"{server.base_url}/v1/evals", json={"screening": True}, headers=admin)
        assert broke.status_code == 402 and _error(broke) == {
            "message": "Insufficient balance to screen: top up the wallet.",
            "type": "insufficient_quota",
            "code": "insufficient_balance",
        }
        server.set_balance(100)
        server.clear_traffic()
        empty = sim_http.post(f"{server.base_url}/v1/evals", json={"screening": True}, headers=admin)
        assert empty.status_code == 422 and _error(empty)["code"] == "unprocessable"


def test_cancel_then_delete_and_the_gate_answers_404(queue: ErrorbarServer) -> None:
    base, admin = queue.base_url, headers(queue.admin_key)
    run = queue_run(queue, COMPARISON, finish=False)
    cancelled = sim_http.post(f"{base}/v1/evals/{run['id']}/cancel", headers=admin).json()
    assert cancelled["status"] == "CANCELLED" and cancelled["error"].startswith("Cancelled by ")
    again = sim_http.post(f"{base}/v1/evals/{run['id']}/cancel", headers=admin)
    assert again.status_code == 400 and "already done" in _error(again)["message"]
    assert sim_http.delete(f"{base}/v1/evals/{run['id']}", headers=admin).json() == {"id": run["id"]}
    assert get(queue, f"/v1/evals/{run['id']}/gate", min_win_rate="0.5").status_code == 404
