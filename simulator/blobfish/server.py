"""``BlobfishServer``: the local Blobfish in a background thread (uvicorn on loopback).

with BlobfishServer(seed=7, live=False) as bf:
    httpx.get(f"{bf.base_url}/api/v1/evaluations", headers={"X-API-Key": bf.account_key})
"""

from __future__ import annotations

from starlette.types import ASGIApp

from simulator.blobfish.app import create_app
from simulator.blobfish.benchmarks import BenchmarkStore
from simulator.blobfish.live import LivePublisher
from simulator.blobfish.shapes import Json
from simulator.blobfish.store import EvaluationStore
from simulator.chaos import ChaosConfig, ChaosState
from simulator.request_log import RequestLog
from simulator.server import PlatformServer


class BlobfishServer(PlatformServer):
    store: EvaluationStore
    benchmarks: BenchmarkStore
    """Benchmark runs and the community board (faults: ``die_after_tasks``, ``kill_runners``)."""

    def __init__(
        self,
        seed: int = 7,
        speed: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
        live: bool = True,
        chaos: ChaosConfig | None = None,
        anchor_s: float | None = None,
    ) -> None:
        """``live``: publish a new evaluation into the demo account every
        ``LIVE_PUBLISH_SECONDS / speed`` seconds. ``anchor_s``: "now" for the seeded history."""
        self.live = live

        def build_app(chaos_state: ChaosState, requests: RequestLog) -> ASGIApp:
            self.store = EvaluationStore(seed, anchor_s)
            self.benchmarks = BenchmarkStore(seed, speed)
            return create_app(
                self.store, LivePublisher(self.store, speed, live), chaos_state, requests, self.benchmarks
            )

        super().__init__(
            build_app, seed=seed, speed=speed, chaos=chaos, host=host, port=port, thread_name="blobfish-simulator"
        )

    # ------------------------------------------------------------------ identity

    @property
    def account_key(self) -> str:
        """The signed-in demo account's key: it sees the seeded evaluations."""
        return self.store.account_key

    @property
    def isolated_key(self) -> str:
        """A key created under an unverified contact email: its own, empty scope."""
        return self.store.isolated_key

    # ------------------------------------------------------------------ test hooks

    def publish_now(self) -> Json:
        """Publish the next generated evaluation into the demo account at once; its summary."""
        return self.store.publish_generated()

    def evaluation_ids(self) -> list[str]:
        """The demo account's evaluation ids in list order (newest first)."""
        return self.store.ids(self.store.account)

    def kill_benchmark_runners(self) -> int:
        """The runner process dies: every suite in flight reads ``interrupted``; how many."""
        return self.benchmarks.kill_runners()

    def die_after_tasks(self, tasks: int | None) -> None:
        """Suites started from now on lose their runner after ``tasks`` tasks (None: never)."""
        self.benchmarks.die_after_tasks = tasks
