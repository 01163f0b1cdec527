"""Training-set uploads, Lens without a bundle, live activity, the CLI, and that served JSON
matches the shapes the OpenAPI spec documents."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Iterator
from contextlib import redirect_stdout

import httpx
import pytest
from pydantic import BaseModel

from simulator import cli
from simulator.blahdev import shapes as schemas
from simulator.blahdev.training import MAX_UPLOAD_BYTES
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def http(own: SimulatorServer) -> Iterator[httpx.Client]:
    with sim_http.Client(
        base_url=own.base_url + "/api/v1", timeout=10, headers={"Authorization": f"Bearer {own.council_key}"}
    ) as client:
        yield client


def ticket(http: httpx.Client, size: int = 100) -> dict[str, object]:
    r = http.post("/training-sets/request-upload", json={"name": "fix", "filename": "f.jsonl", "size_bytes": size})
    assert r.status_code == 201
    return r.json()  # type: ignore[no-any-return]


def test_upload_makes_a_ready_set(http: httpx.Client) -> None:
    t = ticket(http)
    assert http.get(f"/training-sets/{t['training_set_id']}").json()["status"] == "pending_upload"
    body = b'{"messages": [{"role": "user", "content": "hi"}]}\n\n{"prompt": "a", "completion": "b"}\n'
    r = sim_http.put(str(t["upload_url"]), content=body)
    assert r.status_code == 200
    ready = http.get(f"/training-sets/{t['training_set_id']}").json()
    assert ready["status"] == "ready" and ready["example_count"] == 2 and ready["size_bytes"] == len(body)
    assert sim_http.put(str(t["upload_url"]), content=body).status_code == 404  # a ticket is used once


def test_upload_rejects_bad_jsonl_and_oversize(http: httpx.Client) -> None:
    t = ticket(http)
    r = sim_http.put(str(t["upload_url"]), content=b'{"ok": 1}\nnot json\n')
    assert r.status_code == 422 and r.json() == {"error": "line 2 is not valid JSON"}
    assert sim_http.put(str(t["upload_url"]), content=b"[1, 2]\n").json() == {"error": "line 1 is not a JSON object"}
    r = http.post(
        "/training-sets/request-upload", json={"name": "big", "filename": "b.jsonl", "size_bytes": MAX_UPLOAD_BYTES + 1}
    )
    assert r.status_code == 413 and "limit" in r.json()["error"]
    big = sim_http.put(str(ticket(http)["upload_url"]), content=b"{}\n" * (MAX_UPLOAD_BYTES // 3 + 2))
    assert big.status_code == 413


def test_lens_for_a_model_without_bundle(http: httpx.Client, own: SimulatorServer) -> None:
    peer = own.peer_model_ids[0]
    assert http.get(f"/models/{peer}/lens").json() == {"model_id": peer, "available": False}
    r = http.post(f"/models/{peer}/lens/analyze", json={"prompt": "x"})
    assert r.status_code == 404 and r.json() == {"error": "model has no Lens bundle"}
    assert http.get("/models/nope/lens").status_code == 404


def test_lens_streams_one_token_per_step(http: httpx.Client, own: SimulatorServer) -> None:
    r = http.post(
        f"/models/{own.person_model_id}/lens/analyze", json={"prompt": "Once upon a", "max_new_tokens": 2, "top_k": 3}
    )
    events = [json.loads(line) for line in r.text.splitlines()]
    tokens = [e["token"] for e in events if e["type"] == "token"]
    assert len(tokens) == 2 and tokens[0] == " time"
    for e in events:
        if e["type"] == "layer":
            probs = [k["prob"] for k in e["top_k"]]
            assert probs == sorted(probs, reverse=True) and all(0 <= p <= 1 for p in probs)


CHECKS: list[tuple[str, type[BaseModel], bool]] = [
    ("/models", schemas.Model, True),
    ("/evals", schemas.Eval, True),
    ("/runs", schemas.Run, True),
    ("/leaderboard", schemas.LeaderboardEntry, True),
    ("/games", schemas.Game, True),
    ("/training-sets", schemas.TrainingSet, True),
    ("/models/{p}/results", schemas.Result, True),
    ("/models/{p}/logs?limit=500&stats=true", schemas.LogPage, False),
    ("/models/{p}/diagnose", schemas.Diagnosis, False),
    ("/models/{p}/health", schemas.Health, False),
    ("/chatroom?limit=500", schemas.ChatroomPage, False),
    ("/evals/ev-json-1", schemas.Eval, False),
    ("/models/{p}/lens", schemas.LensBundle, False),
]


@pytest.mark.parametrize(("path", "shape", "many"), CHECKS)
def test_served_json_matches_the_documented_schema(
    http: httpx.Client, own: SimulatorServer, path: str, shape: type[BaseModel], many: bool
) -> None:
    body = http.get(path.replace("{p}", own.person_model_id)).json()
    for item in body if many else [body]:
        shape.model_validate(item, strict=False)
        extra = set(item) - set(shape.model_fields)
        assert not extra, f"undocumented fields {extra}"


def test_live_mode_keeps_activity_coming() -> None:
    with SimulatorServer(seed=11, speed=40.0, live=True) as server, sim_http.Client(timeout=10) as http:
        url = f"{server.base_url}/api/v1/models/{server.person_model_id}/logs"
        since = http.get(url, params={"limit": 1}).json()["next_since"]
        room_since = http.get(f"{server.base_url}/api/v1/chatroom", params={"limit": 1}).json()["next_since"]
        deadline = time.monotonic() + 20
        burst_seen = False
        while time.monotonic() < deadline and not burst_seen:
            time.sleep(0.2)
            burst_seen = len(http.get(url, params={"since": since, "limit": 500}).json()["logs"]) == 500
        assert burst_seen  # more than a page landed between two polls
        new_room = http.get(f"{server.base_url}/api/v1/chatroom", params={"since": room_since}).json()["messages"]
        assert new_room
        live_runs = [
            r for r in http.get(f"{server.base_url}/api/v1/runs").json() if r["started_at"] >= server.world.anchor_ms
        ]  # started after the seeded past
        assert live_runs and live_runs[0]["status"] in ("queued", "running", "completed")


def test_cli_prints_url_key_and_model() -> None:
    stop = threading.Event()
    out = io.StringIO()
    done: list[int] = []

    def run() -> None:
        with redirect_stdout(out):
            done.append(cli.main(["--seed", "11", "--quiet-world", "--chaos", "429=0.0"], stop=stop))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while "your model id" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        text = out.getvalue()
        base = text.split("API base:")[1].split()[0]
        assert sim_http.get(base + "/api/v1/models").status_code == 200
        assert "blah_demo_council_" in text and "tinystories-chat-1m" in text
    finally:
        stop.set()
        thread.join(timeout=15)
    assert done == [0]


def test_cli_rejects_a_bad_chaos_spec() -> None:
    with pytest.raises(SystemExit) as exc, redirect_stdout(io.StringIO()):
        cli.main(["--chaos", "boom=1"])
    assert exc.value.code == 2
