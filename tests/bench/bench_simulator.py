"""Benchmark: simulator start time and loopback latency of GET logs?limit=50.

Run: .venv/bin/python tests/bench/bench_simulator.py [--requests 300]
Prints numbers; asserts nothing (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from simulator.blahdev import snapshot
from simulator.server import SimulatorServer


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()

    t0 = time.perf_counter()
    snapshot.seeded_world(7, cached=False)
    print(f"world build (uncached, seed 7): {time.perf_counter() - t0:.3f} s")

    snapshot.template(7)
    t0 = time.perf_counter()
    server = SimulatorServer(seed=7, live=False)
    server.start()
    print(f"SimulatorServer(...).start() with the seed's history cached: {time.perf_counter() - t0:.3f} s")
    try:
        with httpx.Client(base_url=server.base_url, timeout=10) as http:
            url = f"/api/v1/models/{server.person_model_id}/logs"
            for name, params in (
                ("limit=50", {"limit": 50}),
                ("limit=50&stats=true", {"limit": 50, "stats": "true"}),
                ("limit=500", {"limit": 500}),
            ):
                for _ in range(10):  # warm up
                    http.get(url, params=params)
                samples: list[float] = []
                for _ in range(args.requests):
                    start = time.perf_counter()
                    response = http.get(url, params=params)
                    samples.append((time.perf_counter() - start) * 1000)
                    response.raise_for_status()
                print(
                    f"GET logs?{name}: median {statistics.median(samples):.2f} ms, "
                    f"p95 {percentile(samples, 95):.2f} ms over {len(samples)} requests "
                    f"({len(response.content)} bytes)"
                )
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
