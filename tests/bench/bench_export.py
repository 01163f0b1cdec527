"""Benchmark: ``blah-tui export`` of N calls from the simulator, against a shell loop of
``curl`` + ``jq`` paging the same endpoint with ``before`` (what a person would script).

The simulator runs in this process (``SimulatorServer(live=False)``, N calls added with
``world.add_log_burst(..., same_ms=False)``: one call per millisecond, so paging with
``before = next_before`` is exact for the shell loop too). Both exports run as separate
processes against it, alternating, and must produce the same set of ids; the figure is the
median wall time of each (after one untimed warm-up run of both, which also writes
blah-tui's bytecode, as ``pip install`` does, into a cache in the bench's temporary folder).
``blah-tui export`` also fills the model's local archive (it
always does on a full export): that work is included, as a person would pay it.

``--latency-ms N`` makes the simulator wait N ms before answering each request (a remote
platform's round trip; not part of the goal's figure): blah-tui asks for the next page while
it writes the last one, the shell loop cannot.

Besides wall times (min and median of the runs, the two exports interleaved in each run), it
measures CPU: the client's (blah-tui's process; the shell loop's bash, curl, jq, head, tail)
and the simulator's while it serves each (this process's CPU: only the simulator's thread
works while an export runs). On a loaded machine every process gets a share of the two
cores, so the CPU figures say who costs what, and whether the simulator is the floor.

The floor beside it (issue 42): ``PYTHON_LOOP``, 12 lines of Python paging the same endpoint over
one keep-alive ``http.client`` connection, ``json.loads`` a page and ``json.dumps`` per call: what
an export costs without the archive, the checks or the progress bar. Goal: blah-tui within 2x
of it. ``--data natural`` fills the simulator with ``natural_text.NaturalCalls`` (distinct
prompts and replies, a 24,000-word Zipf vocabulary, ~1.3 KB a call) instead of its
burst of repeated test prompts, so the archive's fill and index see honest text.

``--baseline-code DIR`` (a checkout of the project, e.g. main before a change) runs that code's
``blah-tui export`` too, in each run right after this one's, against the same server: before and after
side by side in the same minutes. Each export's peak RSS is taken from its own ``wait4``.

Run: ``.venv/bin/python tests/bench/bench_export.py [--calls 100000] [--runs 3] [--latency-ms 0] [--data natural]
[--baseline-code DIR]``.
"""

from __future__ import annotations

import argparse
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

import orjson
from bench_output import save_json

PAGE = 500
SHELL_LOOP = r"""
set -eu
url="$BLAH_URL/api/v1/models/$BLAH_MODEL/logs"
before=""
page="$OUT.page"
: > "$OUT"
while :; do
  if [ -z "$before" ]; then q="limit=$PAGE"; else q="limit=$PAGE&before=$before"; fi
  # one curl and one jq per page: the calls, then a last line with the count and the cursor
  curl -sSf -H "@$HEADER_FILE" "$url?$q" | jq -c '.logs[], "\(.logs | length) \(.next_before)"' > "$page"
  head -n -1 "$page" >> "$OUT"
  read -r n before < <(tail -n 1 "$page" | tr -d '"')
  [ "$n" -lt "$PAGE" ] && break
done
rm -f "$page"
"""
PYTHON_LOOP = r"""
import http.client, json, os, urllib.parse
url = urllib.parse.urlsplit(os.environ["BLAH_URL"])
conn = http.client.HTTPConnection(url.hostname, url.port)
path, headers = f"{url.path}/api/v1/models/{os.environ['BLAH_MODEL']}/logs", {"Authorization": os.environ["BLAH_AUTH"]}
before = ""
with open(os.environ["OUT"], "w") as out:
    while True:
        query = f"{path}?limit={os.environ['PAGE']}" + (f"&before={before}" if before else "")
        conn.request("GET", query, headers=headers)
        page = json.loads(conn.getresponse().read())
        out.writelines(json.dumps(call) + "\n" for call in page["logs"])
        before = page["next_before"]
        if len(page["logs"]) < int(os.environ["PAGE"]): break
"""
FLOOR_GOAL = 2.0
"""blah-tui export within this factor of ``PYTHON_LOOP`` on the same server (issue 42)."""
GOAL_RATIO = 6.0
"""blah-tui export against the one-parse-per-page loop a person would write (issue 30)."""


def ids_of(path: Path) -> set[str]:
    with open(path, "rb") as fh:
        return {orjson.loads(line)["id"] for line in fh if line.strip()}


def run(
    calls: int, runs: int, latency_ms: int = 0, data: str = "simulator", baseline: Path | None = None
) -> dict[str, Any]:
    """The benchmark in a temporary folder removed whatever happens."""
    with tempfile.TemporaryDirectory(prefix="bench-export-") as folder:
        return _run(calls, runs, latency_ms, Path(folder), data, baseline)


def _run(
    calls: int, runs: int, latency_ms: int, tmp: Path, data: str = "simulator", baseline: Path | None = None
) -> dict[str, Any]:
    from simulator.chaos import ChaosConfig
    from simulator.server import SimulatorServer

    for tool in ("curl", "jq", "bash"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} is not installed (apt-get install {tool})")
    out: dict[str, Any] = {"calls_added": calls, "runs": runs, "page": PAGE, "latency_ms": latency_ms, "data": data}
    with SimulatorServer(seed=7, live=False) as sim:
        started = time.perf_counter()
        if data == "natural":
            from natural_text import NaturalCalls

            NaturalCalls().add_to_world(sim.world, calls)
        else:
            sim.world.add_log_burst(calls, same_ms=False)
        out["build_s"] = round(time.perf_counter() - started, 1)
        if latency_ms:
            sim.chaos = ChaosConfig(rate_latency=1.0, latency_s=latency_ms / 1000, seed=1)
        model = sim.person_model_id
        total = sim.world.logs.count(model)
        out["calls_total"] = total
        header = tmp / "auth-header"
        header.touch(mode=0o600)
        header.write_text(f"Authorization: Bearer {sim.council_key}\n")
        base_env = dict(os.environ)
        base_env.pop("EVALS_BLAH_API_KEY", None)
        # As after `pip install` (which byte-compiles): the untimed warm-up run below writes
        # the .pyc files (into a private prefix, so the checkout stays clean) and the timed
        # runs load them. The sessions' shell sets PYTHONDONTWRITEBYTECODE: without this,
        # every timed run recompiled the project's modules (~0.1 s CPU, more wall under load).
        base_env.pop("PYTHONDONTWRITEBYTECODE", None)
        base_env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        ours: list[float] = []
        to_file: list[float] = []
        rss: list[float] = []
        base: dict[str, list[float]] = {"wall": [], "file": [], "cpu": [], "sim": [], "rss": []}
        shell: list[float] = []
        loop: list[float] = []
        cpu: dict[str, list[float]] = {
            "ours": [],
            "shell": [],
            "sim_ours": [],
            "sim_shell": [],
            "loop": [],
            "sim_loop": [],
        }
        for i in range(-1, runs):  # run -1: the untimed warm-up of both (bytecode, page cache)
            folder = tmp / f"data-{i}"  # a fresh archive each run: the full first export
            env = {
                **base_env,
                "EVALS_BLAH_API_KEY": sim.council_key,
                "BLAH_TUI_DATA_DIR": str(folder),
                "BLAH_TUI_CONFIG_DIR": str(tmp / "config"),
            }
            target = tmp / "ours.jsonl"
            target.unlink(missing_ok=True)
            command = [sys.executable, "-m", "cli.main", "export", model, "-o", str(target), "--base-url", sim.base_url]
            sides = ["ours", "baseline"] if baseline is not None else ["ours"]
            if i % 2:  # alternate which goes first
                sides.reverse()
            for side in sides:
                shutil.rmtree(folder, ignore_errors=True)  # a fresh archive for each: the full first export
                if side == "ours":
                    t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
                    done, file_s, peak = _run_watching(command, env, target)
                    ours.append(time.perf_counter() - t)
                    to_file.append(file_s)
                    rss.append(peak)
                    cpu["ours"].append(_children_cpu() - c)
                    cpu["sim_ours"].append(time.process_time() - sim_c)
                    if done.returncode != 0:
                        raise RuntimeError(f"blah-tui export failed: {done.stderr[-1000:]!r}")
                    continue
                assert baseline is not None  # the other checkout's export, same server, same minutes
                base_target = tmp / "baseline.jsonl"
                base_target.unlink(missing_ok=True)
                base_command = [*command[:6], str(base_target), *command[7:]]
                t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
                done_base, file_s, peak = _run_watching(base_command, env, base_target, cwd=baseline)
                base["wall"].append(time.perf_counter() - t)
                base["file"].append(file_s)
                base["rss"].append(peak)
                base["cpu"].append(_children_cpu() - c)
                base["sim"].append(time.process_time() - sim_c)
                if done_base.returncode != 0:
                    raise RuntimeError(f"the baseline's export failed: {done_base.stderr[-1000:]!r}")
            if baseline is not None:
                out["identical_file_baseline"] = out.get("identical_file_baseline", True) and (
                    target.read_bytes() == base_target.read_bytes()
                )
            shell_out = tmp / "shell.jsonl"
            env = {
                **base_env,
                "BLAH_URL": sim.base_url,
                "BLAH_MODEL": model,
                "OUT": str(shell_out),
                "PAGE": str(PAGE),
                "HEADER_FILE": str(header),
            }
            t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
            subprocess.run(["bash", "-c", SHELL_LOOP], env=env, check=True, capture_output=True)
            shell.append(time.perf_counter() - t)
            cpu["shell"].append(_children_cpu() - c)
            cpu["sim_shell"].append(time.process_time() - sim_c)
            loop_out = tmp / "loop.jsonl"
            env = {
                **base_env,
                "BLAH_URL": sim.base_url,
                "BLAH_MODEL": model,
                "OUT": str(loop_out),
                "PAGE": str(PAGE),
                "BLAH_AUTH": f"Bearer {sim.council_key}",
            }
            t, c, sim_c = time.perf_counter(), _children_cpu(), time.process_time()
            done_loop = subprocess.run(
                [sys.executable, "-c", PYTHON_LOOP], env=env, capture_output=True, text=True, check=False
            )
            if done_loop.returncode != 0:
                raise RuntimeError(f"the Python loop failed: {done_loop.stderr[-1000:]}")
            loop.append(time.perf_counter() - t)
            cpu["loop"].append(_children_cpu() - c)
            cpu["sim_loop"].append(time.process_time() - sim_c)
            shutil.rmtree(folder, ignore_errors=True)
            if i < 0:
                for values in (ours, to_file, rss, shell, loop, *cpu.values(), *base.values()):
                    values.clear()
        a, b, c_ids = ids_of(target), ids_of(shell_out), ids_of(loop_out)
        out["identical_ids_loop"] = a == c_ids
        out["ids_ours"], out["ids_shell"] = len(a), len(b)
        out["identical_ids"] = a == b
        out["only_in_ours"], out["only_in_shell"] = len(a - b), len(b - a)
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
        ours_calls_per_s=round(total / o),
        load_avg=os.getloadavg()[0],
    )
    p = statistics.median(loop)
    out.update(
        loop_s=[round(x, 2) for x in loop],
        loop_median_s=round(p, 2),
        loop_min_s=round(min(loop), 2),
        ratio_to_loop=round(o / p, 2),
        ratio_to_loop_of_mins=round(min(ours) / min(loop), 2),
    )
    out["peak_rss_mb"] = [round(x) for x in rss]
    if baseline is not None:
        out["baseline_code"] = str(baseline)
        out["baseline"] = {name: [round(v, 2) for v in values] for name, values in base.items()}
        out["baseline_median"] = {name: round(statistics.median(values), 2) for name, values in base.items()}
        out["baseline_ratio_to_loop"] = round(out["baseline_median"]["wall"] / p, 2)
        out["baseline_ratio"] = round(s / out["baseline_median"]["wall"], 2)
    out["file_ready_s"] = [round(x, 2) for x in to_file]
    out["file_ready_median_s"] = round(statistics.median(to_file), 2)
    out["cpu_median_s"] = {name: round(statistics.median(values), 2) for name, values in cpu.items()}
    out["cpu_s"] = {name: [round(v, 2) for v in values] for name, values in cpu.items()}
    latency = (f", {latency_ms} ms per request" if latency_ms else "") + (", natural text" if data == "natural" else "")
    out["rows_table"] = [
        {
            "figure": f"blah-tui export, {total:,} calls (+ archive fill){latency}, median (min {out['ours_min_s']} s)",
            "value": round(o, 2),
            "unit": "s",
            "baseline": f"bash loop, one curl | jq per page of 500 (by before), median (min {out['shell_min_s']} s)",
            "baseline_value": round(s, 2),
            "ratio": out["ratio"],
            "goal": f">= {GOAL_RATIO:g}x faster",
            "met": s / o >= GOAL_RATIO and out["identical_ids"],
        },
        {
            "figure": "the same export: its file in place (the archive is finished after), median",
            "value": out["file_ready_median_s"],
            "unit": "s",
            "baseline": "the same loop, median",
            "baseline_value": round(s, 2),
            "ratio": round(s / out["file_ready_median_s"], 2),
            "goal": "(not a goal: when the person's file is ready)",
            "met": None,
        },
        {
            "figure": f"blah-tui export, {total:,} calls (+ archive fill){latency}, median (min {out['ours_min_s']} s)",
            "value": round(o, 2),
            "unit": "s",
            "baseline": (
                "the floor: 12-line Python loop, keep-alive http.client, json per call, "
                f"median (min {out['loop_min_s']} s)"
            ),
            "baseline_value": round(p, 2),
            "ratio": out["ratio_to_loop"],
            "goal": f"<= {FLOOR_GOAL:g}x the loop's time",
            "met": o / p <= FLOOR_GOAL and out["identical_ids_loop"],
        },
    ]
    return out


def _run_watching(
    command: list[str], env: dict[str, str], target: Path, cwd: Path = ROOT
) -> tuple[subprocess.CompletedProcess[bytes], float, float]:
    """Run ``command``; also return when ``target`` appeared (the export renames a complete
    file into place, so that is when the person's file is ready), polled every 10 ms, and the
    process's peak RSS in MB (its own ``wait4``)."""
    started = time.perf_counter()
    ready: float | None = None
    # Its output goes to files, not pipes nobody reads while it runs (a full pipe would
    # stall the progress bar's writes, and the export with them).
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        peak_kb = 0
        with subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err) as proc:
            while proc.poll() is None:
                if ready is None and target.exists():
                    ready = time.perf_counter() - started
                peak_kb = max(peak_kb, _peak_rss_kb(proc.pid))
                time.sleep(0.01)
        ended = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess(command, proc.returncode, out.read(), err.read())
    return done, ended if ready is None else ready, peak_kb / 1024


def _peak_rss_kb(pid: int) -> int:
    """A running process's peak RSS so far (kB), 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children_cpu() -> float:
    """User + system CPU of this process's finished children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency-ms", type=int, default=0, help="simulator delay before each answer")
    parser.add_argument("--data", choices=("simulator", "natural"), default="simulator", help="the calls served")
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_export.json")
    parser.add_argument(
        "--baseline-code", type=Path, default=None, help="a checkout of the project whose export runs beside this one's"
    )
    args = parser.parse_args(argv)
    print(f"goal: blah-tui export >= {GOAL_RATIO:g}x faster than one curl | jq per page, the same ids", flush=True)
    out = run(args.calls, args.runs, args.latency_ms, args.data, args.baseline_code)
    print(
        f"export of {out['calls_total']:,} calls: blah-tui {out['ours_median_s']} s (min {out['ours_min_s']}), "
        f"curl+jq {out['shell_median_s']} s (min {out['shell_min_s']}), {out['ratio']}x faster by medians, "
        f"{out['ratio_of_mins']}x by mins (goal >= {GOAL_RATIO:g}x); same ids: {out['identical_ids']}"
    )
    print(
        f"the floor, a keep-alive Python loop: {out['loop_median_s']} s (min {out['loop_min_s']}); blah-tui takes "
        f"{out['ratio_to_loop']}x its time by medians, {out['ratio_to_loop_of_mins']}x by mins "
        f"(goal <= {FLOOR_GOAL:g}x); "
        f"same ids: {out['identical_ids_loop']}"
    )
    print(f"blah-tui's file was in place after {out['file_ready_median_s']} s (median; the archive is finished after)")
    c = out["cpu_median_s"]
    print(
        f"CPU (medians): blah-tui {c['ours']} s + simulator {c['sim_ours']} s; shell loop {c['shell']} s + "
        f"simulator {c['sim_shell']} s; Python loop {c['loop']} s + simulator {c['sim_loop']} s; "
        f"load average {out['load_avg']:.1f}"
    )
    print(f"blah-tui's peak RSS: {out['peak_rss_mb']} MB; its runs: {out['ours_s']} s; the loop's: {out['loop_s']} s")
    if "baseline" in out:
        b = out["baseline_median"]
        print(
            f"baseline ({out['baseline_code']}): {b['wall']} s (runs {out['baseline']['wall']}), file in place "
            f"{b['file']} s, CPU {b['cpu']} s + simulator {b['sim']} s, peak RSS {out['baseline']['rss']} MB; "
            f"{out['baseline_ratio_to_loop']}x the loop, {out['baseline_ratio']}x faster than curl | jq; "
            f"byte-identical files: {out['identical_file_baseline']}"
        )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
