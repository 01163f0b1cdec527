"""Cancelled requests (a superseded Textual worker) must not exhaust the connection pool.

Runs against a tiny real HTTP/1.1 server on loopback (MockTransport has no pool), whose
``/slow`` paths never answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from api_client.blahdev.client import BlahClient


class SlowServer:
    """Answers ``/api/v1/models`` at once with ``[]``; anything under ``/slow`` never."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.handlers: set[asyncio.Task[None]] = set()
        self.slow_seen = 0
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for task in list(self.handlers):
            task.cancel()
        await asyncio.gather(*self.handlers, return_exceptions=True)
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1]
                if b"slow" in path:
                    self.slow_seen += 1
                    await reader.read()  # until the client gives up and closes
                    return
                body = b"[]"
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    + f"content-length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            self.handlers.discard(task)


@pytest.fixture
async def slow_server() -> AsyncIterator[SlowServer]:
    server = SlowServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_cancelled_requests_do_not_exhaust_the_pool(slow_server: SlowServer) -> None:
    limits = httpx.Limits(max_connections=2, max_keepalive_connections=2)
    async with BlahClient(
        f"http://127.0.0.1:{slow_server.port}",
        limits=limits,
        deadline=10,
        timeout=httpx.Timeout(10, pool=3),
    ) as client:
        # 1) 50 requests at once: two hold the connections, 48 queue for the pool.
        tasks = [asyncio.create_task(client.get_model(f"slow{i}")) for i in range(50)]
        while slow_server.slow_seen < 2:
            await asyncio.sleep(0.01)
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)

        # 2) superseded one by one, each cancelled while in flight.
        for i in range(50):
            seen = slow_server.slow_seen
            one = asyncio.create_task(client.get_run(f"slow-{i}"))
            while slow_server.slow_seen == seen:
                await asyncio.sleep(0.001)
            one.cancel()
            with pytest.raises(asyncio.CancelledError):
                await one

        # A pool leak would make this wait for a connection and fail with PoolTimeout.
        assert await client.list_models() == []
        assert await client.list_models() == []
    assert slow_server.slow_seen == 52
