"""The evaluation JSONL route's fast path answers exactly what the FastAPI route answers: the
same status, headers and bytes, for the plain good request (which it serves itself) and for
every request it must not serve (which it hands to the route, errors included)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI

from simulator.blobfish.app import create_app
from simulator.blobfish.live import LivePublisher
from simulator.blobfish.store import EvaluationStore
from simulator.chaos import ChaosState
from simulator.request_log import RequestLog

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


@pytest.fixture(scope="module")
def store() -> EvaluationStore:
    return EvaluationStore(seed=5, anchor_s=1_780_000_000.0)


def app(store: EvaluationStore, fast: bool) -> tuple[FastAPI, RequestLog]:
    log = RequestLog()
    return create_app(store, LivePublisher(store, 1.0, False), ChaosState(), log, jsonl_fast_path=fast), log


def ask(application: FastAPI, method: str, path: str, query: bytes, headers: list[tuple[bytes, bytes]]) -> Answer:
    """One request straight through the ASGI app: the status, every header as sent, the body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], list(start["headers"]), body


def requests(store: EvaluationStore) -> list[tuple[str, str, str, bytes, list[tuple[bytes, bytes]]]]:
    """(name, method, path, query, headers): the good request in its spellings, then bad ones."""
    mine = store.account.evaluations[0]["evaluation_id"]
    other = store.account.evaluations[-1]["evaluation_id"]
    key = store.account_key.encode()
    iso = store.isolated_key.encode()
    path = f"/api/v1/evaluations/{mine}"
    q = b"format=jsonl"
    return [
        ("good", "GET", path, q, [(b"x-api-key", key)]),
        ("good, another evaluation", "GET", f"/api/v1/evaluations/{other}", q, [(b"x-api-key", key)]),
        ("good, key with spaces", "GET", path, q, [(b"x-api-key", b"  " + key + b" ")]),
        ("bearer key", "GET", path, q, [(b"authorization", b"Bearer " + key)]),
        ("both headers, same key", "GET", path, q, [(b"x-api-key", key), (b"authorization", b"Bearer " + key)]),
        ("both headers, two keys", "GET", path, q, [(b"x-api-key", key), (b"authorization", b"Bearer " + iso)]),
        ("two x-api-key headers", "GET", path, q, [(b"x-api-key", iso), (b"x-api-key", key)]),
        ("no key", "GET", path, q, []),
        ("empty key", "GET", path, q, [(b"x-api-key", b"  ")]),
        ("not a bf_ key", "GET", path, q, [(b"x-api-key", b"blah_" + key[3:])]),
        ("unknown key", "GET", path, q, [(b"x-api-key", key + b"0")]),
        ("another scope's evaluation", "GET", path, q, [(b"x-api-key", iso)]),
        (
            "unknown evaluation",
            "GET",
            "/api/v1/evaluations/00000000-0000-0000-0000-000000000000",
            q,
            [(b"x-api-key", key)],
        ),
        ("format json", "GET", path, b"format=json", [(b"x-api-key", key)]),
        ("no format", "GET", path, b"", [(b"x-api-key", key)]),
        ("bad format", "GET", path, b"format=JSONL", [(b"x-api-key", key)]),
        ("format twice", "GET", path, b"format=json&format=jsonl", [(b"x-api-key", key)]),
        ("another parameter", "GET", path, b"format=jsonl&limit=5", [(b"x-api-key", key)]),
        ("HEAD", "HEAD", path, q, [(b"x-api-key", key)]),
        ("POST", "POST", path, q, [(b"x-api-key", key)]),
        ("DELETE", "DELETE", path, q, [(b"x-api-key", key)]),
        ("trailing slash", "GET", path + "/", q, [(b"x-api-key", key)]),
        ("deeper path", "GET", path + "/traces", q, [(b"x-api-key", key)]),
        ("no id", "GET", "/api/v1/evaluations/", q, [(b"x-api-key", key)]),
        ("outside the prefix", "GET", f"/evaluations/{mine}", q, [(b"x-api-key", key)]),
    ]


def test_the_fast_path_answers_as_the_route_does(store: EvaluationStore) -> None:
    fast, fast_log = app(store, True)
    normal, normal_log = app(store, False)
    for name, method, path, query, headers in requests(store):
        got = ask(fast, method, path, query, headers)
        expected = ask(normal, method, path, query, headers)
        assert got == expected, name
        if name.startswith("good"):
            status, answer_headers, body = got
            assert status == 200 and dict(answer_headers)[b"content-type"] == b"application/x-ndjson", name
            assert body.endswith(b"\n") and body.count(b"\n") >= 1, name
    # the request log (outermost) saw the same requests and statuses both ways
    assert fast_log.text() == normal_log.text()


def test_the_fast_path_serves_the_good_request_and_only_that(store: EvaluationStore) -> None:
    """Without this the comparison above could pass with the fast path never taken."""
    from simulator.blobfish.jsonl_fast_path import JsonlFastPath

    handed_on: list[str] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        handed_on.append(scope["path"])
        await send({"type": "http.response.start", "status": 599, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    fast = JsonlFastPath(route, store, "/api/v1")
    for name, method, path, query, headers in requests(store):
        before = len(handed_on)
        status, _, body = ask(fast, method, path, query, headers)  # type: ignore[arg-type]
        if name.startswith("good"):
            assert (status, len(handed_on)) == (200, before), name
            assert body == store.jsonl(store.account, path.rsplit("/", 1)[1]), name
        else:
            assert (status, len(handed_on)) == (599, before + 1), name


def test_the_jsonl_body_is_the_envelopes_traces_line_by_line(store: EvaluationStore) -> None:
    import json

    evaluation = store.account.evaluations[3]
    body = store.jsonl(store.account, evaluation["evaluation_id"])
    assert body is not None
    assert [json.loads(line) for line in body.splitlines()] == evaluation["envelope"]["traces"]
    assert store.jsonl(store.isolated, evaluation["evaluation_id"]) is None
