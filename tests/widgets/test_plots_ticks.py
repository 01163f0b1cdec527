"""Time labels of ``TimeSeriesPlot``: the same on every run, at every width.

plotext puts ticks given to ``xticks`` through a ``set``, so the order it places their labels
in follows the per-process string hash seed; where they did not all fit, which labels a
frame showed changed from run to run (the Health and Logs snapshots at 80x24 were skipped
for it). The plot now asks for only as many labels as fit, so every one is drawn.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from widgets.plots import time_tick_count

ROOT = Path(__file__).resolve().parents[2]
START_MS = 1_780_131_600_000  # 09:00:00 UTC
STEP_MS = 300_000
POINTS = 72  # six hours of 5-minute checks: labels within one day sort as text
NEWEST = datetime.fromtimestamp((START_MS + (POINTS - 1) * STEP_MS) / 1000, tz=UTC).strftime("%H:%M:%S")

# Prints the x-label line of one plot at widths from 24 to 99 columns.
SCRIPT = f"""
import asyncio
from datetime import UTC
from textual.app import App, ComposeResult
from widgets.plots import TimeSeriesPlot

XS = [{START_MS} + i * {STEP_MS} for i in range({POINTS})]
YS = [None if i % 20 == 7 else float(i % 7) * 1000.5 for i in range({POINTS})]

class Plots(App[None]):
    def compose(self) -> ComposeResult:
        yield TimeSeriesPlot("latency", XS, YS, y_label="ms", tz=UTC, id="plot")

async def main() -> None:
    app = Plots()
    async with app.run_test(size=(24, 12)) as pilot:
        for width in range(24, 100, 3):
            await pilot.resize_terminal(width, 12)
            await pilot.pause()
            # the frame as drawn (the plot fills the screen): its x-label row, without drawing again
            frame = ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]
            print(width, "|", frame[-2].rstrip())

asyncio.run(main())
"""


@functools.cache  # one fresh Python a seed, shared by the tests below
def _label_lines(seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


@pytest.mark.slow  # ~15 s: a fresh Python per hash seed
def test_time_labels_are_the_same_whatever_the_hash_seed() -> None:
    first, second, third = (_label_lines(seed) for seed in ("1", "2", "3"))
    assert len(first) == 26
    assert first == second == third


def test_time_labels_are_in_order_and_the_newest_is_always_shown() -> None:
    for line in _label_lines("1"):
        width, labels = line.split(" | ")
        times = labels.split()
        assert times, f"no time label at width {width}"
        assert times[-1] == NEWEST, f"width {width}: {labels!r}"
        assert times == sorted(set(times)), f"width {width}: labels out of time order: {labels!r}"


def test_tick_count_leaves_about_two_label_widths_between_ticks() -> None:
    assert time_tick_count(80, 8, 7) == 5  # wide: the usual five
    assert time_tick_count(40, 8, 7) == 3
    assert time_tick_count(30, 8, 7) == 2
    assert time_tick_count(12, 8, 7) == 1  # too narrow for two: the newest alone
    for width in range(10, 200):
        count = time_tick_count(width, 8, 6)
        canvas = width - 6 - 2
        assert 1 <= count <= 5
        assert count == 1 or (canvas - 1) / (count - 1) >= 15
        assert count == 5 or (canvas - 1) / count < 15  # one more would not fit


async def test_a_series_over_two_days_labels_its_ticks_with_the_date() -> None:
    """48 hours of checks: clock times alone would read 09:00 ... 08:57 ... 08:55."""
    from textual.app import App, ComposeResult

    from widgets.plots import TimeSeriesPlot

    xs = [START_MS + i * STEP_MS for i in range(576)]  # 48 h of 5-minute checks
    ys = [1.0] * len(xs)

    class Plots(App[None]):
        def compose(self) -> ComposeResult:
            yield TimeSeriesPlot("check ok", xs, ys, tz=UTC, id="plot")

    app = Plots()
    async with app.run_test(size=(100, 14)) as pilot:
        await pilot.pause()
        lines = app.query_one("#plot", TimeSeriesPlot)._plot.render().plain.splitlines()
        labels = next(line for line in reversed(lines) if ":" in line)
    first = datetime.fromtimestamp(START_MS / 1000, tz=UTC).strftime("%m-%d %H:%M")
    last = datetime.fromtimestamp(xs[-1] / 1000, tz=UTC).strftime("%m-%d %H:%M")
    assert first in labels and last in labels, labels
