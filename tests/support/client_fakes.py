"""Test doubles for the api_client tests: a recording MockTransport and a log server model.

Holds no tests (named test_client_* only to sit with them): imported by the other files.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import httpx

from api_client.blahdev.client import BlahClient
from api_client.transport.retry import RetryPolicy

KEY = "blah_test_SECRET_key_0123456789"
BASE = "https://evals.blah.dev"

Handler = Callable[[httpx.Request], Any]


@dataclass
class Recorder:
    """Wraps a handler; keeps every request and every requested sleep."""

    handler: Handler
    requests: list[httpx.Request] = field(default_factory=list)
    sleeps: list[float] = field(default_factory=list)

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        result = self.handler(request)
        if asyncio.iscoroutine(result):
            result = await result
        assert isinstance(result, httpx.Response)
        return result

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


def make_client(handler: Handler, *, api_key: str | None = KEY, **kw: Any) -> tuple[BlahClient, Recorder]:
    rec = Recorder(handler)
    kw.setdefault("retry", RetryPolicy(rng=random.Random(0)))
    client = BlahClient(BASE, api_key=api_key, transport=httpx.MockTransport(rec), sleep=rec.sleep, **kw)
    return client, rec


def json_answer(data: Any, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(status, json=data, headers=headers)


class TrickleStream(httpx.AsyncByteStream):
    """A body that sends ``first`` and then one byte every ``every`` seconds, forever."""

    def __init__(self, first: bytes = b"[", every: float = 0.05) -> None:
        self.first = first
        self.every = every
        self.closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self.first
        while True:
            await asyncio.sleep(self.every)
            yield b" "

    async def aclose(self) -> None:
        self.closed = True


# --------------------------------------------------------------------------- log server model


@dataclass(frozen=True)
class Row:
    id: str
    created_at: int


class FakeLogServer:
    """``GET /api/v1/models/{id}/logs`` with the CONTRACT's semantics, over a list of rows.

    ``ignore_before``/``ignore_since`` make it a broken server for the stall tests.
    """

    def __init__(self, model_id: str = "m1") -> None:
        self.model_id = model_id
        self.rows: list[Row] = []
        self.calls: list[dict[str, Any]] = []
        self.ignore_before = False
        self.ignore_since = False
        self.fail_next: list[httpx.Response] = []
        self._n = 0

    def insert(self, created_at: int) -> Row:
        self._n += 1
        row = Row(f"log-{self._n:05d}", created_at)
        self.rows.append(row)
        return row

    def entry(self, row: Row) -> dict[str, Any]:
        return {
            "id": row.id,
            "model_id": self.model_id,
            "source": "eval",
            "created_at": row.created_at,
            "prompt": f"prompt of {row.id}",
            "response": "ok",
        }

    def handle(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path != f"/api/v1/models/{self.model_id}/logs":
            return json_answer({"error": "model not found"}, 404)
        if self.fail_next:
            return self.fail_next.pop(0)
        q = {k: v[-1] for k, v in parse_qs(request.url.query.decode()).items()}
        self.calls.append(q)
        since = None if self.ignore_since or "since" not in q else int(q["since"])
        before = None if self.ignore_before or "before" not in q else int(q["before"])
        limit = int(q.get("limit", 50))
        rows = [
            r
            for r in self.rows
            if (since is None or r.created_at > since) and (before is None or r.created_at < before)
        ]
        # newest first; within one ms the later insert first (any order is allowed)
        rows.sort(key=lambda r: (r.created_at, r.id), reverse=True)
        page = rows[:limit]
        return json_answer(
            {
                "logs": [self.entry(r) for r in page],
                "next_since": page[0].created_at if page else since,
                "next_before": page[-1].created_at if page else None,
            }
        )
