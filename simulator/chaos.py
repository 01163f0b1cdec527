"""Chaos injection: an ASGI middleware that makes ``/api/v1`` misbehave like a bad network.

One fault at most per request, drawn from a seeded RNG with the configured rates:

- ``5xx``: 500, 502 or 503 with ``{"error"}`` (503 carries ``Retry-After``);
- ``429``: ``{"error"}`` with ``Retry-After: retry_after``;
- ``latency``: the request waits ``latency_s`` seconds before being served normally;
- ``reset``: headers (with the full Content-Length) and half the body are sent, then the
  connection is dropped: clients see ``httpx.RemoteProtocolError``;
- ``truncate``: a well-formed HTTP response whose body (and Content-Length) is cut in half:
  the JSON does not parse;
- ``trickle``: the body arrives in up to 200 pieces (byte by byte for bodies under 200
  bytes), 5 ms apart;
- ``html``: a 502 ``text/html`` error page instead of JSON.

Toggle at runtime through ``SimulatorServer.chaos`` / ``set_chaos`` (a ``ChaosState``).
Every injected fault is counted by kind (``ChaosState.counts()``, ``SimulatorServer.chaos_counts()``;
5xx are counted as ``5xx``), so a soak test can say how many faults its client lived through.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import threading
from collections import Counter
from dataclasses import dataclass, fields
from typing import Any, NoReturn

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FAULTS = ("5xx", "429", "latency", "reset", "truncate", "trickle", "html")
_SPEC_NAMES = {
    "5xx": "rate_5xx",
    "429": "rate_429",
    "latency": "rate_latency",
    "reset": "rate_reset",
    "truncate": "rate_truncate",
    "trickle": "rate_trickle",
    "html": "rate_html",
    "retry_after": "retry_after",
    "latency_s": "latency_s",
    "seed": "seed",
}
TRICKLE_PIECES = 200
TRICKLE_GAP_S = 0.005


@dataclass(frozen=True)
class ChaosConfig:
    rate_5xx: float = 0.0
    rate_429: float = 0.0
    retry_after: int = 1
    rate_latency: float = 0.0
    latency_s: float = 2.0
    rate_reset: float = 0.0
    rate_truncate: float = 0.0
    rate_trickle: float = 0.0
    rate_html: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        rates = [getattr(self, f"rate_{n}") for n in ("5xx", "429", "latency", "reset", "truncate", "trickle", "html")]
        if any(not 0.0 <= r <= 1.0 for r in rates) or sum(rates) > 1.0 + 1e-9:
            raise ValueError("chaos rates must each be within 0-1 and add up to at most 1")
        if self.retry_after < 0 or self.latency_s < 0:
            raise ValueError("retry_after and latency_s must not be negative")

    @classmethod
    def parse(cls, spec: str) -> ChaosConfig:
        """``"5xx=0.1,429=0.05,reset=0.02,latency=0.1,latency_s=2,retry_after=1,seed=3"``."""
        values: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            name, sep, raw = part.partition("=")
            field = _SPEC_NAMES.get(name.strip())
            if not sep or field is None:
                raise ValueError(f"unknown chaos setting {name.strip()!r}; known: {', '.join(_SPEC_NAMES)}")
            try:
                values[field] = int(raw) if types[field] in ("int", int) else float(raw)
            except ValueError as exc:
                raise ValueError(f"chaos setting {name.strip()!r} needs a number, got {raw!r}") from exc
        return cls(**values)

    def rate(self, fault: str) -> float:
        return float(getattr(self, _SPEC_NAMES[fault]))


class ChaosState:
    """The current config and its RNG; safe to swap from any thread."""

    def __init__(self, config: ChaosConfig | None = None) -> None:
        self._lock = threading.Lock()
        self.config: ChaosConfig | None = None
        self._rng = random.Random(0)
        self._counts: Counter[str] = Counter()
        self.set(config)

    def counts(self) -> dict[str, int]:
        """Faults injected so far, by kind (``FAULTS`` names); survives ``set``."""
        with self._lock:
            return dict(self._counts)

    def reset_counts(self) -> None:
        with self._lock:
            self._counts.clear()

    def set(self, config: ChaosConfig | None) -> None:
        with self._lock:
            self.config = config
            self._rng = random.Random(config.seed if config else 0)

    def pick(self) -> tuple[str | None, ChaosConfig | None]:
        with self._lock:
            config = self.config
            if config is None:
                return None, None
            roll = self._rng.random()
            choice = self._rng.choice((500, 502, 503))
        edge = 0.0
        for fault in FAULTS:
            edge += config.rate(fault)
            if roll < edge:
                with self._lock:
                    self._counts[fault] += 1
                return (f"5xx:{choice}" if fault == "5xx" else fault), config
        return None, config


class ChaosReset(Exception):
    """Raised after a partial body to make the server drop the connection."""


class _DropChaosReset(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, ChaosReset)


def quiet_resets() -> None:
    """Keep uvicorn from printing a traceback for every deliberate reset (installed once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _DropChaosReset) for f in logger.filters):
        logger.addFilter(_DropChaosReset())


async def _simple(send: Send, status: int, body: bytes, content_type: str, extra: dict[str, str]) -> None:
    headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


_HTML = (
    b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
    b"<p>The upstream server returned an invalid response.</p><hr><center>nginx</center></body></html>"
)


class ChaosMiddleware:
    def __init__(self, app: ASGIApp, state: ChaosState, prefix: str = "/api/v1") -> None:
        self.app = app
        self.state = state
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        fault, config = self.state.pick()
        if fault is None or config is None:
            await self.app(scope, receive, send)
            return
        if fault.startswith("5xx:"):
            status = int(fault[4:])
            extra = {"Retry-After": str(config.retry_after)} if status == 503 else {}
            await _simple(send, status, b'{"error": "chaos: upstream failure"}', "application/json", extra)
        elif fault == "429":
            await _simple(
                send, 429, b'{"error": "rate limited"}', "application/json", {"Retry-After": str(config.retry_after)}
            )
        elif fault == "html":
            await _simple(send, 502, _HTML, "text/html; charset=utf-8", {})
        elif fault == "latency":
            await asyncio.sleep(config.latency_s)
            await self.app(scope, receive, send)
        else:
            await self._mangle(fault, scope, receive, send)

    async def _mangle(self, fault: str, scope: Scope, receive: Receive, send: Send) -> None:
        start, body = await answer_of(self.app, scope, receive)
        if start is None:
            return
        if fault == "reset":
            await reset_mid_body(send, start, body, "chaos: connection reset mid-body")
        half = body[: len(body) // 2]
        if fault == "truncate":
            await send(with_length(start, len(half)))
            await send({"type": "http.response.body", "body": half, "more_body": False})
            return
        await send(with_length(start, len(body)))
        size = max(1, math.ceil(len(body) / TRICKLE_PIECES))
        for offset in range(0, len(body), size):
            await send({"type": "http.response.body", "body": body[offset : offset + size], "more_body": True})
            await asyncio.sleep(TRICKLE_GAP_S)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def answer_of(app: ASGIApp, scope: Scope, receive: Receive) -> tuple[Message | None, bytes]:
    """Let ``app`` answer the request (it takes effect) and keep the answer instead of sending
    it: its start message (None if it sent none) and its whole body."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def capture(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, capture)
    return start, b"".join(chunks)


def with_length(start: Message, length: int) -> Message:
    """The answer's start message, its Content-Length said as ``length``."""
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
    return {**start, "headers": headers + [(b"content-length", str(length).encode())]}


async def reset_mid_body(send: Send, start: Message, body: bytes, why: str) -> NoReturn:
    """Promise the whole body, send half of it, then drop the connection (:class:`ChaosReset`)."""
    await send(with_length(start, len(body)))
    await send({"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True})
    raise ChaosReset(why)
