"""The benchmark start form as a new user met it (issue 31): focus on the first field, the
chosen suite readable without colour, ``max_steps`` asked and sent, and the watch's ETA said
once ("ETA ETA after two graded tasks" before)."""

from __future__ import annotations

import json

from textual.widgets import Input

from api_client.blobfish.benchmarks import BenchmarkClient
from tests.support.bench import SLUG
from tests.support.bench_screens import PacedClock, bench_app, frame_text, on_runs_with_bench, start_by_keys
from tests.support.blobfish import RecordingTransport
from tests.support.waiting import wait_for
from tui.screens.runs.bench.start_dialog import BenchStartScreen
from tui.screens.runs.bench.watch import BenchWatchScreen
from widgets.bars import ProgressLine

SIZE = (160, 48)


def posted(transport: RecordingTransport) -> list[dict[str, object]]:
    return [json.loads(body) for method, path, _, body in transport.sent if method == "POST" and path.endswith("/runs")]


async def test_b_opens_the_form_on_its_first_field(clock: PacedClock, bench: BenchmarkClient) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")
        focused = app.focused
        assert isinstance(focused, Input) and focused.id == "bs-slug"


async def test_the_chosen_suite_is_marked_without_colour(clock: PacedClock, bench: BenchmarkClient) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")

        def marks() -> dict[str, str]:
            lines = frame_text(app).splitlines()
            found = {}
            for suite in ("none:", "sample:", "full:"):
                line = next(line for line in lines if suite in line)
                found[suite] = line.split(suite)[0].strip()[-1]
            return found

        first = marks()
        assert first["sample:"] != first["none:"] and first["none:"] == first["full:"]
        await pilot.press("tab", "tab", "tab", "down", "enter")  # to the suite, then full
        await wait_for(pilot, lambda: marks()["full:"] == first["sample:"], what="full marked")
        assert marks()["sample:"] == first["none:"]


async def test_max_steps_is_asked_checked_and_sent(
    clock: PacedClock, bench: BenchmarkClient, transport: RecordingTransport
) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")
        await pilot.press("tab", *"xai", "tab", *"grok-4", "tab", "tab", "tab", *"41", "enter")
        await wait_for(pilot, lambda: "max steps is 1-40" in frame_text(app), what="the range said")
        assert posted(transport) == []
        await pilot.press("backspace", "backspace", *"7", "enter", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, BenchWatchScreen), what="the watch")
        assert [body.get("max_steps") for body in posted(transport)] == [7]


async def test_the_eta_is_said_once(clock: PacedClock, bench: BenchmarkClient) -> None:
    app = bench_app(bench)
    clock.hold_at = 1
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, BenchWatchScreen), what="the watch")
        progress = app.screen.query_one("#bw-progress", ProgressLine)
        await wait_for(pilot, lambda: "ETA" in progress.label(), what="the progress line")
        assert progress.label().count("ETA") == 1, progress.label()
        assert "ETA ETA" not in frame_text(app)
        clock.hold_at = None
    assert SLUG
