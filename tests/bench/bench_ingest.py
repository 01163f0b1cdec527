"""Benchmark: ingest from the simulator into the archive while the Logs screen follows.

The simulator runs in a child process (so this process's CPU time is the app's alone):
``SimulatorServer(live=False)``, driven over stdin. This process runs the real app
headless (``run_test``, 160x50) online against it, on the Logs screen, with its archive in
a temporary data dir and the tail polling every ``--interval`` s. Then ``--bursts`` bursts
of ``--calls`` calls each are added (``world.add_log_burst``, one call per ms); for each,
the clock runs from the burst being in the simulator to the archive holding all of it.

Reported: entries/s (wall), CPU seconds per 1000 entries and cores used (process_time /
wall), the share of that spent in ``Archive.add_new`` (SQLite + badges, in worker threads,
timed by wrapping it), and a pyinstrument profile of the UI thread (HTTP, JSON parsing,
pydantic, rendering) summarised by area, written into the JSON.
There is no baseline process here: the comparison is between where the time goes.

Run: ``.venv/bin/python tests/bench/bench_ingest.py [--calls 20000] [--bursts 2]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
from bench_output import save_json

#: pyinstrument frames are put in the first area whose marker is in their file path.
AREAS = (
    ("sqlite / archive", ("sqlite3", "api_client/archives/")),
    (
        "JSON + pydantic parsing",
        ("orjson", "pydantic", "api_client/blahdev/_parse", "api_client/blahdev/shapes", "json/"),
    ),
    ("HTTP (httpx/httpcore)", ("httpx", "httpcore", "h11", "anyio")),
    ("diagnosis (badges)", ("diagnosis/",)),
    ("rendering (Textual/Rich)", ("textual/", "rich/", "widgets/")),
    ("screen code", ("tui/",)),
    ("asyncio / event loop", ("asyncio/", "selectors")),
)


def serve() -> None:
    """Child: a simulator driven by lines on stdin ("burst N" -> "ok TOTAL")."""
    from simulator.server import SimulatorServer

    with SimulatorServer(seed=7, live=False) as sim:
        print(json.dumps({"url": sim.base_url, "key": sim.council_key, "model": sim.person_model_id}), flush=True)
        free_at = 0  # a burst spans n ms from "now": the next one starts after it, so no call lands in the past
        for line in sys.stdin:
            parts = line.split()
            if parts and parts[0] == "burst":
                while sim.world.now() <= free_at:
                    time.sleep(0.05)
                n = int(parts[1])
                free_at = sim.world.now() + n
                sim.world.add_log_burst(n, same_ms=False)
                print(f"ok {sim.world.logs.count(sim.person_model_id)}", flush=True)


BUILTIN_AREAS = (
    ("idle (waiting in select)", ("poll", "select")),
    ("JSON + pydantic parsing", ("validate_python", "validate_json", "loads")),
)


def _area(frame: Any, inherited: str) -> str:
    """The area of a frame: from its file, else (built-ins) its name, else its caller's."""
    path = (frame.file_path or "").replace("\\", "/")
    for name, marks in AREAS:
        if any(m in path for m in marks):
            return name
    if not path or path.startswith("<"):
        function = frame.function or ""
        for name, marks in BUILTIN_AREAS:
            if any(m in function for m in marks):
                return name
    return inherited


def summarise(session: Any) -> dict[str, float]:
    """Self time (s) of the sampled UI-thread frames, by area (a frame without an area of
    its own counts for its caller's: e.g. pydantic-core's validator for the parser)."""
    totals: Counter[str] = Counter()
    root = session.root_frame() if session is not None else None
    stack = [(root, "other")] if root is not None else []
    while stack:
        frame, inherited = stack.pop()
        area = _area(frame, inherited)
        totals[area] += frame.total_self_time
        stack.extend((child, area) for child in frame.children)
    return {k: round(v, 3) for k, v in totals.most_common()}


async def follow(
    proc: subprocess.Popen[str], info: dict[str, str], calls: int, bursts: int, interval: float
) -> dict[str, Any]:
    from pyinstrument import Profiler

    from api_client.archives.archive import Archive
    from api_client.blahdev.client import BlahClient
    from application.session.context import AppContext
    from application.session.settings.typed import Settings
    from tui.app import create_app
    from tui.screens.logs.screen import LogsScreen

    add_time = {"wall": 0.0, "cpu": 0.0, "badges_cpu": 0.0, "calls": 0, "rows": 0}
    lock = threading.Lock()
    original_add_new = Archive.add_new

    def add_new(self: Archive, entries: Any, *args: Any, **kwargs: Any) -> Any:
        t, c = time.perf_counter(), time.thread_time()
        result = original_add_new(self, entries, *args, **kwargs)
        with lock:
            add_time["wall"] += time.perf_counter() - t
            add_time["cpu"] += time.thread_time() - c
            add_time["calls"] += 1
            add_time["rows"] += len(result)
        return result

    Archive.add_new = add_new  # type: ignore[method-assign]
    import application.logs.feed as logs_feed

    original_make = logs_feed.make_badges_fn

    def make_badges_fn(*args: Any, **kwargs: Any) -> Any:
        inner = original_make(*args, **kwargs)

        def timed_badges(entry: Any) -> Any:
            c = time.thread_time()
            result = inner(entry)
            with lock:
                add_time["badges_cpu"] += time.thread_time() - c
            return result

        return timed_badges

    logs_feed.make_badges_fn = make_badges_fn  # type: ignore[assignment]
    client = BlahClient(info["url"], api_key=info["key"])
    ctx = AppContext(
        model_id=info["model"],
        client=client,
        base_url=info["url"],
        key_source="env",
        platform="blah.dev (bench simulator)",
        settings=Settings(logs_interval=interval, theme="blah-dark", persist_theme=False),
    )
    app = create_app(ctx)
    results: list[dict[str, float]] = []
    profile: dict[str, float] = {}
    async with app.run_test(size=(160, 50)) as pilot:
        deadline = time.monotonic() + 60
        while not isinstance(app.screen, LogsScreen) or ctx.archive is None or not app.screen.loader.loaded:
            await pilot.pause(0.1)
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the Logs screen did not load (screen {type(app.screen).__name__}, "
                    f"archive {ctx.archive is not None}, "
                    f"loaded {getattr(getattr(app.screen, 'loader', None), 'loaded', None)})"
                )
        screen = app.screen
        archive = ctx.archive
        await pilot.pause(interval * 2)
        profiler = Profiler(interval=0.002, async_mode="disabled")
        for _ in range(bursts):
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(f"burst {calls}\n")
            proc.stdin.flush()
            held = await asyncio.to_thread(archive.count)
            await asyncio.to_thread(proc.stdout.readline)  # "ok TOTAL": the burst is in
            target = held + calls  # the archive holds the latest calls, not the seed's whole history
            before = dict(add_time)
            profiler.start()
            t, c = time.perf_counter(), time.process_time()
            # The headline is the rate once entries flow: from the first new entry in the
            # archive to the last (the wait for the tail's next poll is reported apart, not
            # averaged into a throughput).
            first_at: float | None = None
            first_count = held
            while (count := await asyncio.to_thread(archive.count)) < target:
                if first_at is None and count > held:
                    first_at, first_count = time.perf_counter(), count
                await asyncio.sleep(0.005)
                if time.perf_counter() - t > 300:
                    raise RuntimeError(f"ingest did not finish in 300 s ({archive.count()} of {target})")
            done_at = time.perf_counter()
            wall, cpu = done_at - t, time.process_time() - c
            if first_at is None:  # all of it landed between two looks
                first_at, first_count = t, held
            flowing = max(done_at - first_at, 1e-6)
            profiler.stop()
            await pilot.pause()
            results.append(
                {
                    "entries": calls,
                    "wall_s": round(wall, 3),
                    "cpu_s": round(cpu, 3),
                    "wait_for_first_s": round(first_at - t, 3),
                    "flowing_s": round(flowing, 3),
                    "entries_per_s": round((target - first_count) / flowing),
                    "cores_used": round(cpu / wall, 2),
                    "cpu_ms_per_1000": round(cpu / calls * 1e6, 1),
                    "archive_add_wall_s": round(add_time["wall"] - before["wall"], 3),
                    "archive_add_cpu_s": round(add_time["cpu"] - before["cpu"], 3),
                    "of_which_badges_cpu_s": round(add_time["badges_cpu"] - before["badges_cpu"], 3),
                }
            )
        shown = screen.log_list.row_count if hasattr(screen.log_list, "row_count") else None
        profile = summarise(profiler.last_session)
        top = profiler.output_text(unicode=False, color=False, show_all=False)
    await client.aclose()
    Archive.add_new = original_add_new  # type: ignore[method-assign]
    logs_feed.make_badges_fn = original_make  # type: ignore[assignment]
    return {"bursts": results, "ui_thread_profile_s": profile, "profile_text": top[:6000], "list_rows_after": shown}


def run(calls: int, bursts: int, interval: float) -> dict[str, Any]:
    """The benchmark in a temporary folder removed whatever happens."""
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as folder:
        return _run(calls, bursts, interval, Path(folder))


def _run(calls: int, bursts: int, interval: float, tmp: Path) -> dict[str, Any]:
    os.environ["BLAH_TUI_DATA_DIR"] = str(tmp / "data")
    os.environ["BLAH_TUI_CONFIG_DIR"] = str(tmp / "config")
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        info = json.loads(proc.stdout.readline())
        out = asyncio.run(follow(proc, info, calls, bursts, interval))
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=30)
    entries = sum(b["entries"] for b in out["bursts"])
    wall = sum(b["wall_s"] for b in out["bursts"])
    flowing = sum(b["flowing_s"] for b in out["bursts"])
    waited = [b["wait_for_first_s"] for b in out["bursts"]]
    cpu = sum(b["cpu_s"] for b in out["bursts"])
    add_cpu = sum(b["archive_add_cpu_s"] for b in out["bursts"])
    badges_cpu = sum(b["of_which_badges_cpu_s"] for b in out["bursts"])
    out.update(
        calls_per_burst=calls,
        poll_interval_s=interval,
        entries_per_s=round(sum(b["entries_per_s"] * b["flowing_s"] for b in out["bursts"]) / flowing),
        wait_for_first_s=waited,
        cpu_ms_per_1000=round(cpu / entries * 1e6, 1),
        cores_used=round(cpu / wall, 2),
        archive_add_share_of_cpu=round(add_cpu / cpu, 2) if cpu else None,
        badges_share_of_cpu=round(badges_cpu / cpu, 2) if cpu else None,
        load_avg=os.getloadavg()[0],
    )
    out["rows_table"] = [
        {
            "figure": f"ingest while following, {bursts} x {calls:,} calls (rate once flowing; first entry after "
            f"{max(waited):.2f} s, the tail's poll every {interval:g} s)",
            "value": out["entries_per_s"],
            "unit": "entries/s",
            "baseline": "(none: CPU cost shown)",
            "baseline_value": f"{out['cpu_ms_per_1000']} ms CPU/1000, {out['cores_used']} cores",
            "ratio": None,
            "goal": "(measure)",
            "met": None,
        }
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--bursts", type=int, default=2)
    parser.add_argument("--interval", type=float, default=0.5, help="the tail's poll interval (app default 2 s)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=HERE / "results" / "bench_ingest.json")
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    print("goal: none set (where the time goes); the headline is the rate once entries flow", flush=True)
    out = run(args.calls, args.bursts, args.interval)
    print(
        f"ingest: {out['entries_per_s']:,} entries/s, {out['cpu_ms_per_1000']} ms CPU per 1000 entries, "
        f"{out['cores_used']} cores; Archive.add_new {out['archive_add_share_of_cpu']} of CPU "
        f"(badges {out['badges_share_of_cpu']}); "
        f"UI thread profile (s): {out['ui_thread_profile_s']}"
    )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
