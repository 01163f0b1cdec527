"""Faults on demand: the next matching request gets a made-up status, or is carried out and
then its answer is lost (the connection drops mid-body), so a client's "outcome unknown" path
can be tested against a write that did happen."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from simulator.chaos import answer_of, reset_mid_body
from simulator.errorbar.errors import envelope
from simulator.http import dump_json

LOSE_ANSWER = "lose_answer"


@dataclass
class Fault:
    method: str
    path: str  # exact path, or a suffix when it starts with "*"
    kind: str  # LOSE_ANSWER or a status ("429", "409", "500"...)
    message: str
    retry_after: int | None
    times: int

    def matches(self, method: str, path: str) -> bool:
        if method != self.method:
            return False
        return path.endswith(self.path[1:]) if self.path.startswith("*") else path == self.path


class Faults:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[Fault] = []

    def add(self, fault: Fault) -> None:
        with self._lock:
            self._pending.append(fault)

    def take(self, method: str, path: str) -> Fault | None:
        with self._lock:
            for fault in self._pending:
                if fault.matches(method, path):
                    fault.times -= 1
                    if fault.times <= 0:
                        self._pending.remove(fault)
                    return fault
        return None


class FaultMiddleware:
    def __init__(self, app: ASGIApp, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fault = self.faults.take(scope.get("method", ""), scope.get("path", "")) if scope["type"] == "http" else None
        if fault is None:
            await self.app(scope, receive, send)
            return
        if fault.kind == LOSE_ANSWER:
            await self._lose(scope, receive, send)
            return
        status = int(fault.kind)
        body = dump_json(envelope(status, fault.message))
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if fault.retry_after is not None:
            headers.append((b"retry-after", str(fault.retry_after).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def _lose(self, scope: Scope, receive: Receive, send: Send) -> None:
        start, body = await answer_of(self.app, scope, receive)  # the request takes effect
        if start is not None:
            await reset_mid_body(send, start, body, "fault: the answer was lost")
