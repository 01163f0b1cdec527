"""Benchmark LogList (not run by CI; prints numbers and writes JSON).

1. First paint of 100k rows: LogList vs Textual's DataTable fed the same cells. "First paint"
   = build + mount the widget, let the app settle, then render the full frame to the exact
   escape-sequence string a terminal driver would write. Goal: ratio >= 50x.
2. Key-to-frame latency at 1M rows: post Down, time until the app produces its next frame
   (rendered to terminal bytes); also the action + a full repaint. Goal: < 50 ms.

Run: ``.venv/bin/python tests/bench/bench_log_list.py [--rows 100000] [--big 1000000] [--out F]``
(JSON goes to tests/bench/results/, which git ignores.)
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rich.console import Console
from textual.app import App
from textual.widget import Widget
from textual.widgets import DataTable

from widgets.log_columns import layout_for
from widgets.log_list import LogList, LogRow
from application.logs.row import format_latency, format_time
from widgets.safe_text import one_line

SIZE = (160, 50)
BASE_MS = 1_700_000_000_000
PROMPTS = [f"Question {i}: what is {i} + {i}? Answer briefly and show your work." for i in range(97)]
REPLIES = [f"The answer is {2 * i}. " * 3 for i in range(89)]
BADGES: list[tuple[str, ...]] = [(), (), ("loop",), (), ("truncation", "loop"), (), ("empty",)]


def make_rows(count: int) -> list[LogRow]:
    return [
        LogRow(
            f"log-{i:07d}", BASE_MS + i * 731, "eval" if i % 3 else "chatroom", 80 + i % 4000,
            "length" if i % 11 == 0 else "stop", "error" if i % 17 == 0 else "ok",
            BADGES[i % len(BADGES)], PROMPTS[i % len(PROMPTS)], REPLIES[i % len(REPLIES)],
        )
        for i in range(count)
    ]  # fmt: skip


def table_cells(row: LogRow) -> tuple[str, ...]:
    cols = layout_for(SIZE[0])
    return (
        format_time(row.created_at, UTC),
        row.source or "—",
        format_latency(row.latency_ms),
        row.finish_reason or "—",
        "ERR" if row.status == "error" else "ok",
        " ".join(b.upper() for b in row.badges),
        one_line(row.prompt_preview, max_len=cols.prompt),
        one_line(row.reply_preview, max_len=cols.reply),
    )


def render_frame(app: App[Any]) -> str:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    return app.screen._compositor.render_full_update().render_segments(console)


class BenchApp(App[None]):
    pass


async def first_paint(build: Callable[[], Widget]) -> float:
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        await app.mount(build())
        await pilot.pause()
        frame = render_frame(app)
        elapsed = time.perf_counter() - start
        assert "Question" in frame, "the first frame must show rows"
        return elapsed


def build_table(cells: list[tuple[str, ...]]) -> Widget:
    table: DataTable[str] = DataTable()
    table.add_columns("time", "source", "latency", "finish", "st", "badges", "prompt", "reply")
    table.add_rows(cells)
    return table


async def key_latency(rows: list[LogRow], presses: int) -> dict[str, Any]:
    """Two measures of pressing Down:

    ``key_to_frame``: from posting the key to the moment the app produced its next frame
    (``App._display`` is wrapped to render the update to the exact bytes a driver would
    write, then timestamp). Includes Textual's frame pacing (the screen update timer).
    ``action_plus_full_frame``: the binding's action, then a FULL repaint rendered to bytes.
    """
    app = BenchApp()
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    frames: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        log_list = LogList(rows, tz=UTC)
        await app.mount(log_list)
        log_list.focus()
        await pilot.pause()
        await pilot.press("home")
        await pilot.pause()
        original = app._display

        def spy(screen: Any, renderable: Any) -> None:
            if renderable is not None:
                renderable.render_segments(console)
                frames.append(time.perf_counter())
            original(screen, renderable)

        app._display = spy  # type: ignore[method-assign]
        to_frame: list[float] = []
        for _ in range(presses):
            frames.clear()
            start = time.perf_counter()
            await pilot.press("down")
            while not frames:
                await asyncio.sleep(0.0005)
            to_frame.append((frames[0] - start) * 1000)
        app._display = original  # type: ignore[method-assign]
        direct: list[float] = []
        for _ in range(presses):
            start = time.perf_counter()
            log_list.action_cursor_down()
            render_frame(app)
            direct.append((time.perf_counter() - start) * 1000)
        assert log_list.cursor_index == 2 * presses
        return {"key_to_frame_ms": summary(to_frame), "action_plus_full_frame_ms": summary(direct)}


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1], 3),
        "max": round(ordered[-1], 3),
        "n": len(ordered),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    rows = make_rows(args.rows)
    cells = [table_cells(r) for r in rows]
    log_list_s = await first_paint(lambda: LogList(rows, tz=UTC))
    table_s = await first_paint(lambda: build_table(cells))
    print(f"first paint, {args.rows:,} rows: LogList {log_list_s * 1000:.1f} ms, "
          f"DataTable {table_s * 1000:.1f} ms, ratio {table_s / log_list_s:.1f}x (goal >= 50x)")
    started = time.perf_counter()
    big = make_rows(args.big)
    print(f"built {args.big:,} LogRow objects in {time.perf_counter() - started:.1f} s")
    latency = await key_latency(big, args.presses)
    print(f"key-to-frame at {args.big:,} rows (ms): {latency['key_to_frame_ms']} (goal < 50 ms); "
          f"action + full repaint: {latency['action_plus_full_frame_ms']}")
    return {
        "rows": args.rows,
        "first_paint_ms": {"log_list": round(log_list_s * 1000, 2), "data_table": round(table_s * 1000, 2)},
        "first_paint_ratio": round(table_s / log_list_s, 1),
        "big_rows": args.big,
        "key_to_frame": latency,
        "terminal": {"width": SIZE[0], "height": SIZE[1]},
        "cpu_count": os.cpu_count(),
        "load_avg_1m": os.getloadavg()[0],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "bench_log_list.json")
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments))
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(result, indent=2))
    print(f"wrote {arguments.out}")
