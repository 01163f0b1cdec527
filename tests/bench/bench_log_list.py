"""Benchmark LogList (not run by CI; prints numbers and writes JSON).

1. First paint of 100k rows: LogList vs the fairest DataTable a person would write: one
   holding a screenful of rows, paged (PageDown clears it and adds the next screenful),
   and, for the record, a DataTable holding all the rows (the old strawman). "First paint"
   = build + mount the widget, let the app settle, then render the full frame to the exact
   escape-sequence string a terminal driver would write. Goal: >= 200x the paged DataTable.
2. Paging: PageDown to the next frame, LogList against the paged DataTable (same rows).
3. Key-to-frame latency at 1M rows: post Down, time until the app produces its next frame
   (rendered to terminal bytes); also the action + a full repaint. Goal: p95 < 16 ms (a
   60 Hz frame).

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


GOAL_FIRST_PAINT_RATIO = 200.0
GOAL_KEY_P95_MS = 16.0
SCREENFUL = SIZE[1] - 2  # the table's rows under its header, in a 50-line terminal


def build_table(cells: list[tuple[str, ...]]) -> Widget:
    table: DataTable[str] = DataTable()
    table.add_columns("time", "source", "latency", "finish", "st", "badges", "prompt", "reply")
    table.add_rows(cells)
    return table


class PagedTable(DataTable[str]):
    """What a person would write instead of a virtual list: a DataTable holding one
    screenful of the rows, refilled on PageDown (the rows' cells are made per page)."""

    BINDINGS = [("pagedown", "next_page", "Next page")]

    def __init__(self, rows: list[LogRow]) -> None:
        super().__init__()
        self.all_rows = rows
        self.page = 0

    def on_mount(self) -> None:
        self.add_columns("time", "source", "latency", "finish", "st", "badges", "prompt", "reply")
        self._fill()

    def _fill(self) -> None:
        start = self.page * SCREENFUL
        self.clear()
        self.add_rows(table_cells(r) for r in self.all_rows[start:start + SCREENFUL])

    def action_next_page(self) -> None:
        self.page += 1
        self._fill()


async def key_to_frame(app: App[Any], pilot: Any, key: str, presses: int) -> list[float]:
    """ms from posting ``key`` to the app's next frame (``App._display`` wrapped to render
    the update to the exact bytes a driver would write, then timestamp), ``presses`` times.
    Includes Textual's frame pacing (the screen update timer)."""
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    frames: list[float] = []
    original = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            renderable.render_segments(console)
            frames.append(time.perf_counter())
        original(screen, renderable)

    app._display = spy  # type: ignore[method-assign]
    timings: list[float] = []
    try:
        for _ in range(presses):
            frames.clear()
            start = time.perf_counter()
            await pilot.press(key)
            while not frames:
                if time.perf_counter() > start + 5.0:
                    raise RuntimeError(f"{key} produced no frame in 5 s")
                await asyncio.sleep(0.0005)
            timings.append((frames[0] - start) * 1000)
    finally:
        app._display = original  # type: ignore[method-assign]
    return timings


async def _mounted_at_top(app: App[Any], pilot: Any, widget: Widget) -> None:
    await app.mount(widget)
    widget.focus()
    await pilot.pause()
    await pilot.press("home")  # LogList opens on the newest rows (live): start from the top
    await pilot.pause()


async def key_latency(rows: list[LogRow], presses: int) -> dict[str, Any]:
    """Two measures of pressing Down: ``key_to_frame`` (see :func:`key_to_frame`), and
    ``action_plus_full_frame``: the binding's action, then a FULL repaint rendered to bytes."""
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        log_list = LogList(rows, tz=UTC)
        await _mounted_at_top(app, pilot, log_list)
        to_frame = await key_to_frame(app, pilot, "down", presses)
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


async def page_latency(build: Callable[[], Widget], presses: int) -> dict[str, float]:
    """PageDown to the app's next frame, ``presses`` times, from the top of the rows."""
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await _mounted_at_top(app, pilot, build())
        return summary(await key_to_frame(app, pilot, "pagedown", presses))


async def main(args: argparse.Namespace) -> dict[str, Any]:
    print(f"goals: LogList first paint >= {GOAL_FIRST_PAINT_RATIO:g}x a paged DataTable (one screenful); "
          f"key-to-frame p95 < {GOAL_KEY_P95_MS:g} ms at {args.big:,} rows", flush=True)
    rows = make_rows(args.rows)
    cells = [table_cells(r) for r in rows]
    log_list_s = await first_paint(lambda: LogList(rows, tz=UTC))
    paged_s = await first_paint(lambda: PagedTable(rows))
    table_s = await first_paint(lambda: build_table(cells)) if args.rows <= args.full_table_max else None
    print(f"first paint, {args.rows:,} rows: LogList {log_list_s * 1000:.1f} ms, paged DataTable "
          f"{paged_s * 1000:.1f} ms, ratio {paged_s / log_list_s:.2f}x (goal >= {GOAL_FIRST_PAINT_RATIO:g}x)"
          + (f"; DataTable of all rows {table_s * 1000:.1f} ms ({table_s / log_list_s:.1f}x)" if table_s else ""))
    paging = {"log_list": await page_latency(lambda: LogList(rows, tz=UTC), args.presses),
              "paged_table": await page_latency(lambda: PagedTable(rows), args.presses)}
    print(f"PageDown to frame (ms): LogList {paging['log_list']}, paged DataTable {paging['paged_table']}")
    started = time.perf_counter()
    big = make_rows(args.big)
    print(f"built {args.big:,} LogRow objects in {time.perf_counter() - started:.1f} s")
    latency = await key_latency(big, args.presses)
    print(f"key-to-frame at {args.big:,} rows (ms): {latency['key_to_frame_ms']} (goal p95 < {GOAL_KEY_P95_MS:g} ms); "
          f"action + full repaint: {latency['action_plus_full_frame_ms']}")
    return {
        "rows": args.rows,
        "first_paint_ms": {"log_list": round(log_list_s * 1000, 2), "paged_table": round(paged_s * 1000, 2),
                           "data_table_all_rows": None if table_s is None else round(table_s * 1000, 2)},
        "first_paint_ratio": round(paged_s / log_list_s, 2),
        "first_paint_ratio_all_rows": None if table_s is None else round(table_s / log_list_s, 1),
        "page_down_to_frame_ms": paging,
        "goals": {"first_paint_ratio": GOAL_FIRST_PAINT_RATIO, "key_to_frame_p95_ms": GOAL_KEY_P95_MS},
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
    parser.add_argument("--full-table-max", type=int, default=100_000,
                        help="also time a DataTable of all rows up to this many (the old strawman; slow)")
    parser.add_argument("--out", "--json", dest="out", type=Path, default=Path(__file__).parent / "results" / "bench_log_list.json")
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments))
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(result, indent=2))
    print(f"wrote {arguments.out}")
