"""Every curl command of the platform guide, pointed at the simulator (plain httpx).

Each answer must parse into the shared wire models (api_client/blahdev/shapes.py) and carry the
fields the guide and CONTRACT.md name.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from api_client.blahdev import shapes as wire
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def busy() -> Iterator[SimulatorServer]:
    """A private simulator for the writing commands (fast simulated time, no live activity)."""
    with SimulatorServer(seed=11, speed=200.0, live=False) as server:
        yield server


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def wait_for(check, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def test_logs_with_stats(http: httpx.Client, sim: SimulatorServer) -> None:
    r = http.get(f"/models/{sim.person_model_id}/logs", params={"limit": 50, "stats": "true"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    page = wire.LogPage.model_validate(r.json())
    assert len(page.logs) == 50
    assert page.stats is not None and page.stats.total is not None and page.stats.total > 3000
    assert set(page.stats.by_source) == {"eval", "chatroom", "chat", "test"}
    first = r.json()["logs"][0]
    for field in (
        "prompt",
        "response",
        "latency_ms",
        "error",
        "max_tokens",
        "prompt_tokens",
        "completion_tokens",
        "finish_reason",
        "source",
        "created_at",
    ):
        assert field in first


@pytest.mark.parametrize("source", ["eval", "chatroom", "chat", "test"])
def test_logs_source_filter(http: httpx.Client, sim: SimulatorServer, source: str) -> None:
    logs = http.get(f"/models/{sim.person_model_id}/logs", params={"source": source, "limit": 100}).json()["logs"]
    assert logs and {e["source"] for e in logs} == {source}


def test_logs_errors_only(http: httpx.Client, sim: SimulatorServer) -> None:
    body = http.get(
        f"/models/{sim.person_model_id}/logs", params={"errors_only": "true", "limit": 500, "stats": "true"}
    ).json()
    assert body["logs"] and all(
        e["error"] and e["response"] is None and e["finish_reason"] == "error" for e in body["logs"]
    )
    assert body["stats"]["errors"] == body["stats"]["total"] > 0


def test_one_log_and_from_chatroom_message(http: httpx.Client, sim: SimulatorServer) -> None:
    messages = http.get("/chatroom", params={"limit": 20}).json()["messages"]
    model_msg = next(m for m in messages if m["author_kind"] == "model")
    log = wire.LogEntry.model_validate(http.get(f"/logs/{model_msg['log_id']}").json())
    assert log.message_id == model_msg["id"] and log.response == model_msg["content"]


def test_diagnose(http: httpx.Client, sim: SimulatorServer) -> None:
    diag = wire.Diagnosis.model_validate(http.get(f"/models/{sim.person_model_id}/diagnose").json())
    assert diag.calls_examined == 1000
    assert {f.kind for f in diag.findings} == {"loop", "truncation", "empty", "continuation"}
    for finding in diag.findings:
        assert finding.count is not None and finding.rate == pytest.approx(finding.count / 1000, abs=1e-4)
        assert finding.usual_cause
        for example in finding.examples:
            assert http.get(f"/logs/{example.log_id}").status_code == 200


def test_failure_clusters(http: httpx.Client, sim: SimulatorServer) -> None:
    r = http.post(f"/models/{sim.person_model_id}/failure-clusters", headers=auth(sim.council_key))
    clusters = wire.FailureClusters.model_validate(r.json())
    assert r.status_code == 200 and clusters.judge_model and clusters.calls_considered == 1000
    assert clusters.clusters[0].label and clusters.clusters[0].suggestion
    sizes = [c.size or 0 for c in clusters.clusters]
    assert sizes == sorted(sizes, reverse=True)
    # The chatroom format mismatch is one of the two biggest groups, and it holds chatroom calls.
    fmt = next(c for c in clusters.clusters[:2] if "format" in (c.label or ""))
    for log_id in fmt.log_ids[:5]:
        log = http.get(f"/logs/{log_id}").json()
        assert log["source"] == "chatroom" and "[INST]" in log["prompt"]


def test_results_result_leaderboard_runs(http: httpx.Client, sim: SimulatorServer) -> None:
    results = [wire.Result.model_validate(x) for x in http.get(f"/models/{sim.person_model_id}/results").json()]
    assert results and all(r.model_id == sim.person_model_id for r in results)
    one = http.get(f"/results/{results[0].id}").json()
    assert one["score_details"] is None or isinstance(one["score_details"], str)
    assert http.get(f"/logs/{one['log_id']}").json()["result_id"] == one["id"]
    board = [wire.LeaderboardEntry.model_validate(x) for x in http.get("/leaderboard").json()]
    scores = [b.avg_score for b in board if b.avg_score is not None]
    assert scores == sorted(scores, reverse=True)
    runs = [wire.Run.model_validate(x) for x in http.get("/runs").json()]
    done = [r for r in runs if r.status == "completed"]
    latest_done = max(done, key=lambda r: int(r.completed_at or 0))
    assert {b.model_id for b in board} == set(latest_done.model_ids or [])  # latest completed run only
    assert {b.last_run_at for b in board} == {latest_done.completed_at}
    assert [r.started_at for r in runs] == sorted((r.started_at for r in runs), reverse=True)  # type: ignore[misc]
    assert {r.status for r in runs} >= {"completed", "failed", "stalled"}
    run_results = http.get(f"/runs/{runs[0].id}/results").json()
    assert len(run_results) == runs[0].completed_count
    assert all(r["eval_run_id"] == runs[0].id for r in run_results)


def test_models_evals_search(http: httpx.Client, sim: SimulatorServer) -> None:
    models = [wire.Model.model_validate(m) for m in http.get("/models").json()]
    assert len(models) >= 6
    person = wire.Model.model_validate(http.get(f"/models/{sim.person_model_id}").json())
    assert person.chat_template == "chatml" and person.chatroom_enabled is True
    templates = {m.id: m.chat_template for m in models}
    assert {"llama3", "mistral", "gemma", "none"} <= set(templates.values())
    assert None in templates.values()  # one model's template is unknown (the field is absent)
    evals = [wire.Eval.model_validate(e) for e in http.get("/evals").json()]
    assert len(evals) >= 10 and len({e.instruction_type for e in evals}) >= 9
    assert all(json.loads(e.eval_criteria or "") for e in evals)
    detail = http.get(f"/evals/{evals[0].id}").json()
    assert detail == http.get("/evals").json()[0] and detail["prompt"]  # the same Eval, one prompt
    found = wire.SearchResults.model_validate(http.get("/search", params={"q": "alpha"}).json())
    assert found.models == [] and found.evals == []  # nothing is called alpha: an honest empty answer
    found = wire.SearchResults.model_validate(http.get("/search", params={"q": "tinystories"}).json())
    assert [m.id for m in found.models] == [sim.person_model_id]


def test_register_model(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        body = {"name": "My Model", "description": "...", "inference_uri": "openai-compatible:https://h.test#m"}
        r = http.post("/models", json=body, headers=auth(busy.council_key))
        assert r.status_code == 201
        model = wire.Model.model_validate(r.json())
        assert model.name == "My Model" and http.get(f"/models/{model.id}").status_code == 200
        for uri in ("https://host.test/v1", "anthropic/claude-sonnet-4-6"):
            assert (
                http.post("/models", json={**body, "inference_uri": uri}, headers=auth(busy.council_key)).status_code
                == 201
            )
        for bad in (
            {**body, "inference_uri": "not a uri"},
            {**body, "name": ""},
            {**body, "name": "x" * 101},
            {**body, "description": "d" * 1001},
        ):
            r = http.post("/models", json=bad, headers=auth(busy.council_key))
            assert r.status_code == 422 and isinstance(r.json()["error"], str)


def test_infer(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        r = http.post(
            f"/models/{busy.person_model_id}/infer",
            headers=auth(busy.council_key),
            json={"prompt": "The capital of France is", "max_tokens": 64},
        )
        result = wire.InferResult.model_validate(r.json())
        assert r.status_code == 200 and result.log_id and result.max_tokens == 64
        log = http.get(f"/logs/{result.log_id}").json()
        assert log["source"] == "test" and log["response"] == result.response
        assert "<|im_start|>user\nThe capital of France is<|im_end|>" in log["prompt"]


def test_webhooks_commands(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        r = http.post(
            "/webhooks",
            headers=auth(busy.council_key),
            json={"url": "https://your-host/hook", "event_types": ["run.completed"]},
        )
        hook = wire.Webhook.model_validate(r.json())
        assert r.status_code == 201 and hook.event_types == ["run.completed"]
        listed = http.get("/webhooks", headers=auth(busy.council_key)).json()
        assert hook.id in [h["id"] for h in listed]
        assert http.get("/webhooks", headers=auth(busy.member_key)).json() == []  # other account's hooks
        r = http.delete(f"/webhooks/{hook.id}", headers=auth(busy.council_key))
        assert r.status_code == 200 and r.json() == {"id": hook.id, "deleted": True}
        assert http.delete(f"/webhooks/{hook.id}", headers=auth(busy.council_key)).status_code == 404
        bad = http.post("/webhooks", headers=auth(busy.council_key), json={"url": "https://h/x", "event_types": ["x"]})
        assert bad.status_code == 422


def test_health(http: httpx.Client, sim: SimulatorServer) -> None:
    health = wire.Health.model_validate(http.get(f"/models/{sim.person_model_id}/health").json())
    times = [c.checked_at for c in health.checks]
    assert times == sorted(times, reverse=True)
    failing = [c for c in health.checks if c.ok is False]
    assert len(failing) >= 30  # the three-hour outage window
    window = (min(c.checked_at for c in failing), max(c.checked_at for c in failing))
    logs = http.get(
        f"/models/{sim.person_model_id}/logs", params={"since": window[0], "before": window[1], "limit": 500}
    ).json()["logs"]
    assert logs and all(e["error"] is not None for e in logs)  # calls during the outage error


def test_chat_job(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        r = http.post(
            "/chat",
            headers=auth(busy.council_key),
            json={"model_id": busy.person_model_id, "messages": [{"role": "user", "content": "Hello"}]},
        )
        job = wire.ChatJob.model_validate(r.json())
        assert r.status_code == 202 and job.status == "queued"
        done = wait_for(
            lambda: (j := http.get(f"/chat/jobs/{job.id}").json())["status"] in ("completed", "failed") and j
        )
        assert done["log_id"] and http.get(f"/logs/{done['log_id']}").json()["source"] == "chat"


def test_compare(http: httpx.Client, sim: SimulatorServer) -> None:
    other = sim.peer_model_ids[0]
    cmp = wire.Comparison.model_validate(
        http.get("/compare", params=[("model", sim.person_model_id), ("model", other)]).json()
    )
    assert cmp.models == [sim.person_model_id, other] and len(cmp.rows) >= 30
    assert all(set(row.answers) <= {sim.person_model_id, other} for row in cmp.rows)
    assert http.get("/compare", params={"model": other}).status_code == 422
    four = [("model", m) for m in [sim.person_model_id, *sim.peer_model_ids[:3]]]
    assert http.get("/compare", params=four).status_code == 422


def test_chatroom_commands(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        page = wire.ChatroomPage.model_validate(http.get("/chatroom", params={"limit": 20}).json())
        assert len(page.messages) == 20
        detail = wire.ChatroomMessageDetail.model_validate(http.get(f"/chatroom/{page.messages[0].id}").json())
        assert detail.id == page.messages[0].id
        r = http.post(
            "/chatroom",
            headers=auth(busy.council_key),
            json={"content": "What are you all working on?", "reply_from": busy.person_model_id},
        )
        posted = wire.ChatroomPosted.model_validate(r.json())
        assert r.status_code == 201 and posted.replies_expected_from == [busy.person_model_id]
        r = http.post(
            f"/models/{busy.peer_model_ids[0]}/chatroom", headers=auth(busy.council_key), json={"enabled": False}
        )
        assert r.json() == {"model_id": busy.peer_model_ids[0], "chatroom_enabled": False}


def test_games_commands(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        games = [wire.Game.model_validate(g) for g in http.get("/games").json()]
        assert {g.game_type for g in games} == {"evidence_locker", "comedy_night"}
        game = wire.Game.model_validate(http.get(f"/games/{games[0].id}").json())
        assert game.turns and all(t.judge_reasoning for t in game.turns)
        r = http.post("/games", headers=auth(busy.council_key), json={"game_type": "comedy_night"})
        assert r.status_code == 201 and r.json()["status"] == "running"
        assert http.post("/games", headers=auth(busy.council_key), json={"game_type": "chess"}).status_code == 422
        done = wait_for(lambda: (g := http.get(f"/games/{r.json()['id']}").json())["status"] == "completed" and g)
        assert len(done["turns"]) == 6 and done["winner_model_id"] in done["model_ids"]


def test_training_set_commands(busy: SimulatorServer) -> None:
    with sim_http.Client(base_url=busy.base_url + "/api/v1") as http:
        sets = [wire.TrainingSet.model_validate(t) for t in http.get("/training-sets").json()]
        assert sets and all(s.status == "ready" for s in sets)
        assert http.get(f"/training-sets/{sets[0].id}").json()["id"] == sets[0].id
        r = http.post(
            "/training-sets/request-upload",
            headers=auth(busy.council_key),
            json={"name": "my-set", "filename": "data.jsonl", "size_bytes": 12345},
        )
        ticket = wire.UploadTicket.model_validate(r.json())
        assert r.status_code == 201 and ticket.upload_url.startswith(busy.base_url) and ticket.method == "PUT"


def test_lens_commands(http: httpx.Client, sim: SimulatorServer) -> None:
    bundle = wire.LensBundle.model_validate(http.get(f"/models/{sim.person_model_id}/lens").json())
    assert bundle.available is True and bundle.layers == 8 and bundle.chat_template == "chatml"
    with http.stream(
        "POST",
        f"/models/{sim.person_model_id}/lens/analyze",
        json={"prompt": "The capital of France is", "max_new_tokens": 1, "top_k": 5},
    ) as r:
        assert r.headers["content-type"].startswith("application/x-ndjson")
        events = [wire.LensEvent.model_validate_json(line) for line in r.iter_lines() if line]
    assert events[0].type == "start" and events[0].layers == 8 and events[0].tokens
    layers = [e for e in events if e.type == "layer"]
    assert len(layers) == 8 and all(len(e.top_k or []) == 5 for e in layers)
    assert layers[-1].top_k and layers[-1].top_k[0]["token"] == " Paris"
    assert events[-1].type == "done"


def test_spec_is_openapi_31(http: httpx.Client, sim: SimulatorServer) -> None:
    spec = sim_http.get(sim.base_url + "/api/spec").json()
    assert spec["openapi"].startswith("3.1")
    paths = spec["paths"]
    for path in (
        "/api/v1/models/{model_id}/logs",
        "/api/v1/runs/{run_id}/resume",
        "/api/v1/chatroom",
        "/api/v1/models/{model_id}/lens/analyze",
        "/api/v1/training-sets/request-upload",
        "/api/v1/webhooks/{webhook_id}",
        "/api/v1/compare",
        "/api/v1/chat/jobs/{job_id}",
    ):
        assert path in paths
    logs_get = paths["/api/v1/models/{model_id}/logs"]["get"]
    assert "LogPage" in json.dumps(logs_get["responses"]["200"])
