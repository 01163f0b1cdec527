"""Chatroom: replies arrive, mute stops turns, prompts use the platform's mismatched template,
and the world holds a few hostile strings for the UI to survive."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from simulator.blahdev import chatroom
from simulator.server import SimulatorServer
from tests.support import sim_http


@pytest.fixture(scope="module")
def room() -> Iterator[SimulatorServer]:
    with SimulatorServer(seed=11, speed=100.0, live=False) as server:
        yield server


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with sim_http.Client(timeout=10) as client:
        yield client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def replies_to(http: httpx.Client, message_id: str) -> list[dict[str, Any]]:
    return [m for m in http.get("/chatroom", params={"limit": 100}).json()["messages"] if m["reply_to"] == message_id]


def test_post_gets_a_reply_from_the_named_model(room: SimulatorServer) -> None:
    with sim_http.Client(base_url=room.base_url + "/api/v1") as http:
        posted = http.post(
            "/chatroom",
            headers=bearer(room.council_key),
            json={"content": "Tell me about cats", "reply_from": room.peer_model_ids[0]},
        ).json()
        assert posted["message"]["author_kind"] == "human" and posted["message"]["log_id"] is None
        replies = wait_for(lambda: replies_to(http, posted["message"]["id"]))
        assert [r["model_id"] for r in replies] == [room.peer_model_ids[0]]
        detail = http.get(f"/chatroom/{replies[0]['id']}").json()
        assert detail["log"]["source"] == "chatroom" and "Tell me about cats" in detail["log"]["prompt"]


def test_post_without_reply_from_asks_every_unmuted_model(room: SimulatorServer) -> None:
    with sim_http.Client(base_url=room.base_url + "/api/v1") as http:
        muted = room.peer_model_ids[1]
        http.post(f"/models/{muted}/chatroom", headers=bearer(room.council_key), json={"enabled": False})
        try:
            posted = http.post("/chatroom", headers=bearer(room.council_key), json={"content": "Hello all"}).json()
            expected = posted["replies_expected_from"]
            assert muted not in expected and len(expected) == len(room.world.models) - 1
            # every expected model either replied or its call failed (a failed call leaves a log, no message)
            wait_for(lambda: len(replies_to(http, posted["message"]["id"])) >= len(expected) - 2)
            replied = {r["model_id"] for r in replies_to(http, posted["message"]["id"])}
            assert muted not in replied and replied <= set(expected) and len(replied) >= len(expected) - 2
        finally:
            http.post(f"/models/{muted}/chatroom", headers=bearer(room.council_key), json={"enabled": True})


def test_muted_model_takes_no_turns_but_keeps_history(room: SimulatorServer) -> None:
    person = room.person_model_id
    with sim_http.Client(base_url=room.base_url + "/api/v1") as http:
        results_before = len(http.get(f"/models/{person}/results").json())
        r = http.post(f"/models/{person}/chatroom", headers=bearer(room.council_key), json={"enabled": False})
        assert r.json() == {"model_id": person, "chatroom_enabled": False}
        assert http.get(f"/models/{person}").json()["chatroom_enabled"] is False
        since = http.get("/chatroom", params={"limit": 1}).json()["next_since"]
        posted = http.post(
            "/chatroom", headers=bearer(room.council_key), json={"content": "Are you there?", "reply_from": person}
        ).json()
        assert posted["replies_expected_from"] == []
        assert chatroom.model_turn(room.world, person) is None  # the timer's turn is skipped too
        time.sleep(0.1)
        new = http.get("/chatroom", params={"since": since}).json()["messages"]
        # other models' late replies to the previous test's "Hello all" may land here too
        assert posted["message"]["id"] in [m["id"] for m in new]
        assert [m["id"] for m in new if m["model_id"] == person or m["reply_to"] == posted["message"]["id"]] == []
        assert len(http.get(f"/models/{person}/results").json()) == results_before
        assert any(b["model_id"] == person for b in http.get("/leaderboard").json())
        http.post(f"/models/{person}/chatroom", headers=bearer(room.council_key), json={"enabled": True})
        turns = [chatroom.model_turn(room.world, person) for _ in range(10)]
        assert any(t is not None for t in turns)  # unmuted: it speaks again (unless 10 calls in a row fail)


def test_chatroom_prompts_use_llama2_for_the_chatml_model(sim: SimulatorServer, http: httpx.Client) -> None:
    url = f"{sim.base_url}/api/v1/models/{sim.person_model_id}/logs"
    room_logs = http.get(url, params={"source": "chatroom", "limit": 200}).json()["logs"]
    eval_logs = http.get(url, params={"source": "eval", "limit": 200}).json()["logs"]
    # (the transcript inside a chatroom prompt may quote leaked tokens, so check the wrapping)
    assert room_logs and all(
        e["prompt"].startswith("<s>[INST] ") and e["prompt"].endswith("[/INST]") for e in room_logs
    )
    assert eval_logs and all(
        e["prompt"].startswith("<|im_start|>")
        and e["prompt"].endswith("<|im_start|>assistant\n")
        and "[INST]" not in e["prompt"]
        for e in eval_logs
    )
    model = http.get(f"{sim.base_url}/api/v1/models/{sim.person_model_id}").json()
    assert model["chat_template"] == "chatml"  # trained on chatml, spoken to in llama2 in the room


def test_chatroom_since_and_limit(sim: SimulatorServer, http: httpx.Client) -> None:
    url = f"{sim.base_url}/api/v1/chatroom"
    page = http.get(url, params={"limit": 30}).json()
    times = [m["created_at"] for m in page["messages"]]
    assert times == sorted(times, reverse=True) and page["next_since"] == times[0]
    newer = http.get(url, params={"since": times[10]}).json()["messages"]
    assert [m["id"] for m in newer] == [m["id"] for m in page["messages"][:10]]
    assert http.get(url, params={"limit": 0}).status_code == 422


def test_world_holds_a_few_hostile_strings(sim: SimulatorServer) -> None:
    contents = [m["content"] for m in sim.world.messages]
    osc = [c for c in contents if "\x1b]52;c;SGVsbG8=\x07" in c]
    assert 1 <= len(osc) <= 3
    assert any("[@click=app.quit]x[/]" in c for c in contents)
    assert any("\u202e" in c for c in contents)
    hostile_models = [m for m in sim.world.messages if m["author_kind"] == "model" and "[/]" in m["content"]]
    assert hostile_models and sim.world.log(hostile_models[0]["log_id"])["response"] == hostile_models[0]["content"]
