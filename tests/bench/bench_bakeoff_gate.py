"""Benchmark: `blah-tui bakeoff gate` start-up against `python -c "import httpx, pydantic"`.

A CI job's gate (``gate ID --min-win-rate 0.05 --base-url URL`` with ``$ERRORBAR_API_KEY``)
is run as a process against the errorbar simulator holding a DONE run; spawn -> exit (0, the
gate passed), so it includes interpreter start, imports, one real HTTP round trip and the
printed verdict. The baseline is spawn -> exit of ``python -c "import httpx, pydantic"``.
Launches alternate (baseline, gate, baseline, gate, ...) so machine load hits both alike;
medians are compared. The goal: within 1.5x of the baseline.

Run: ``.venv/bin/python tests/bench/bench_bakeoff_gate.py [--runs 15]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 1.5


def _timed(args: list[str], env: dict[str, str], expect: int) -> float:
    started = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    spent = time.perf_counter() - started
    if done.returncode != expect:
        raise SystemExit(f"{args[1:4]} exited {done.returncode}: {done.stderr[-400:]}")
    return spent


def run(runs: int) -> dict[str, Any]:
    from simulator.errorbar.server import ErrorbarServer
    from tests.support.errorbar import COMPARISON, queue_run

    with ErrorbarServer(seed=7, speed=0.0001) as queue:
        run_id = queue_run(queue, COMPARISON)["id"]
        env = {**os.environ, "ERRORBAR_API_KEY": queue.read_key}
        gate = [
            sys.executable,
            "-m",
            "cli.main",
            "bakeoff",
            "gate",
            run_id,
            "--min-win-rate",
            "0.05",
            "--base-url",
            queue.base_url,
        ]
        baseline = [sys.executable, "-c", "import httpx, pydantic"]
        _timed(gate, env, 0)  # warm the page cache and the bytecode of both sides once
        _timed(baseline, env, 0)
        ours, theirs = [], []
        for _ in range(runs):
            theirs.append(_timed(baseline, env, 0))
            ours.append(_timed(gate, env, 0))
    o, b = statistics.median(ours), statistics.median(theirs)
    out: dict[str, Any] = {
        "runs": runs,
        "gate_s": [round(x, 3) for x in ours],
        "baseline_s": [round(x, 3) for x in theirs],
        "gate_median_s": round(o, 3),
        "baseline_median_s": round(b, 3),
        "ratio": round(o / b, 2),
        "load_avg": os.getloadavg()[0],
    }
    out["rows_table"] = [
        {
            "figure": "blah-tui bakeoff gate (spawn -> exit 0, one HTTP round trip to the simulator)",
            "value": round(o, 3),
            "unit": "s",
            "baseline": 'python -c "import httpx, pydantic"',
            "baseline_value": round(b, 3),
            "ratio": out["ratio"],
            "goal": f"within {GOAL}x",
            "met": o / b <= GOAL,
        }
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_bakeoff_gate.json")
    args = parser.parse_args(argv)
    out = run(args.runs)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n")
    print(
        f"bakeoff gate: {out['gate_median_s']} s median, import httpx+pydantic: {out['baseline_median_s']} s; "
        f"ratio {out['ratio']} (goal <= {GOAL}); load {out['load_avg']:.1f}"
    )
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
