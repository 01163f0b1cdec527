"""Benchmark: the New bake-off dialog's CPU per open and per key, against Textual's own widgets.

A headless app on Runs (160x48) with the errorbar simulator's queue: ``e`` opens the dialog
(until the workspace's runs and criteria are in), Esc closes it; then keys typed one at a time,
each settled like a person's (``pilot.press``), into the name, judge, other models, margin,
samples (an edit that keeps the plan line shown: 100, 10, 105, ...) and arms fields. CPU is the
main thread's (``time.thread_time``: the app, not the simulator serving it).

The baseline is the same dialog with Textual's ``Input`` in place of ``FieldInput`` and
``Static.update`` in place of ``show_text`` (what the dialog used before), run alternately with
it in the same process. The goal: fewer CPU-ms per key than the baseline (a ratio below 1), and
no more per open.

Run: ``.venv/bin/python tests/bench/bench_bakeoff_dialog.py [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FIELDS: list[tuple[str, list[str]]] = [
    ("bn-name", list("abcdefghijklmnopqrst")),
    ("bn-judge", list("gpt-4o-mini-judge")),
    ("bn-other", ["space" if c == " " else c for c in "foo/bar, baz/qux"]),
    ("bn-margin", list("0.0512345")),
    ("bn-samples", ["backspace", "5"] * 5),
    ("bn-arms", ["space" if c == " " else c for c in "model=x; label=y"]),
]


def _textuals_widgets() -> Any:
    """The dialog as it was: Textual's Input, and Static.update for every note."""
    from rich.text import Text
    from textual.widgets import Input, Static

    from tui.screens.bakeoffs import new_dialog

    def update(static: Static, text: str) -> None:
        static.update(Text(text))

    saved = (new_dialog.FieldInput, new_dialog.show_text)
    new_dialog.FieldInput, new_dialog.show_text = Input, update  # type: ignore[misc, assignment]
    return saved


async def _measure(opens: int) -> tuple[float, float]:
    from simulator.errorbar.server import ErrorbarServer
    from tests.support.bakeoff_new import open_dialog, tab_to
    from tests.support.bakeoff_runs import on_runs, runs_app
    from tests.support.errorbar import COMPARISON, SLOW, queue_run
    from tests.support.waiting import wait_for
    from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen

    with ErrorbarServer(seed=7, speed=SLOW) as server:
        queue_run(server, COMPARISON)
        app = runs_app(server, admin=True)
        async with app.run_test(size=(160, 48)) as pilot:
            await on_runs(pilot)
            open_cpu = []
            for index in range(opens):
                started = time.thread_time()
                await open_dialog(pilot)
                await pilot.pause()
                open_cpu.append(time.thread_time() - started)
                if index < opens - 1:
                    await pilot.press("escape")
                    await wait_for(pilot, lambda: not isinstance(app.screen, BakeoffNewScreen), what="closed")
            key_cpu, keys = 0.0, 0
            for field_id, typed in FIELDS:
                await tab_to(pilot, field_id)
                if field_id == "bn-samples":
                    await pilot.press("end", "ctrl+u", "1", "0", "0")
                started = time.thread_time()
                for key in typed:
                    await pilot.press(key)
                key_cpu += time.thread_time() - started
                keys += len(typed)
    return statistics.median(open_cpu) * 1000, key_cpu / keys * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--opens", type=int, default=5)
    args = parser.parse_args()
    from tui.screens.bakeoffs import new_dialog

    ours: list[tuple[float, float]] = []
    base: list[tuple[float, float]] = []
    asyncio.run(_measure(1))  # imports and first-use caches, for neither side
    for round_ in range(args.rounds):
        for side in ("base", "ours") if round_ % 2 == 0 else ("ours", "base"):  # alternate which goes first
            if side == "ours":
                ours.append(asyncio.run(_measure(args.opens)))
                continue
            saved = _textuals_widgets()
            base.append(asyncio.run(_measure(args.opens)))
            new_dialog.FieldInput, new_dialog.show_text = saved  # type: ignore[misc]
    for name, index in (("per open", 0), ("per key", 1)):
        a = statistics.median(b[index] for b in base)
        b = statistics.median(o[index] for o in ours)
        print(f"{name}: {b:.1f} CPU-ms, baseline (Textual's Input, Static.update) {a:.1f} CPU-ms, ratio {b / a:.2f}")
    print("goal: per key below the baseline (ratio < 1), per open no more than it")


if __name__ == "__main__":
    main()
