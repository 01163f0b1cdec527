"""Every request the simulator answered: method, path, query and status (never a header value).

Outermost ASGI middleware, so it also sees the statuses chaos made up. Tests count writes
with it ("one confirmation, one POST") and scan it for a leaked key (a key in a query string
would show here). The Authorization header is recorded only as present or absent.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_RECORDS = 50_000


@dataclass(frozen=True, slots=True)
class RequestRecord:
    at_ms: int
    method: str
    path: str
    query: str
    status: int | None
    """None when the response never started (a dropped connection)."""
    authorized: bool
    """An ``Authorization`` header was sent (its value is never kept)."""

    def line(self) -> str:
        """One access-log line, e.g. ``POST /api/v1/runs?x=1 201 auth``."""
        query = f"?{self.query}" if self.query else ""
        return f"{self.method} {self.path}{query} {self.status or '-'} {'auth' if self.authorized else '-'}"


class RequestLog:
    """A bounded, thread-safe list of :class:`RequestRecord`, oldest first."""

    def __init__(self, max_records: int = MAX_RECORDS) -> None:
        self._lock = threading.Lock()
        self._records: deque[RequestRecord] = deque(maxlen=max_records)

    def add(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)

    def records(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def count(self, method: str, path_suffix: str = "") -> int:
        """Requests with this method whose path ends with ``path_suffix``."""
        method = method.upper()
        return sum(1 for r in self.records() if r.method == method and r.path.endswith(path_suffix))

    def text(self) -> str:
        """The whole log as access-log lines (what a person would read, or a test would scan)."""
        return "\n".join(r.line() for r in self.records())


class RequestLogMiddleware:
    """Logs every HTTP request; ``key_headers`` are the headers that carry a key on this
    platform (a record says whether one was present, never its value)."""

    def __init__(self, app: ASGIApp, log: RequestLog, key_headers: tuple[bytes, ...] = (b"authorization",)) -> None:
        self.app = app
        self.log = log
        self.key_headers = key_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        recorded = False

        def record(status: int | None) -> None:
            nonlocal recorded
            recorded = True
            authorized = any(k.lower() in self.key_headers for k, _ in scope.get("headers", ()))
            self.log.add(
                RequestRecord(
                    at_ms=int(time.time() * 1000),
                    method=scope.get("method", "?"),
                    path=scope.get("path", ""),
                    query=scope.get("query_string", b"").decode("latin-1"),
                    status=status,
                    authorized=authorized,
                )
            )

        async def watch(message: Message) -> None:
            # Recorded before the first byte leaves: a client that has read the response
            # always finds its request in the log (recording after the body raced the test).
            if message["type"] == "http.response.start" and not recorded:
                record(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if not recorded:
                record(None)
