"""A small local receiver for the platform's webhooks (no Textual).

``asyncio.start_server`` in the app's own event loop, with ``h11`` doing the HTTP/1.1
parsing (no hand-rolled header parser). One request per connection, then the connection
is closed. What it accepts:

* ``POST <path>`` only: another path is 404, another method 405 (with ``Allow: POST``).
* A body of at most ``max_body`` bytes (413 otherwise, before reading more), read within
  ``timeout`` seconds in all (408 otherwise): a peer that trickles cannot hold it open.
* ``X-Blah-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`` matching the shared
  secret (401 otherwise, and nothing is reported to the app).
* A JSON object with a string ``event`` (400 otherwise). A delivery id seen before is
  acknowledged but not reported twice.

It listens on loopback only unless ``allow_remote=True`` is passed explicitly; even then
the signature is required. The secret never appears in a repr, an error or a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import h11
import orjson

from application.webhooks.delivery import (
    SIGNATURE_HEADER,
    Rejection,
    WebhookDelivery,
    generate_secret,
    is_loopback_host,
    sign,
    signature_ok,
)
from common.lru import BoundedLRU

__all__ = [
    "DEFAULT_PATH",
    "SIGNATURE_HEADER",
    "Rejection",
    "WebhookDelivery",
    "WebhookReceiver",
    "generate_secret",
    "is_loopback_host",
    "sign",
    "signature_ok",
]

log = logging.getLogger("blah_tui.webhooks")

DEFAULT_PATH = "/blah-webhook"
MAX_BODY = 256 * 1024
MAX_HEAD = 16 * 1024
READ_TIMEOUT = 5.0
MAX_CONNECTIONS = 16
_SEEN_IDS = 512
_READ_CHUNK = 16 * 1024


@dataclass
class ReceiverStats:
    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0
    rejections: deque[Rejection] = field(default_factory=lambda: deque(maxlen=20))


class _Reject(Exception):
    def __init__(self, status: int, reason: str, headers: list[tuple[str, str]] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.headers = headers or []


class WebhookReceiver:
    """Listens for webhook deliveries and hands each verified one to ``on_event``.

    ``on_event`` is called in the event loop the receiver was started in; an exception in it
    is logged and does not affect the answer to the platform.
    """

    def __init__(
        self,
        on_event: Callable[[WebhookDelivery], None],
        *,
        secret: str,
        host: str = "127.0.0.1",
        port: int = 0,
        path: str = DEFAULT_PATH,
        allow_remote: bool = False,
        max_body: int = MAX_BODY,
        timeout: float = READ_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        if not secret:
            raise ValueError("a webhook receiver needs a shared secret")
        if not allow_remote and not is_loopback_host(host):
            raise ValueError(
                f"refusing to listen on {host!r}: only loopback unless remote listening is allowed explicitly"
            )
        if not path.startswith("/"):
            raise ValueError("path must start with '/'")
        self._on_event = on_event
        self._secret = secret
        self.host = host
        self.port = port
        self.path = path
        self.allow_remote = allow_remote
        self.max_body = max_body
        self.timeout = timeout
        self.max_connections = max_connections
        self.stats = ReceiverStats()
        self._server: asyncio.Server | None = None
        self._active = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: BoundedLRU[str, None] = BoundedLRU(_SEEN_IDS)

    def __repr__(self) -> str:  # never the secret
        state = self.url or "not listening"
        return f"<WebhookReceiver {state} accepted={self.stats.accepted} rejected={self.stats.rejected}>"

    # ------------------------------------------------------------------ lifecycle

    @property
    def listening(self) -> bool:
        return self._server is not None and self._server.is_serving()

    @property
    def url(self) -> str | None:
        """Where it listens, e.g. ``http://127.0.0.1:54321/blah-webhook`` (None when stopped)."""
        if not self.listening:
            return None
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{self.path}"

    async def start(self) -> str:
        """Start listening; returns the URL. The port is chosen by the OS when it is 0."""
        if self._server is not None:
            raise RuntimeError("already started")
        self._server = await asyncio.start_server(
            self._accept, self.host, self.port, limit=MAX_HEAD, reuse_address=True
        )
        sockname = self._server.sockets[0].getsockname()
        self.port = int(sockname[1])
        url = self.url
        assert url is not None
        return url

    def close(self) -> None:
        """Stop listening now and drop open connections (sync: safe at app exit)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for task in list(self._tasks):
            task.cancel()

    async def stop(self) -> None:
        server = self._server
        tasks = list(self._tasks)
        self.close()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2.0)

    # ------------------------------------------------------------------ connections

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._serve_one(reader, writer)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("webhook connection failed")
        finally:
            if task is not None:
                self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        if self._active >= self.max_connections:
            await self._respond(writer, conn, _Reject(503, "too many connections"), reject_raw=True)
            return
        self._active += 1
        try:
            peer = writer.get_extra_info("peername")
            peer_host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if not self.allow_remote and not is_loopback_host(peer_host):
                await self._respond(writer, conn, _Reject(403, "not a loopback peer"), reject_raw=True)
                return
            try:
                async with asyncio.timeout(self.timeout):
                    body, headers = await self._read_request(reader, conn)
                delivery = self._verify(body, headers)
            except TimeoutError:
                await self._respond(writer, conn, _Reject(408, "request not received in time"))
                return
            except _Reject as rejection:
                await self._respond(writer, conn, rejection)
                return
            except h11.RemoteProtocolError:
                await self._respond(writer, conn, _Reject(400, "malformed HTTP"), reject_raw=True)
                return
            await self._respond(writer, conn, None)
            if delivery is not None:
                self._report(delivery)
        finally:
            self._active -= 1

    async def _read_request(self, reader: asyncio.StreamReader, conn: h11.Connection) -> tuple[bytes, dict[str, str]]:
        body = bytearray()
        headers: dict[str, str] = {}
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(await reader.read(_READ_CHUNK))
                continue
            if isinstance(event, h11.Request):
                headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in event.headers}
                self._check_head(event, headers)
            elif isinstance(event, h11.Data):
                body += event.data
                if len(body) > self.max_body:
                    raise _Reject(413, f"body larger than {self.max_body} bytes")
            elif isinstance(event, h11.EndOfMessage):
                return bytes(body), headers
            else:  # ConnectionClosed or PAUSED: the peer went away mid-request
                raise _Reject(400, "incomplete request")

    def _check_head(self, request: h11.Request, headers: Mapping[str, str]) -> None:
        target = request.target.decode("latin-1").split("?", 1)[0]
        if target != self.path:
            raise _Reject(404, "no such path")
        if request.method != b"POST":
            raise _Reject(405, "only POST", [("Allow", "POST")])
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            raise _Reject(413, f"body larger than {self.max_body} bytes")

    def _verify(self, body: bytes, headers: Mapping[str, str]) -> WebhookDelivery | None:
        """The delivery, or None for a duplicate; raises ``_Reject`` for anything else."""
        if not signature_ok(self._secret, body, headers.get(SIGNATURE_HEADER)):
            raise _Reject(401, "missing or bad signature")
        try:
            payload = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise _Reject(400, "body is not JSON") from None
        if not isinstance(payload, dict) or not isinstance(payload.get("event"), str):
            raise _Reject(400, "not a webhook event")
        delivery_id = payload.get("id") if isinstance(payload.get("id"), str) else None
        delivery_id = delivery_id or headers.get("x-blah-delivery") or None
        if delivery_id is not None and not self._seen.add(delivery_id):
            self.stats.duplicates += 1
            return None
        data = payload.get("data")
        created = payload.get("created_at")
        return WebhookDelivery(
            event=payload["event"],
            delivery_id=delivery_id,
            created_at=created if isinstance(created, int) and not isinstance(created, bool) else None,
            data=data if isinstance(data, dict) else {},
            received_at_ms=int(time.time() * 1000),
        )

    def _report(self, delivery: WebhookDelivery) -> None:
        self.stats.accepted += 1
        try:
            self._on_event(delivery)
        except Exception:
            log.exception("webhook handler failed")

    async def _respond(
        self,
        writer: asyncio.StreamWriter,
        conn: h11.Connection,
        rejection: _Reject | None,
        *,
        reject_raw: bool = False,
    ) -> None:
        if rejection is None:
            status, payload, extra = 200, b'{"ok":true}', []
        else:
            self.stats.rejected += 1
            self.stats.rejections.append(Rejection(rejection.status, rejection.reason, int(time.time() * 1000)))
            status = rejection.status
            payload = orjson.dumps({"error": rejection.reason})
            extra = rejection.headers
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(payload))),
            ("Connection", "close"),
            *extra,
        ]
        try:
            if reject_raw or conn.our_state is not h11.SEND_RESPONSE:
                data = _raw_response(status, headers, payload)
            else:
                data = conn.send(h11.Response(status_code=status, headers=headers)) or b""
                data += conn.send(h11.Data(data=payload)) or b""
                data += conn.send(h11.EndOfMessage()) or b""
            writer.write(data)
            async with asyncio.timeout(self.timeout):
                await writer.drain()
        except (ConnectionError, TimeoutError, h11.LocalProtocolError):
            pass


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    413: "Content Too Large",
    503: "Service Unavailable",
}


def _raw_response(status: int, headers: list[tuple[str, str]], payload: bytes) -> bytes:
    """A response written without h11's state machine (when the request never parsed)."""
    head = f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in headers)
    return head.encode("latin-1") + b"\r\n" + payload
