"""Run every benchmark and print one table: figure, baseline, ratio, goal, met?

    .venv/bin/python tests/bench/run_all.py [--quick] [--only NAME ...]

Each benchmark runs in its own process (so one's memory or crash cannot skew another) and
writes its JSON to ``tests/bench/results/``; this script collects the headline rows into
``tests/bench/results/run_all-<UTC time>.json`` (and ``run_all-latest.json``) and prints a
markdown table (paste it into README.md). ``--quick`` uses smaller sizes where a size is
what makes a benchmark slow; every row says the size it was measured at. The 1M-call
archive is built once and cached under /tmp/blah-tui-bench (``bench_search``).
Not run by CI; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

Row = dict[str, Any]


def _diagnosis_rows(data: dict[str, Any]) -> list[Row]:
    c, s = data["classify"], data["summarize"]
    return [
        {
            "figure": f"classify, {c['calls']:,} calls of ~{c['mean_call_bytes']} B (CPU time)",
            "value": round(c["calls_per_s"]),
            "unit": "calls/s/core",
            "baseline": "goal",
            "baseline_value": 20_000,
            "ratio": round(c["calls_per_s"] / 20_000, 2),
            "goal": ">= 20,000 calls/s/core",
            "met": c["calls_per_s"] >= 20_000,
        },
        {
            "figure": f"summarize, {s['calls']:,} calls (CPU time)",
            "value": round(s["calls_per_s"]),
            "unit": "calls/s/core",
            "baseline": "goal",
            "baseline_value": 20_000,
            "ratio": round(s["calls_per_s"] / 20_000, 2),
            "goal": ">= 20,000 calls/s/core",
            "met": s["calls_per_s"] >= 20_000,
        },
    ]


def _own_rows(data: dict[str, Any]) -> list[Row]:
    return list(data["rows_table"])


#: name -> (script, full args, quick args, rows from its JSON, timeout s)
BENCHES: dict[str, tuple[str, list[str], list[str], Callable[[dict[str, Any]], list[Row]], int]] = {
    "startup": (
        "bench_startup.py",
        ["--rows", "1000000", "--runs", "5"],
        ["--rows", "1000000", "--runs", "2"],
        _own_rows,
        1800,
    ),
    "export": (
        "bench_export.py",
        ["--calls", "100000", "--runs", "3"],
        ["--calls", "20000", "--runs", "1"],
        _own_rows,
        3600,
    ),
    "blobfish_export": (
        "bench_blobfish_export.py",
        ["--rollouts", "10000", "--runs", "3"],
        ["--rollouts", "2000", "--runs", "1"],
        _own_rows,
        1800,
    ),
    "log_list": (
        "bench_log_list.py",
        ["--rows", "1000000", "--rounds", "5"],
        ["--rows", "1000000", "--rounds", "2", "--presses", "20"],
        _own_rows,
        3600,
    ),
    "search": ("bench_search.py", ["--rows", "1000000"], ["--rows", "1000000"], _own_rows, 3600),
    "ingest": (
        "bench_ingest.py",
        ["--calls", "20000", "--bursts", "2"],
        ["--calls", "5000", "--bursts", "1"],
        _own_rows,
        1800,
    ),
    "diagnosis": (
        "bench_diagnosis.py",
        ["--summarize-calls", "200000"],
        ["--summarize-calls", "20000"],
        _diagnosis_rows,
        1800,
    ),
    "bakeoff_gate": ("bench_bakeoff_gate.py", ["--runs", "15"], ["--runs", "5"], _own_rows, 600),
    "memory": (
        "bench_memory.py",
        ["--rows", "1000000", "--linger", "3"],
        ["--rows", "1000000", "--linger", "2"],
        _own_rows,
        900,
    ),
    "replay": (
        "bench_replay.py",
        ["--steps", "2000", "--runs", "5"],
        ["--steps", "2000", "--runs", "2", "--presses", "30"],
        _own_rows,
        900,
    ),
}
#: bench_log_list and bench_diagnosis predate this script: their output flag is spelled differently.
OUT_FLAG = {"log_list": "--out"}


def _diagnosis_scale_rows(data: dict[str, Any]) -> list[Row]:
    """Issue 30: classify/summarize on distinct prompts (the repeated figure beside), and the report
    of a whole 1M-call archive against its wall-time and memory goals."""
    goal = data.get("goals", {}).get("calls_per_s_per_core", 20_000)
    rows: list[Row] = []
    for key, label in (("classify", "classify"), ("summarize", "summarize")):
        fair, repeated = data[key], data.get(f"{key}_repeated")
        extra = f" (6 repeated prompts: {repeated['calls_per_s']:,.0f})" if repeated else ""
        rows.append(
            {
                "figure": f"{label}, {fair['calls']:,} distinct prompts (CPU time){extra}",
                "value": round(fair["calls_per_s"]),
                "unit": "calls/s/core",
                "baseline": "goal",
                "baseline_value": goal,
                "ratio": round(fair["calls_per_s"] / goal, 2),
                "goal": f">= {goal:,} calls/s/core",
                "met": fair["calls_per_s"] >= goal,
            }
        )
    archive = data.get("archive") or {}
    goals = data.get("goals", {})
    for workers, got in (archive.get("by_workers") or {}).items():
        rows.append(
            {
                "figure": f"report of a {archive['calls']:,}-call archive, {workers} process(es), "
                f"min {got['wall_min']:.1f} s / median, peak RSS {got['peak_rss_max_mb']:.0f} MB"
                + (
                    f", CPU {got['cpu_us_per_call_median']:.0f} us/call (median, every process)"
                    if "cpu_us_per_call_median" in got
                    else ""
                ),
                "value": round(got["wall_median"], 1),
                "unit": "s",
                "baseline": "goal",
                "baseline_value": goals.get("archive_seconds"),
                "ratio": None,
                "goal": f"< {goals.get('archive_seconds', 20):.0f} s, < {goals.get('archive_peak_rss_mb', 1024)} MB",
                "met": got["wall_median"] < goals.get("archive_seconds", 20)
                and got["peak_rss_max_mb"] < goals.get("archive_peak_rss_mb", 1024),
            }
        )
    return rows


BENCHES["diagnosis"] = (
    "bench_diagnosis.py",
    ["--summarize-calls", "200000", "--archive-calls", "1000000", "--runs", "3"],
    ["--summarize-calls", "20000", "--archive-calls", "100000", "--runs", "1", "--workers", "2"],
    _diagnosis_scale_rows,
    5400,
)


def run_one(name: str, quick: bool) -> tuple[list[Row], dict[str, Any] | None, float]:
    script, full, small, to_rows, timeout = BENCHES[name]
    out = RESULTS / f"{Path(script).stem}.json"
    out.unlink(missing_ok=True)
    args = [sys.executable, str(HERE / script), *(small if quick else full), OUT_FLAG.get(name, "--json"), str(out)]
    started = time.perf_counter()
    try:
        done = subprocess.run(args, cwd=HERE.parents[1], timeout=timeout, capture_output=True, text=True, check=False)
        problem = None if done.returncode == 0 else (done.stderr or done.stdout)[-800:]
        print(done.stdout.rstrip(), flush=True)
    except subprocess.TimeoutExpired:
        problem = f"timed out after {timeout} s"
    spent = time.perf_counter() - started
    if problem is None and out.exists():
        data = json.loads(out.read_text())
        return to_rows(data), data, spent
    return (
        [
            {
                "figure": f"{name}: FAILED",
                "value": None,
                "unit": "",
                "baseline": problem,
                "baseline_value": None,
                "ratio": None,
                "goal": "",
                "met": False,
            }
        ],
        None,
        spent,
    )


def _cell(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        value = f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    elif isinstance(value, int):
        value = f"{value:,}"
    return f"{value} {unit}".strip()


def table(rows: list[Row]) -> str:
    lines = ["| figure | value | baseline | baseline value | ratio | goal | met? |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        met = {True: "yes", False: "**no**", None: "-"}[r["met"]]
        ratio = "-" if r["ratio"] is None else f"{r['ratio']}x"
        unit = r["unit"]
        cells = [
            r["figure"],
            _cell(r["value"], unit),
            r["baseline"],
            _cell(r["baseline_value"], unit if isinstance(r["baseline_value"], (int, float)) else ""),
            ratio,
            r["goal"],
            met,
        ]
        lines.append(
            "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"
        )  # a "curl | jq" stays one cell
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes where size makes a benchmark slow")
    parser.add_argument("--only", nargs="+", choices=list(BENCHES), help="run only these")
    args = parser.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    names = args.only or list(BENCHES)
    report: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_avg_start": os.getloadavg(),
        "benchmarks": {},
    }
    rows: list[Row] = []
    for name in names:
        print(f"== {name}", flush=True)
        got, data, spent = run_one(name, args.quick)
        rows.extend(got)
        report["benchmarks"][name] = {"seconds": round(spent, 1), "rows": got, "data": data}
    report["load_avg_end"] = os.getloadavg()
    report["table"] = table(rows)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for path in (RESULTS / f"run_all-{stamp}.json", RESULTS / "run_all-latest.json"):
        path.write_text(json.dumps(report, indent=2, default=str) + "\n")
    print()
    print(
        f"{'quick' if args.quick else 'full'} run, Python {report['python']}, {report['cpus']} CPUs, load average "
        f"{report['load_avg_start'][0]:.1f} -> {report['load_avg_end'][0]:.1f}"
    )
    print(report["table"])
    print(f"\nwrote {RESULTS / f'run_all-{stamp}.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
