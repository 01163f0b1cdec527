"""What the Runs tests of Blobfish benchmark runs share: one benchmark simulator per file, a
paced fake clock for it and the run watch, and a benchmark client that records what it sent.
A file that needs more (environment keys, say) defines its own ``clock``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from api_client.blobfish.benchmarks import BenchmarkClient
from simulator.blobfish.server import BlobfishServer
from tests.support.bench_screens import PacedClock, pace_watch
from tests.support.blobfish import RecordingTransport


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=7, live=False) as running:
        yield running


@pytest.fixture
def clock(server: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> PacedClock:
    """The simulator and every watch of the test on one paced fake clock; fresh benchmark state."""
    paced = PacedClock()
    server.benchmarks.reset()
    server.benchmarks.clock = paced.time
    pace_watch(monkeypatch, paced)
    return paced


@pytest.fixture
def transport() -> RecordingTransport:
    return RecordingTransport()


@pytest.fixture
async def bench(server: BlobfishServer, transport: RecordingTransport) -> AsyncIterator[BenchmarkClient]:
    async with BenchmarkClient(server.base_url, server.account_key, transport=transport) as client:
        yield client
