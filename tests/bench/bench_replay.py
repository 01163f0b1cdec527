"""Benchmark the Blobfish replay (not run by CI; prints numbers and writes JSON).

1. First paint: push the Replay screen of a 2,000-step rollout and render the full frame to
   the bytes a terminal driver would write, against pushing the Logs screen over an offline
   archive of 2,000 calls until its first frame with rows (same app, same machine, runs
   alternated; medians). Goal: replay within 2x of Logs.
2. Key-to-frame on that replay: post ``n`` (next step), time until the app produces its next
   frame (rendered to bytes). Goal: p95 < 16 ms (a 60 Hz frame). Baseline in the same run: Down on the Logs
   screen's list (``LogList``) of 2,000 calls, the same way.

Run: ``.venv/bin/python tests/bench/bench_replay.py [--steps 2000] [--runs 5] [--presses 60] [--json PATH]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rich.console import Console
from textual.app import App

from api_client.blobfish.shapes_evidence import parse_evaluation
from application.session.context import AppContext
from cli.app.open_file import load_dump
from diagnosis.rollouts import diagnose_rollout
from tests.bench.bench_archive import Synthetic
from tui.app import create_app
from tui.screens.evaluations.replay import ReplayScreen
from tui.screens.logs.screen import LogsScreen

SIZE = (160, 50)
RESULTS = Path(__file__).resolve().parent / "results"


def big_detail(steps: int) -> dict[str, Any]:
    """One evaluation, one rollout of ``steps`` steps: a tool call each (runs of the same
    call, some failing), usage on every completion, token ids on every step, a final answer."""
    records: list[dict[str, Any]] = []
    step_records: list[dict[str, Any]] = []
    for k in range(steps):
        turn = k + 1
        records.append(
            {
                "type": "completion",
                "turn": turn,
                "model": "tinyagent-125m",
                "usage": {"prompt_tokens": 200 + 40 * k, "completion_tokens": 20 + k % 30},
            }
        )
        last = k == steps - 1
        if not last:
            query = f"SELECT * FROM t WHERE id = {k // 5}"  # five identical calls in a row
            result = {"error": "timeout"} if k % 7 == 0 else {"rows": [[k, "x" * 20]]}
            records.append(
                {"type": "tool", "turn": turn, "name": "run_sql", "args": {"query": query}, "result": result}
            )
        step = {
            "index": k,
            "turn": turn,
            "prompt": f"[run_sql] result of step {k}: " + "row data " * 20,
            "training_samples": [{"token_ids": list(range(k % 50 + 10))}],
        }
        if last:
            step["final_answer"] = "17 orders shipped late in March 2025."
        step_records.append(step)
    grade = {
        "task_id": "sql-agent/late-orders",
        "passed": False,
        "reward": 0.0,
        "explanation": "1 condition failed",
        "assertions": [{"name": "answer_matches", "passed": False, "details": "expected '12', found 17"}],
        "failed_conditions": ["answer_matches"],
        "advisory_conditions": [],
    }
    rollout = {
        "rollout_id": "job_bench-r000",
        "task_id": "sql-agent/late-orders",
        "reward": 0.0,
        "grade": grade,
        "trace_id": "tr_bench",
        "steps": step_records,
    }
    envelope = {
        "schema": "blobfish.sdk-evaluation.v1",
        "traces": [
            {"schema": "blobfish.trace.v1", "trace_id": "tr_bench", "rollout_id": "job_bench-r000", "records": records}
        ],
        "job": {
            "schema": "blobfish.job.v1",
            "job_id": "job_bench",
            "status": "completed",
            "taskset": "sql-agent",
            "metadata": {"model": "tinyagent-125m", "max_tokens": 512},
            "rollouts": [rollout],
        },
    }
    return {
        "evaluation_id": "ev-bench",
        "job_id": "job_bench",
        "created_at": "2026-11-18T10:00:00Z",
        "rollout_count": 1,
        "mean_reward": 0.0,
        "metadata": {"model": "tinyagent-125m"},
        "envelope": envelope,
    }


def frame_bytes(app: App[Any]) -> str:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    return app.screen._compositor.render_full_update().render_segments(console)


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    # The person's app freezes what its start made (``BlahApp.run``) before it loads anything:
    # the same here, before the rollout and the Logs archive are built.
    gc.collect()
    gc.freeze()
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "calls.jsonl"
        synthetic = Synthetic()
        with dump.open("w", encoding="utf-8") as out:
            for i in range(args.steps):
                out.write(synthetic.entry(i).model_dump_json() + "\n")
        archive = load_dump(dump, report=io.StringIO())
        ctx = AppContext(
            model_id="bench-model",
            archive=archive,
            offline_source=dump,
            platform="offline: calls.jsonl",
            settings={"timezone": "UTC", "persist_theme": False},
        )
        start = time.perf_counter()
        evaluation = parse_evaluation(big_detail(args.steps))
        parse_s = time.perf_counter() - start
        start = time.perf_counter()
        diagnosis = diagnose_rollout(evaluation.rollouts[0])
        diagnose_s = time.perf_counter() - start
        app = create_app(ctx)
        if not args.no_idle_collection:
            app.enable_idle_collection()  # as BlahApp.run does for the person's app
        logs_s: list[float] = []
        replay_s: list[float] = []
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(1.0)
            for _ in range(args.runs):
                start = time.perf_counter()
                logs = LogsScreen()
                await app.push_screen(logs)
                while getattr(logs.log_list, "row_count", 0) == 0:
                    await asyncio.sleep(0.001)
                await pilot.pause()
                frame_bytes(app)
                logs_s.append(time.perf_counter() - start)
                await app.pop_screen()
                await pilot.pause(0.2)

                start = time.perf_counter()
                replay = ReplayScreen(evaluation, diagnosis)
                await app.push_screen(replay)
                await pilot.pause()
                frame = frame_bytes(app)
                replay_s.append(time.perf_counter() - start)
                assert f"step 1 of {args.steps:,}" in frame or f"step 1 of {args.steps}" in frame, "no step shown"
                await app.pop_screen()
                await pilot.pause(0.2)

            logs = LogsScreen()
            await app.push_screen(logs)
            while getattr(logs.log_list, "row_count", 0) == 0:
                await asyncio.sleep(0.001)
            logs.log_list.focus()
            await pilot.press("home")
            await pilot.pause(0.3)
            logs_keys = await key_to_frame(app, pilot, "down", args.presses)
            await app.pop_screen()
            replay = ReplayScreen(evaluation, diagnosis)
            await app.push_screen(replay)
            await pilot.press("home")  # the same warm-up as the Logs list had
            await pilot.pause(0.3)
            to_frame = await key_to_frame(app, pilot, "n", args.presses)
            assert replay.position == args.presses, replay.position
    return {
        "steps": args.steps,
        "parse_ms": round(parse_s * 1000, 1),
        "diagnose_ms": round(diagnose_s * 1000, 1),
        "first_paint_ms": {"logs": median_ms(logs_s), "replay": median_ms(replay_s)},
        "first_paint_ratio_replay_over_logs": round(statistics.median(replay_s) / statistics.median(logs_s), 2),
        "key_to_frame_ms": {"replay_n": spread(to_frame), "logs_down": spread(logs_keys)},
    }


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": median_ms(ordered),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 2),
        "max": round(ordered[-1] * 1000, 2),
        "n": len(ordered),
    }


async def key_to_frame(app: App[Any], pilot: Any, key: str, presses: int) -> list[float]:
    """Post ``key`` ``presses`` times; each time, seconds until the app wrote its next frame
    (``App._display`` wrapped to render the update to the bytes a driver would write)."""
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    frames: list[float] = []
    original = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            renderable.render_segments(console)
            frames.append(time.perf_counter())
        original(screen, renderable)

    app._display = spy  # type: ignore[method-assign]
    out: list[float] = []
    try:
        for _ in range(presses):
            frames.clear()
            start = time.perf_counter()
            await pilot.press(key)
            while not frames:
                await asyncio.sleep(0.0005)
            out.append(frames[0] - start)
            await pilot.pause(0.02)
    finally:
        app._display = original  # type: ignore[method-assign]
    return out


GOAL_PAINT_RATIO = 2.0
GOAL_KEY_P95_MS = 16.0


def rows_table(result: dict[str, Any]) -> list[dict[str, Any]]:
    paint, keys = result["first_paint_ms"], result["key_to_frame_ms"]
    ratio = result["first_paint_ratio_replay_over_logs"]
    return [
        {
            "figure": f"replay first paint, {result['steps']:,}-step rollout",
            "value": paint["replay"],
            "unit": "ms",
            "baseline": f"Logs screen over {result['steps']:,} offline calls, first frame with rows",
            "baseline_value": paint["logs"],
            "ratio": ratio,
            "goal": f"<= {GOAL_PAINT_RATIO:g}x",
            "met": ratio <= GOAL_PAINT_RATIO,
        },
        {
            "figure": f"replay key-to-frame (n), median / p95 {keys['replay_n']['p95']}",
            "value": keys["replay_n"]["median"],
            "unit": "ms",
            "baseline": "Down on the Logs list, p95",
            "baseline_value": keys["logs_down"]["p95"],
            "ratio": None,
            "goal": f"p95 < {GOAL_KEY_P95_MS:g} ms",
            "met": keys["replay_n"]["p95"] < GOAL_KEY_P95_MS,
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--json", type=Path, default=RESULTS / "bench_replay.json")
    parser.add_argument(
        "--no-idle-collection",
        action="store_true",
        help="leave the interpreter's own full garbage collections on "
        "(the app before application.session.idle_collection)",
    )
    args = parser.parse_args()
    print(
        f"goals: replay first paint <= {GOAL_PAINT_RATIO:g}x the Logs screen's; "
        f"key-to-frame p95 < {GOAL_KEY_P95_MS:g} ms",
        flush=True,
    )
    result = asyncio.run(measure(args))
    result["rows_table"] = rows_table(result)
    print(json.dumps({k: v for k, v in result.items() if k != "rows_table"}, indent=2))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
