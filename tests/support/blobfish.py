"""What the Blobfish client and CLI tests share: httpx transports that watch or break the
traffic to a real ``BlobfishServer``, and small envelopes to publish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.support import sim_http

Json = dict[str, Any]


class RecordingTransport(httpx.AsyncBaseTransport):
    """Passes every request to the real network, keeping (method, path, headers, body)."""

    def __init__(self, after: Callable[[httpx.Request], None] | None = None) -> None:
        self._inner = sim_http.AsyncHTTPTransport()
        self._after = after
        self.sent: list[tuple[str, str, httpx.Headers, bytes]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        self.sent.append((request.method, request.url.path, request.headers.copy(), body))
        response = await self._inner.handle_async_request(request)
        if self._after is not None:
            await response.aread()
            self._after(request)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class HeadInserts(RecordingTransport):
    """After each list page is answered, ``inserts()`` evaluations are published at the head
    (before the client asks for the next page): the list shifts under the reader."""

    def __init__(self, publish: Callable[[], object], inserts: Callable[[], int]) -> None:
        def after(request: httpx.Request) -> None:
            if request.method == "GET" and request.url.path.endswith("/api/v1/evaluations"):
                for _ in range(inserts()):
                    publish()

        super().__init__(after)


class DropFirstAnswer(RecordingTransport):
    """The first POST reaches the server and is processed; its answer is then lost (as when the
    connection is reset on the way back). Later requests pass."""

    def __init__(self, error: type[httpx.TransportError] = httpx.ReadError) -> None:
        super().__init__()
        self._error = error
        self.dropped = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "POST" and not self.dropped:
            await response.aread()  # the server has answered: the publication happened
            await response.aclose()
            self.dropped += 1
            raise self._error("connection reset by peer", request=request)
        return response


class BreakMidStream(RecordingTransport):
    """A JSONL body that stops half way with a broken connection."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.url.params.get("format") != "jsonl":
            return response
        body = await response.aread()

        async def stream() -> Any:
            yield body[: len(body) // 2]
            raise httpx.ReadError("connection reset by peer", request=request)

        return httpx.Response(response.status_code, headers=response.headers, stream=_Stream(stream))


class _Stream(httpx.AsyncByteStream):
    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make

    async def __aiter__(self) -> Any:
        async for chunk in self._make():
            yield chunk


def envelope(
    job_id: str,
    rollouts: int = 1,
    *,
    status: str = "completed",
    reward: float | None = 1.0,
    passed: bool | None = True,
    prompt: str = "How many r's are in 'strawberry'?",
    taskset: str = "letter-count",
    model: str = "my-model",
) -> Json:
    """A small publication: ``rollouts`` one-step rollouts with their traces. ``reward=None``
    and ``passed=None``: the grader recorded nothing (no ``reward``, no ``grade``)."""
    traces = [
        {
            "schema": "blobfish.trace.v1",
            "trace_id": f"t{n}",
            "rollout_id": f"r{n}",
            "records": [{"type": "final", "turn": 1, "text": "3"}],
        }
        for n in range(rollouts)
    ]
    rolls = []
    for n in range(rollouts):
        rollout: Json = {
            "rollout_id": f"r{n}",
            "task_id": f"{taskset}/strawberry",
            "trace_id": f"t{n}",
            "steps": [{"index": 0, "turn": 1, "prompt": prompt, "final_answer": "3"}],
        }
        if reward is not None:
            rollout["reward"] = reward
        if passed is not None:
            rollout["grade"] = {
                "task_id": f"{taskset}/strawberry",
                "passed": passed,
                "reward": reward,
                "failed_conditions": [] if passed else ["answer is 3"],
            }
        rolls.append(rollout)
    return {
        "schema": "blobfish.sdk-evaluation.v1",
        "traces": traces,
        "job": {
            "schema": "blobfish.job.v1",
            "job_id": job_id,
            "status": status,
            "taskset": taskset,
            "metadata": {"model": model},
            "rollouts": rolls,
        },
    }
