"""Benchmark: resident memory of the app on the Logs screen with an N-call archive.

Launches the app as a real process on a pty (``bench_startup``'s child), lets it paint the
Logs screen over the cached archive, keeps it running ``--linger`` seconds (the screen's
timers, plots and workers run), then reads its VmRSS and peak RSS. A bare Textual
hello-world measured the same way is the baseline (the floor any Textual app pays).

Run: ``.venv/bin/python tests/bench/bench_memory.py [--rows 1000000] [--linger 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from bench_output import save_json
from bench_search import cached_archive
from bench_startup import child_args, child_env, launch

GOAL_MB = 100
"""RSS on Logs with the 1M-call archive (issue 30)."""


def measure(kind: str, archive: Path | None, linger: float, tmp: Path) -> dict[str, Any]:
    report = tmp / f"{kind}.json"
    _, code, screen = launch(child_args(kind, archive, report, linger), child_env(tmp))
    if code != 0 or not report.exists():
        raise RuntimeError(f"{kind} child failed ({code}): {screen[-1500:].decode('utf-8', 'replace')}")
    return json.loads(report.read_text())


def run(rows: int, linger: float) -> dict[str, Any]:
    """The benchmark in a temporary folder removed whatever happens."""
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        return _run(rows, linger, Path(folder))


def _run(rows: int, linger: float, tmp: Path) -> dict[str, Any]:
    archive = cached_archive(rows)
    app = measure("app", archive, linger, tmp)
    hello = measure("hello", None, linger, tmp)
    out = {
        "rows": rows,
        "linger_s": linger,
        "app": app,
        "hello": hello,
        "archive_mb": round(sum(p.stat().st_size for p in archive.parent.glob(archive.name + "*")) / 1e6, 1),
        "load_avg": os.getloadavg()[0],
    }
    peak = max(app["max_rss_mb"], app["rss_mb"] or 0)
    out["rows_table"] = [
        {
            "figure": f"RSS on Logs, {rows:,}-call archive (peak; now {app['rss_mb']:.0f})",
            "value": round(peak),
            "unit": "MB",
            "baseline": "Textual hello-world peak RSS",
            "baseline_value": round(hello["max_rss_mb"]),
            "ratio": round(peak / hello["max_rss_mb"], 2),
            "goal": f"< {GOAL_MB} MB",
            "met": peak < GOAL_MB,
        }
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--linger", type=float, default=3.0)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_memory.json")
    args = parser.parse_args(argv)
    print(f"goal: RSS on Logs with {args.rows:,} calls < {GOAL_MB} MB", flush=True)
    out = run(args.rows, args.linger)
    print(
        f"memory on Logs with {args.rows:,} rows: "
        f"RSS {out['app']['rss_mb']:.0f} MB (peak {out['app']['max_rss_mb']:.0f});"
        f" hello-world peak {out['hello']['max_rss_mb']:.0f} MB (goal < {GOAL_MB} MB)"
    )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
