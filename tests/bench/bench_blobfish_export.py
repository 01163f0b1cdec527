"""Benchmark: ``blah-tui blobfish export --all`` of N rollouts from the Blobfish simulator, against
a shell loop of ``curl`` + ``jq`` paging the list by offset and fetching each evaluation's JSONL
(what a person would script).

The simulator runs in this process (``BlobfishServer(live=False)``); evaluations from its seeded
stream are published until the account holds at least N rollouts (one trace per rollout, so N
JSONL lines). Both exports run as separate processes, alternating, and must write the same bytes
(nothing is published while they run, so both read the same list in the same order); the figure
is the median wall time of each (after one untimed warm-up run of both, which also writes
blah-tui's bytecode, as ``pip install`` does, into a cache in the bench's temporary folder).
If ``curl`` or ``jq`` is missing the benchmark says so and stops.

Wall times are given as min and median of the runs (the two exports interleaved in each run);
CPU too: the client's (blah-tui's process; the loop's bash, curl and jq) and the simulator's
while it serves each (this process's CPU: only the simulator's thread works meanwhile). The
simulator's CPU is a floor no client can go under: on a loaded machine, where every process
gets a share of the two cores, the ratio tends to the ratio of total CPU.

Run: ``.venv/bin/python tests/bench/bench_blobfish_export.py [--rollouts 10000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

PAGE = 100
SHELL_LOOP = r"""
set -eu
url="$BF_URL/api/v1/evaluations"
offset=0
: > "$OUT"
while :; do
  page=$(curl -sSf -H "@$HEADER_FILE" "$url?limit=$PAGE&offset=$offset")
  # one curl per page: every evaluation of the page in one process, on one connection
  urls=$(printf '%s' "$page" | jq -r --arg u "$url" '.evaluations[] | "\($u)/\(.evaluation_id)?format=jsonl"')
  [ -n "$urls" ] && curl -sSf -H "@$HEADER_FILE" $urls >> "$OUT"
  offset=$(printf '%s' "$page" | jq '.next_offset')
  [ "$offset" = "null" ] && break
done
"""
GOAL_RATIO = 3.0
"""blah-tui blobfish export against one curl per page of evaluations (issue 30)."""


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(rollouts: int, runs: int) -> dict[str, Any]:
    missing = [tool for tool in ("curl", "jq", "bash") if shutil.which(tool) is None]
    if missing:
        return {
            "skipped": f"{', '.join(missing)} not installed (apt-get install {' '.join(missing)})",
            "rows_table": [],
        }
    with tempfile.TemporaryDirectory(prefix="bench-blobfish-export-") as folder:
        return _run(rollouts, runs, Path(folder))


def _run(rollouts: int, runs: int, tmp: Path) -> dict[str, Any]:
    from simulator.blobfish.server import BlobfishServer

    out: dict[str, Any] = {"rollouts_wanted": rollouts, "runs": runs, "page": PAGE}
    with BlobfishServer(seed=7, live=False) as bf:
        started = time.perf_counter()
        total = sum(e["rollout_count"] for e in bf.store.account.evaluations)
        while total < rollouts:
            total += bf.publish_now()["rollout_count"]
        out["build_s"] = round(time.perf_counter() - started, 1)
        out["rollouts"] = total
        out["evaluations"] = len(bf.evaluation_ids())
        header = tmp / "key-header"
        header.touch(mode=0o600)
        header.write_text(f"X-API-Key: {bf.account_key}\n")
        base_env = {k: v for k, v in os.environ.items() if not k.startswith("BLOBFISH_")}
        # As after `pip install` (which byte-compiles): the untimed warm-up run below writes
        # the .pyc files (into a private prefix, so the checkout stays clean) and the timed
        # runs load them. The sessions' shell sets PYTHONDONTWRITEBYTECODE: without this,
        # every timed run recompiled the project's modules.
        base_env.pop("PYTHONDONTWRITEBYTECODE", None)
        base_env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        ours: list[float] = []
        shell: list[float] = []
        cpu: dict[str, list[float]] = {"ours": [], "shell": [], "sim_ours": [], "sim_shell": []}
        for i in range(-1, runs):  # run -1: the untimed warm-up of both (bytecode, page cache)
            target = tmp / "ours.jsonl"
            env = {**base_env, "BLOBFISH_API_KEY": bf.account_key, "BLOBFISH_BASE_URL": bf.base_url}
            t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
            done = subprocess.run(
                [sys.executable, "-m", "cli.main", "blobfish", "export", "--all", "-o", str(target)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                check=False,
            )
            ours.append(time.perf_counter() - t)
            cpu["ours"].append(_children_cpu() - c)
            cpu["sim_ours"].append(time.process_time() - sim_c)
            if done.returncode != 0:
                raise RuntimeError(f"blah-tui blobfish export failed: {done.stderr.decode()[-1000:]}")
            shell_out = tmp / "shell.jsonl"
            env = {
                **base_env,
                "BF_URL": bf.base_url,
                "OUT": str(shell_out),
                "PAGE": str(PAGE),
                "HEADER_FILE": str(header),
            }
            t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
            subprocess.run(["bash", "-c", SHELL_LOOP], env=env, check=True, capture_output=True)
            shell.append(time.perf_counter() - t)
            cpu["shell"].append(_children_cpu() - c)
            cpu["sim_shell"].append(time.process_time() - sim_c)
            if i < 0:
                for values in (ours, shell, *cpu.values()):
                    values.clear()
        out["lines_ours"] = len(target.read_bytes().splitlines())
        out["lines_shell"] = len(shell_out.read_bytes().splitlines())
        out["bytes"] = target.stat().st_size
        out["identical"] = digest(target) == digest(shell_out)
    o, s = statistics.median(ours), statistics.median(shell)
    out.update(
        ours_s=[round(x, 2) for x in ours],
        shell_s=[round(x, 2) for x in shell],
        ours_median_s=round(o, 2),
        shell_median_s=round(s, 2),
        ratio=round(s / o, 2),
        ours_min_s=round(min(ours), 2),
        shell_min_s=round(min(shell), 2),
        ratio_of_mins=round(min(shell) / min(ours), 2),
        load_avg=os.getloadavg()[0],
    )
    out["cpu_median_s"] = {name: round(statistics.median(values), 2) for name, values in cpu.items()}
    out["cpu_s"] = {name: [round(v, 2) for v in values] for name, values in cpu.items()}
    out["rows_table"] = [
        {
            "figure": f"blah-tui blobfish export --all, {out['rollouts']:,} rollouts in "
            f"{out['evaluations']:,} evaluations, "
            f"median (min {out['ours_min_s']} s)",
            "value": round(o, 2),
            "unit": "s",
            "baseline": f"bash loop, pages of {PAGE} by offset, one curl per page for its evaluations, "
            f"median (min {out['shell_min_s']} s)",
            "baseline_value": round(s, 2),
            "ratio": out["ratio"],
            "goal": f">= {GOAL_RATIO:g}x faster, identical bytes",
            "met": s / o >= GOAL_RATIO and out["identical"],
        }
    ]
    return out


def _children_cpu() -> float:
    """User + system CPU of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_blobfish_export.json")
    args = parser.parse_args(argv)
    print(
        f"goal: blah-tui blobfish export >= {GOAL_RATIO:g}x faster than one curl per page, identical bytes", flush=True
    )
    out = run(args.rollouts, args.runs)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=2) + "\n")
    if "skipped" in out:
        print(f"skipped: {out['skipped']}")
        return 0
    print(
        f"blobfish export --all of {out['rollouts']:,} rollouts ({out['evaluations']:,} evaluations, "
        f"{out['bytes']:,} bytes): blah-tui {out['ours_median_s']} s (min {out['ours_min_s']}), curl+jq "
        f"{out['shell_median_s']} s (min {out['shell_min_s']}), {out['ratio']}x faster by medians, "
        f"{out['ratio_of_mins']}x by mins (goal >= {GOAL_RATIO:g}x); identical bytes: {out['identical']}"
    )
    c = out["cpu_median_s"]
    print(
        f"CPU (medians): blah-tui {c['ours']} s + simulator {c['sim_ours']} s; shell loop {c['shell']} s + "
        f"simulator {c['sim_shell']} s; load average {out['load_avg']:.1f}"
    )
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
