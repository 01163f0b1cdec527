"""The generic request log (``simulator.request_log``), with Blobfish's key header counted.

Blobfish keys travel in ``X-API-Key`` (or ``Authorization: Bearer``); a record says only
whether one of them was present, never its value.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from simulator.request_log import RequestLog, RequestRecord

KEY_HEADERS = (b"authorization", b"x-api-key")


class BlobfishRequestLogMiddleware:
    def __init__(self, app: ASGIApp, log: RequestLog) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        recorded = False

        def record(status: int | None) -> None:
            nonlocal recorded
            recorded = True
            authorized = any(k.lower() in KEY_HEADERS for k, _ in scope.get("headers", ()))
            self.log.add(RequestRecord(
                at_ms=int(time.time() * 1000), method=scope.get("method", "?"), path=scope.get("path", ""),
                query=scope.get("query_string", b"").decode("latin-1"), status=status, authorized=authorized,
            ))

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and not recorded:  # before the client can read it
                record(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if not recorded:
                record(None)
