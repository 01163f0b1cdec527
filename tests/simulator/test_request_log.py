"""The simulator's access log: a request is on it by the time its client can read the response."""

from __future__ import annotations

import asyncio

from starlette.types import Message, Receive, Scope, Send

from simulator.request_log import RequestLog, RequestLogMiddleware


def _scope(path: str = "/api/v1/logs", auth: bool = True) -> Scope:
    headers = [(b"authorization", b"Bearer secret-key")] if auth else []
    return {"type": "http", "method": "GET", "path": path, "query_string": b"limit=5", "headers": headers}


async def _receive() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def test_the_request_is_logged_before_the_client_sees_a_byte() -> None:
    """A test that counted requests right after reading a response found none: the record was
    written only after the whole body had gone out."""
    log = RequestLog()
    body_may_go = asyncio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": []})
        await body_may_go.wait()
        await send({"type": "http.response.body", "body": b"{}"})

    seen_at_start: list[int] = []

    async def client_side(message: Message) -> None:
        if message["type"] == "http.response.start":
            seen_at_start.append(log.count("GET", "/logs"))

    task = asyncio.create_task(RequestLogMiddleware(app, log)(_scope(), _receive, client_side))
    await asyncio.sleep(0.01)
    assert seen_at_start == [1]
    body_may_go.set()
    await task
    assert [r.line() for r in log.records()] == ["GET /api/v1/logs?limit=5 503 auth"]  # once, never twice
    assert "secret-key" not in log.text()


async def test_a_dropped_connection_is_logged_without_a_status() -> None:
    log = RequestLog()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise ConnectionResetError("dropped")

    async def client_side(message: Message) -> None:
        raise AssertionError("nothing was sent")

    try:
        await RequestLogMiddleware(app, log)(_scope(auth=False), _receive, client_side)
    except ConnectionResetError:
        pass
    assert [r.line() for r in log.records()] == ["GET /api/v1/logs?limit=5 - -"]
