"""Auth, run lifecycle (progress, stall, resume, cancel), and webhooks with signatures."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import httpx
import pytest

from simulator.blahdev import runs
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def fast() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=400.0, live=False) as server:
        yield server


def api(server: SimulatorServer) -> httpx.Client:
    return sim_http.Client(base_url=server.base_url + "/api/v1", timeout=10)


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def wait_for(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


COUNCIL_CALLS = [
    ("POST", "/models/{person}/failure-clusters", None),
    ("POST", "/runs", {"model_ids": ["{person}"]}),
    ("POST", "/runs/{run}/resume", None),
    ("POST", "/runs/{run}/cancel", None),
    ("POST", "/models/{person}/chatroom", {"enabled": False}),
]


def _fill(server: SimulatorServer, path: str, body: Any) -> tuple[str, Any]:
    run_id = runs.runs_newest_first(server.world)[0]["id"]
    path = path.format(person=server.person_model_id, run=run_id)
    if body is not None:
        body = json.loads(json.dumps(body).replace("{person}", server.person_model_id))
    return path, body


@pytest.mark.parametrize(("method", "path", "body"), COUNCIL_CALLS)
def test_council_endpoints_need_key_and_tier(sim: SimulatorServer, method: str, path: str, body: Any) -> None:
    path, body = _fill(sim, path, body)
    with api(sim) as http:
        missing = http.request(method, path, json=body)
        assert missing.status_code == 401 and "key" in missing.json()["error"]
        unknown = http.request(method, path, json=body, headers=bearer("blah_not_a_real_key"))
        assert unknown.status_code == 401
        assert "blah_not_a_real_key" not in unknown.text  # the key is never echoed
        member = http.request(method, path, json=body, headers=bearer(sim.member_key))
        assert member.status_code == 403 and "council" in member.json()["error"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/models/{person}/infer", {"prompt": "hi"}),
        ("POST", "/chatroom", {"content": "hi"}),
        ("POST", "/webhooks", {"url": "http://127.0.0.1:1/x", "event_types": ["run.completed"]}),
        ("GET", "/webhooks", None),
        ("POST", "/games", {"game_type": "comedy_night"}),
        ("POST", "/training-sets/request-upload", {"name": "a", "filename": "a.jsonl", "size_bytes": 1}),
        ("POST", "/models", {"name": "x", "inference_uri": "a/b"}),
    ],
)
def test_writes_need_a_key_but_not_council(sim: SimulatorServer, method: str, path: str, body: Any) -> None:
    path, body = _fill(sim, path, body)
    with api(sim) as http:
        assert http.request(method, path, json=body).status_code == 401


def test_reads_are_open(sim: SimulatorServer) -> None:
    with api(sim) as http:
        for path in ("/models", "/runs", "/leaderboard", "/chatroom", "/games", "/training-sets", "/evals"):
            assert http.get(path).status_code == 200, path


def test_unknown_ids_are_404(sim: SimulatorServer) -> None:
    with api(sim) as http:
        for path in (
            "/runs/nope",
            "/runs/nope/results",
            "/results/nope",
            "/models/nope",
            "/evals/nope",
            "/chatroom/nope",
            "/games/nope",
            "/training-sets/nope",
            "/chat/jobs/nope",
            "/models/nope/health",
            "/models/nope/diagnose",
            "/models/nope/results",
            "/no/such/path",
        ):
            r = http.get(path)
            assert r.status_code == 404 and isinstance(r.json()["error"], str), path
        r = http.post("/runs/nope/resume", headers=bearer(sim.council_key))
        assert r.status_code == 404
        r = http.post("/runs", json={"model_ids": ["nope"]}, headers=bearer(sim.council_key))
        assert r.status_code == 404


def test_resume_and_cancel_in_wrong_state_are_409(sim: SimulatorServer) -> None:
    listed = runs.runs_newest_first(sim.world)
    completed = next(r for r in listed if r["status"] == "completed")
    with api(sim) as http:
        r = http.post(f"/runs/{completed['id']}/resume", headers=bearer(sim.council_key))
        assert r.status_code == 409 and "completed" in r.json()["error"]
        stalled = next(r for r in listed if r["status"] == "stalled")
        r = http.post(f"/runs/{stalled['id']}/cancel", headers=bearer(sim.council_key))
        assert r.status_code == 409
        assert http.get(f"/runs/{stalled['id']}").json()["status"] == "stalled"  # unchanged


def test_run_progresses_to_completion(fast: SimulatorServer) -> None:
    with api(fast) as http:
        r = http.post("/runs", json={"model_ids": [fast.person_model_id]}, headers=bearer(fast.council_key))
        run = r.json()
        assert r.status_code == 201 and run["status"] == "queued" and run["completed_count"] == 0
        assert run["model_ids"] == [fast.person_model_id] and run["completed_at"] is None
        seen = wait_for(lambda: (x := http.get(f"/runs/{run['id']}").json())["status"] == "running" and x)
        assert 0 < seen["completed_count"] < seen["total_evals"]
        done = wait_for(lambda: (x := http.get(f"/runs/{run['id']}").json())["status"] == "completed" and x)
        assert done["completed_count"] == done["total_evals"] * done["total_models"]
        assert done["completed_at"] >= done["started_at"]
        results = http.get(f"/runs/{run['id']}/results").json()
        assert len(results) == done["completed_count"]
        log = http.get(f"/logs/{results[0]['log_id']}").json()
        assert log["source"] == "eval" and log["run_id"] == run["id"] and log["result_id"] == results[0]["id"]
        board = http.get("/leaderboard").json()  # one row per model, each on its own latest run
        models = {m["id"] for m in http.get("/models").json()}
        assert len(board) == len({b["model_id"] for b in board}) and {b["model_id"] for b in board} <= models
        assert len(board) > 1  # the models not in this run keep their rows
        mine = next(b for b in board if b["model_id"] == fast.person_model_id)
        assert mine["last_run_at"] == done["completed_at"]
        scored = [r["score"] for r in results if r["score"] is not None]
        assert mine["avg_score"] == pytest.approx(sum(scored) / len(scored), abs=1e-4)
        assert all(b["last_run_at"] < done["completed_at"] for b in board if b is not mine)
        assert set(mine) == {"model_id", "model_name", "avg_score", "eval_count", "last_run_at"}


def test_stall_resume_does_not_redo_finished_items(fast: SimulatorServer) -> None:
    with api(fast) as http:
        run = http.post("/runs", json={"model_ids": [fast.person_model_id]}, headers=bearer(fast.council_key)).json()
        wait_for(lambda: http.get(f"/runs/{run['id']}").json()["completed_count"] >= 3)
        runs.stall_run(fast.world, run["id"])
        stalled = http.get(f"/runs/{run['id']}").json()
        time.sleep(0.1)
        assert http.get(f"/runs/{run['id']}").json()["completed_count"] == stalled["completed_count"]
        before = {r["id"] for r in http.get(f"/runs/{run['id']}/results").json()}
        r = http.post(f"/runs/{run['id']}/resume", headers=bearer(fast.council_key))
        assert r.status_code == 200 and r.json()["status"] == "running"
        wait_for(lambda: http.get(f"/runs/{run['id']}").json()["status"] == "completed")
        results = http.get(f"/runs/{run['id']}/results").json()
        assert before <= {r["id"] for r in results}
        assert len({r["eval_id"] for r in results}) == len(results) == 38  # every eval once


def test_cancel_stops_a_running_run(fast: SimulatorServer) -> None:
    with api(fast) as http:
        run = http.post("/runs", json={"model_ids": [fast.person_model_id]}, headers=bearer(fast.council_key)).json()
        wait_for(lambda: http.get(f"/runs/{run['id']}").json()["completed_count"] >= 1)
        r = http.post(f"/runs/{run['id']}/cancel", headers=bearer(fast.council_key))
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        count = r.json()["completed_count"]
        time.sleep(0.15)
        after = http.get(f"/runs/{run['id']}").json()
        assert after["status"] == "cancelled" and after["completed_count"] == count < 38
        assert http.post(f"/runs/{run['id']}/cancel", headers=bearer(fast.council_key)).status_code == 409


def test_seeded_failed_run_can_be_resumed(fast: SimulatorServer) -> None:
    failed = next(r for r in runs.runs_newest_first(fast.world) if r["status"] == "failed")
    assert failed["error"] and "unreachable" in failed["error"]
    with api(fast) as http:
        r = http.post(f"/runs/{failed['id']}/resume", headers=bearer(fast.council_key))
        assert r.status_code == 200 and r.json()["error"] is None
        done = wait_for(lambda: (x := http.get(f"/runs/{failed['id']}").json())["status"] == "completed" and x)
        assert done["completed_count"] == done["total_evals"] * done["total_models"]


class _Receiver(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((dict(self.headers.items()), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        return


def test_run_completed_webhook_is_delivered_signed(fast: SimulatorServer) -> None:
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=receiver.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        with api(fast) as http:
            hook = http.post(
                "/webhooks",
                headers=bearer(fast.council_key),
                json={"url": url, "event_types": ["run.completed", "run.stalled"], "secret": "s3cret"},
            ).json()
            assert hook["secret"] == "s3cret"
            remote = http.post(
                "/webhooks",
                headers=bearer(fast.council_key),
                json={"url": "https://example.com/hook", "event_types": ["run.completed"]},
            ).json()
            run = http.post(
                "/runs", json={"model_ids": [fast.person_model_id]}, headers=bearer(fast.council_key)
            ).json()
            wait_for(lambda: any(json.loads(b)["data"]["run"]["id"] == run["id"] for _, b in _Receiver.received))
        headers, body = next((h, b) for h, b in _Receiver.received if json.loads(b)["data"]["run"]["id"] == run["id"])
        expected = "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest()
        assert headers["X-Blah-Signature"] == expected and headers["X-Blah-Event"] == "run.completed"
        payload = json.loads(body)
        assert payload["event"] == "run.completed" and payload["data"]["run"]["status"] == "completed"
        # the delivery record is written once the receiver has answered: wait for it
        outcomes = wait_for(
            lambda: (
                (o := {d["webhook_id"]: d["outcome"] for d in fast.world.deliveries})
                and hook["id"] in o
                and remote["id"] in o
                and o
            )
        )
        assert outcomes[hook["id"]] == "delivered" and outcomes[remote["id"]] == "skipped"  # never left loopback
        with api(fast) as http:
            other = http.post(
                "/runs", json={"model_ids": [fast.person_model_id]}, headers=bearer(fast.council_key)
            ).json()
            runs.stall_run(fast.world, other["id"])
        wait_for(
            lambda: any(
                json.loads(b)["event"] == "run.stalled" and json.loads(b)["data"]["run"]["id"] == other["id"]
                for _, b in _Receiver.received
            )
        )
    finally:
        receiver.shutdown()
        receiver.server_close()
