"""Runs at 80x24 (issue 31): every row's Progress stays whole beside its run and status (it
was cut to "11" by the bake-offs' long run names); the columns after it fold off to the right."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import pytest

from api_client.blahdev.client import BlahClient
from api_client.blobfish.benchmarks import BenchmarkClient
from api_client.errorbar.client import ErrorbarClient
from simulator.blobfish.server import BlobfishServer
from simulator.errorbar.demo import queue_demo_runs
from simulator.errorbar.server import ErrorbarServer
from simulator.server import SimulatorServer
from tests.support.bench import SLUG
from tests.support.bench_screens import PacedClock, bench_app, frame_text, on_runs_with_bench, pace_watch
from tests.support.waiting import wait_for

NARROW = (80, 24)


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7) as running:
        queue_demo_runs(running)
        yield running


@pytest.fixture
async def bench(server: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[BenchmarkClient]:
    paced = PacedClock()
    server.benchmarks.reset()
    server.benchmarks.clock = paced.time
    pace_watch(monkeypatch, paced)
    async with BenchmarkClient(server.base_url, server.account_key) as client:
        await client.start_suite(SLUG, provider="xai", model="grok-4", suite="sample")
        yield client


async def test_progress_stays_whole_at_80_columns(
    bench: BenchmarkClient, queue: ErrorbarServer, sim: SimulatorServer
) -> None:
    blah = BlahClient(sim.base_url, api_key=sim.council_key)
    app = bench_app(bench, blah, model_id=sim.person_model_id)
    app.ctx.errorbar = ErrorbarClient(queue.base_url, api_key=queue.member_key)
    async with app.run_test(size=NARROW) as pilot:
        runs = await on_runs_with_bench(pilot)
        await wait_for(
            pilot,
            lambda: bool(runs.bakeoffs.rows) and bool(runs.runs) and bool(runs.bench.rows),
            what="every platform's rows",
        )
        await pilot.pause(0.2)
        table = runs.table
        column = [c.key.value for c in table.ordered_columns].index("progress")
        lines = [
            line for line in frame_text(app).splitlines() if re.match(r"^\s+(blah\.dev|Blobfish|errorbar)\s{2,}", line)
        ]
        assert lines, frame_text(app)
        for n, line in enumerate(lines):
            progress = table.get_row_at(n)[column].plain
            assert re.search(rf"\s{re.escape(progress)}(\s|$)", line), f"progress {progress!r} cut: {line!r}"
