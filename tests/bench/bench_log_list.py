"""Benchmark LogList against a paged DataTable, operation by operation (not run by CI).

What a person does with a long list, timed from the key (or the call) to the first frame that
shows its result, rendered to the exact bytes a terminal driver would write:

- first paint: mount the widget over the rows and render the first frame (the newest screenful);
- End / Home: jump to the newest / oldest call;
- jump to row N: the cursor put on a far row (the Inspector's way back, a search hit), N random;
- PageDown and Down: a screenful, a row;
- live append: one new call arrives while the list is at the newest row (tailing).

The two sides read the SAME rows from the same place: the cached 1M-call archive
(``bench_search.cached_archive``) through ``application.logs.rows.ArchiveRows`` (its indexed
windowed reads, ~128-row blocks cached), one fresh reader per widget; live append works on
an in-memory list for both. The baseline is what a person would write instead of a virtual
list (issue 30): a Textual ``DataTable`` holding one screenful, paged (PageDown, End, a jump
to row N clear it and add the screenful around the target; Down past its last row turns the
page; a new call is added to the last page, or starts a new one).

Rounds alternate which widget goes first, so machine load hits both; each figure is the
median of its presses, and the table gives min and median over the rounds plus one round's
pair side by side. Goals: LogList >= 200x the paged DataTable (per operation; a ratio under
it is said, not hidden), and key-to-frame p95 < 16 ms (Down, 1M rows).

Run: ``.venv/bin/python tests/bench/bench_log_list.py [--rows 1000000] [--rounds 5] [--json F]``
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE))

from bench_output import save_json
from rich.console import Console
from textual.app import App
from textual.widget import Widget
from textual.widgets import DataTable

from api_client.archives.archive import Archive
from application.logs.row import ListRowSource, LogRow, RowSource, format_latency, format_time
from application.logs.rows import ArchiveRows
from widgets.log_columns import layout_for
from widgets.log_list import LogList
from widgets.safe_text import one_line

SIZE = (160, 50)
SCREENFUL = SIZE[1] - 2  # the table's rows under its header, in a 50-line terminal
GOAL_RATIO = 200.0
GOAL_KEY_P95_MS = 16.0
FRAME_TIMEOUT_S = 10.0


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


class PagedTable(DataTable[str]):
    """What a person would write instead of a virtual list: a DataTable holding one screenful
    of ``source`` (any ``RowSource``: ``len`` + ``row(i)``), the page around the target refilled
    on each jump. Opens on the newest page, as the Logs screen does."""

    BINDINGS = [
        ("pagedown", "next_page", "Next page"),
        ("pageup", "previous_page", "Previous page"),
        ("end", "last_page", "Newest"),
        ("home", "first_page", "Oldest"),
    ]

    def __init__(self, source: RowSource) -> None:
        super().__init__(cursor_type="row")  # a row cursor, as a list of calls has
        self.source = source
        self.page = -1

    @property
    def index(self) -> int:
        """The cursor's row in the whole source."""
        return self.page * SCREENFUL + self.cursor_row

    def on_mount(self) -> None:
        self.add_columns("time", "source", "latency", "finish", "st", "badges", "prompt", "reply")
        self.go_to(len(self.source) - 1)

    def _fill(self, page: int) -> None:
        start = page * SCREENFUL
        self.page = page
        self.clear()
        self.add_rows(table_cells(self.source.row(i)) for i in range(start, min(start + SCREENFUL, len(self.source))))

    def go_to(self, index: int) -> None:
        index = min(max(index, 0), len(self.source) - 1)
        page = index // SCREENFUL
        if page != self.page:
            self._fill(page)
        self.move_cursor(row=index - page * SCREENFUL, animate=False)

    def action_next_page(self) -> None:
        self.go_to((self.page + 1) * SCREENFUL)

    def action_previous_page(self) -> None:
        self.go_to((self.page - 1) * SCREENFUL)

    def action_last_page(self) -> None:
        self.go_to(len(self.source) - 1)

    def action_first_page(self) -> None:
        self.go_to(0)

    def action_cursor_down(self) -> None:
        if self.cursor_row >= self.row_count - 1:
            self.go_to(self.index + 1)  # past the page's last row: the next page
        else:
            super().action_cursor_down()

    def appended(self, rows: list[LogRow]) -> None:
        """New calls at the end of the (list) source while the cursor follows the newest."""
        for _ in rows:
            newest = len(self.source) - 1
            if newest // SCREENFUL == self.page:
                self.add_row(*table_cells(self.source.row(newest)))
            self.go_to(newest)


# ---------------------------------------------------------------------- the two sides


def make_log_list(source: RowSource) -> LogList:
    log_list = LogList(source, tz=UTC)
    log_list.has_older = False  # every row is in the source: Home asks the screen for nothing
    return log_list


def cursor_of(widget: Widget) -> int:
    return widget.cursor_index if isinstance(widget, LogList) else widget.index  # type: ignore[attr-defined]


def go_to(widget: Widget, index: int) -> None:
    if isinstance(widget, LogList):
        widget.move_cursor_to(index)
    else:
        widget.go_to(index)  # type: ignore[attr-defined]


def append(widget: Widget, source: ListRowSource, rows: list[LogRow]) -> None:
    if isinstance(widget, LogList):
        widget.append_rows(rows)
    else:
        source.rows.extend(rows)
        widget.appended(rows)  # type: ignore[attr-defined]


def marker(row: LogRow) -> str:
    """Text that only this row shows: its prompt starts ``case N `` (``live N `` when appended)."""
    head = (row.prompt_preview or "").split(" ", 2)
    return " ".join(head[:2]) + " "


class BenchApp(App[None]):
    pass


class FrameWatch:
    """Spies on ``App._display``: every frame rendered to the terminal's bytes, timestamped."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
        self.frames: list[tuple[float, str]] = []
        self._original = app._display

    def __enter__(self) -> FrameWatch:
        def spy(screen: Any, renderable: Any) -> None:
            if renderable is not None:
                text = renderable.render_segments(self.console)
                self.frames.append((time.perf_counter(), text))
            self._original(screen, renderable)

        self.app._display = spy  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self.app._display = self._original  # type: ignore[method-assign]

    async def time_to(self, act: Callable[[], Awaitable[None] | None], shown: Callable[[], str]) -> float:
        """ms from ``act`` to the first frame holding ``shown()`` (the target row's text,
        known once the act is handled)."""
        self.frames.clear()
        start = time.perf_counter()
        result = act()
        if result is not None:
            await result
        text = shown()
        seen = 0
        while True:
            for stamp, frame in self.frames[seen:]:
                if text in frame:
                    return (stamp - start) * 1000
            seen = len(self.frames)
            if time.perf_counter() > start + FRAME_TIMEOUT_S:
                raise RuntimeError(f"no frame showed {text!r} within {FRAME_TIMEOUT_S:g} s")
            await asyncio.sleep(0.0005)


def render_frame(app: App[Any]) -> str:
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=SIZE[0])
    return app.screen._compositor.render_full_update().render_segments(console)


async def one_side(
    kind: str, archive: Archive, live_rows: list[LogRow], presses: int, seed: int
) -> dict[str, list[float]]:
    """Every operation once (each key ``presses`` times) on one widget, in a fresh app."""
    source = ArchiveRows(archive)
    count = len(source)
    build = (lambda: make_log_list(source)) if kind == "log_list" else (lambda: PagedTable(source))
    out: dict[str, list[float]] = {}
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        widget = build()
        await app.mount(widget)
        await pilot.pause()
        frame = render_frame(app)
        out["first_paint"] = [(time.perf_counter() - start) * 1000]
        if marker(source.row(count - 1)) not in frame:
            raise RuntimeError(f"{kind}: the first frame does not show the newest row")
        widget.focus()
        await pilot.pause()
        with FrameWatch(app) as watch:

            def shows_cursor() -> str:
                return marker(source.row(cursor_of(widget)))

            async def key(name: str) -> float:
                return await watch.time_to(lambda: pilot.press(name), shows_cursor)

            out["home"], out["end"] = [], []
            for _ in range(max(3, presses // 10)):
                out["home"].append(await key("home"))
                out["end"].append(await key("end"))
            rng = random.Random(seed)
            out["jump_to_row"] = []
            for _ in range(max(5, presses // 4)):
                target = rng.randrange(count)
                out["jump_to_row"].append(await watch.time_to(lambda t=target: go_to(widget, t), shows_cursor))
            await key("home")
            out["page_down"] = [await key("pagedown") for _ in range(presses)]
            await key("home")
            out["down"] = [await key("down") for _ in range(presses)]
            assert cursor_of(widget) == presses, f"{kind}: Down moved the cursor to {cursor_of(widget)}"
        await widget.remove()
        # live append: an in-memory list (the archive's ingest would cost both sides the same)
        rows = list(live_rows)
        memory = ListRowSource(rows)
        tail = make_log_list(rows) if kind == "log_list" else PagedTable(memory)
        await app.mount(tail)
        tail.focus()
        await pilot.pause()
        with FrameWatch(app) as watch:
            out["append"] = []
            for k in range(presses):
                new = [live_row(k)]
                out["append"].append(
                    await watch.time_to(lambda n=new: append(tail, memory, n), lambda n=new: marker(n[0]))
                )
    return out


def live_row(k: int, word: str = "live") -> LogRow:
    return LogRow(
        f"{word}-{k:07d}",
        1_800_000_000_000 + k,
        "eval",
        120,
        "stop",
        "ok",
        (),
        f"{word} {k} a call that just arrived",
        "its reply",
    )


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 3),
        "min": round(ordered[0], 3),
        "max": round(ordered[-1], 3),
        "n": len(ordered),
    }


OPERATIONS = {
    "first_paint": "first paint (mount -> first frame, newest screenful)",
    "end": "End: jump to the newest call (from the oldest)",
    "home": "Home: jump to the oldest call (from the newest)",
    "jump_to_row": "cursor to a random row N (a search hit, the Inspector's way back)",
    "page_down": "PageDown",
    "down": "Down",
    "append": "live append of one call while tailing",
}


async def run(rows: int, rounds: int, presses: int) -> dict[str, Any]:
    from bench_search import cached_archive

    archive = Archive(cached_archive(rows))
    live_rows = [live_row(i, "held") for i in range(10_000)]  # what the tailing list holds before
    per_round: list[dict[str, dict[str, float]]] = []
    down_samples: list[float] = []  # key-to-frame: Down on LogList over the archive, every round's presses
    try:
        for r in range(rounds):
            order = ["log_list", "paged_table"] if r % 2 == 0 else ["paged_table", "log_list"]
            medians: dict[str, dict[str, float]] = {}
            for kind in order:
                samples = await one_side(kind, archive, live_rows, presses, seed=r)
                medians[kind] = {op: statistics.median(v) for op, v in samples.items()}
                if kind == "log_list":
                    down_samples += samples["down"]
            per_round.append(medians)
            print(
                f"round {r + 1}/{rounds}: "
                + ", ".join(
                    f"{op} {medians['log_list'][op]:.2f}/{medians['paged_table'][op]:.2f} ms" for op in OPERATIONS
                ),
                flush=True,
            )
    finally:
        archive.close()
    operations: dict[str, Any] = {}
    for op, what in OPERATIONS.items():
        ours = [m["log_list"][op] for m in per_round]
        theirs = [m["paged_table"][op] for m in per_round]
        ratios = [t / o for o, t in zip(ours, theirs, strict=True)]
        operations[op] = {
            "what": what,
            "log_list_ms": {"min": round(min(ours), 3), "median": round(statistics.median(ours), 3)},
            "paged_table_ms": {"min": round(min(theirs), 3), "median": round(statistics.median(theirs), 3)},
            "ratio_median": round(statistics.median(ratios), 2),
            "ratio_min": round(min(ratios), 2),
            "side_by_side_round_1_ms": [round(ours[0], 3), round(theirs[0], 3)],
            "met": statistics.median(ratios) >= GOAL_RATIO,
        }
    return {
        "rows": rows,
        "rounds": rounds,
        "presses": presses,
        "operations": operations,
        "key_to_frame_down_ms": summary(down_samples),
        "goals": {"ratio": GOAL_RATIO, "key_to_frame_p95_ms": GOAL_KEY_P95_MS},
        "terminal": {"width": SIZE[0], "height": SIZE[1]},
        "cpu_count": os.cpu_count(),
        "load_avg_1m": os.getloadavg()[0],
    }


def rows_table(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The headline rows ``run_all`` prints: one per operation, then key-to-frame."""
    table = []
    for data in out["operations"].values():
        table.append(
            {
                "figure": f"LogList {data['what']}, {out['rows']:,} rows (median of {out['rounds']} rounds; "
                f"min {data['log_list_ms']['min']} ms)",
                "value": data["log_list_ms"]["median"],
                "unit": "ms",
                "baseline": "DataTable holding one screenful, paged, same archive reads",
                "baseline_value": data["paged_table_ms"]["median"],
                "ratio": data["ratio_median"],
                "goal": f">= {GOAL_RATIO:g}x",
                "met": data["met"],
            }
        )
    key = out["key_to_frame_down_ms"]
    table.append(
        {
            "figure": f"key-to-frame (Down), {out['rows']:,} rows, p95 (median {key['median']})",
            "value": key["p95"],
            "unit": "ms",
            "baseline": "-",
            "baseline_value": None,
            "ratio": None,
            "goal": f"p95 < {GOAL_KEY_P95_MS:g} ms",
            "met": key["p95"] < GOAL_KEY_P95_MS,
        }
    )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="the cached archive's size (built on first use)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--json", "--out", dest="json", type=Path, default=HERE / "results" / "bench_log_list.json")
    args = parser.parse_args(argv)
    print(
        f"goals: LogList >= {GOAL_RATIO:g}x a paged DataTable (one screenful) per operation, same archive reads; "
        f"key-to-frame p95 < {GOAL_KEY_P95_MS:g} ms at {args.rows:,} rows",
        flush=True,
    )
    out = asyncio.run(run(args.rows, args.rounds, args.presses))
    out["rows_table"] = rows_table(out)
    print(f"\n{'operation':<58} {'LogList ms':>18} {'paged DataTable ms':>20} {'ratio':>14}")
    for data in out["operations"].values():
        ours, theirs = data["log_list_ms"], data["paged_table_ms"]
        print(
            f"{data['what']:<58} {ours['median']:>8.2f} (min {ours['min']:.2f}) {theirs['median']:>9.2f} "
            f"(min {theirs['min']:.2f}) {data['ratio_median']:>7.2f}x {'met' if data['met'] else 'NOT met'}"
        )
    key = out["key_to_frame_down_ms"]
    print(
        f"key-to-frame (Down) at {args.rows:,} rows: p95 {key['p95']} ms, median {key['median']} ms "
        f"(goal p95 < {GOAL_KEY_P95_MS:g} ms)"
    )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
