"""What the benchmark-run tests share: a fake clock the simulator and the watch both read, and
transports that break the polls of a suite (never the POST) in a scripted way."""

from __future__ import annotations

from collections.abc import Iterator

import httpx

from tests.support.blobfish import RecordingTransport

SLUG = "counselbench-100"


class FakeClock:
    """Simulated wall time: ``sleep`` advances it at once and records the wait."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class BreakPolls(RecordingTransport):
    """GETs of one run's record meet ``faults`` in turn ("503", "429", "reset", "ok"), then pass."""

    def __init__(self, faults: list[str]) -> None:
        super().__init__()
        self._faults: Iterator[str] = iter(faults)
        self.injected: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        is_poll = request.method == "GET" and "/runs/bmrs_" in request.url.path
        fault = next(self._faults, "ok") if is_poll else "ok"
        if fault == "ok":
            return await super().handle_async_request(request)
        self.injected.append(fault)
        self.sent.append((request.method, request.url.path, request.headers.copy(), b""))
        if fault == "reset":
            raise httpx.ReadError("connection reset by peer", request=request)
        if fault == "429":
            return httpx.Response(
                429, headers={"Retry-After": "7"}, json={"error": "rate_limited", "message": "slow"}, request=request
            )
        return httpx.Response(503, json={"error": "unavailable", "message": "busy"}, request=request)

    def posts(self) -> int:
        return sum(1 for method, *_ in self.sent if method == "POST")
