"""Blobfish benchmark runs in Runs (3) and their watch, driven by keys against the Blobfish
simulator over HTTP: start a sample suite and watch it to the end with its ETA; the
interrupted and the rejected-credential suites; ``run_in_progress`` offering to follow; a
double key press and a lost answer each starting one run; a task's steps in the Inspector;
hostile task names and grader text inert; the provider key never on screen."""

from __future__ import annotations

import re

import pytest

from api_client.blahdev.client import BlahClient
from api_client.blobfish.benchmarks import BenchmarkClient
from simulator.blobfish import benchmarks as sim_bench
from simulator.blobfish.server import BlobfishServer
from simulator.server import SimulatorServer
from tests.support.bench import SLUG, BreakPolls
from tests.support.bench_screens import (
    PacedClock,
    bench_app,
    frame_text,
    on_runs_with_bench,
    pace_watch,
    start_by_keys,
)
from tests.support.blobfish import DropFirstAnswer, RecordingTransport
from tests.support.notify_log import said
from tests.support.quick_keys import type_text
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.leaderboard.publish import PublishBenchRunScreen
from tui.screens.runs.bench.watch import BenchWatchScreen
from widgets.bars import ProgressLine
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)
PROVIDER_KEY = "xai-" + "Zq9" * 12
REJECTED_KEY = "xai-reject-" + "Wv7" * 10


@pytest.fixture
def clock(server: BlobfishServer, monkeypatch: pytest.MonkeyPatch) -> PacedClock:
    """The simulator and every watch of this test on one paced fake clock; fresh benchmark state."""
    paced = PacedClock()
    server.benchmarks.reset()
    server.benchmarks.clock = paced.time
    pace_watch(monkeypatch, paced)
    monkeypatch.setenv("BENCH_PROVIDER_KEY", PROVIDER_KEY)
    monkeypatch.setenv("BENCH_REJECTED_KEY", REJECTED_KEY)
    return paced


def posts(transport: RecordingTransport) -> int:
    return sum(1 for method, path, *_ in transport.sent if method == "POST" and path.endswith("/runs"))


def frame(app: BlahApp) -> str:
    """What the screen shows (text), and the SVG a screenshot would save."""
    return frame_text(app) + app.export_screenshot()


async def watching(pilot, app: BlahApp) -> BenchWatchScreen:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: isinstance(app.screen, BenchWatchScreen), what="the benchmark watch")
    assert isinstance(app.screen, BenchWatchScreen)
    return app.screen


async def finished(pilot, screen: BenchWatchScreen) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: screen.poll_state == "finished", what="the run's end")


def state_line(screen: BenchWatchScreen) -> str:
    return str(screen.query_one("#bw-state").render())


async def test_start_a_sample_suite_by_keys_and_watch_it_to_completion_with_the_eta(
    clock: PacedClock, bench: BenchmarkClient, transport: RecordingTransport
) -> None:
    app = bench_app(bench)
    clock.hold_at = 4
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, key_env="BENCH_PROVIDER_KEY", confirm=("y", "y"))  # a double press
        await pilot.press("b")  # and a third, while the start is in flight or done
        screen = await watching(pilot, app)
        progress = screen.query_one("#bw-progress", ProgressLine)
        # Third poll: two tasks graded 20 s apart, eight to go: 8 x 20 s.
        await wait_for(pilot, lambda: len(clock.sleeps) == 3 and screen.polls >= 3, what="the third poll")
        assert progress.label() == "2/10 · 3.0 tasks/min · ETA 2m 40s"  # done/total, the rate, the ETA
        assert state_line(screen).startswith("running")
        clock.hold_at = None
        await finished(pilot, screen)
        assert posts(transport) == 1
        record = screen.record
        assert record is not None and record.status == "completed"
        assert len(screen.tasks()) == 10
        state = state_line(screen)
        assert "mean score" in state and "official suite no" in state and "self-run" in state
        assert progress.label().startswith("10/10")
        # Every task graded: score, strict pass and checks, in the table.
        table = screen.query_one("#bw-tasks")
        assert table.row_count == 10
        first = bench_first_task_row(screen)
        assert re.fullmatch(r"cb-001 .+ \d\.\d\d (yes|no) \d/\d", first)
        assert "credential request" in frame(app)
        assert PROVIDER_KEY not in frame(app)
        assert any("completed" in m for m in said(app))
        # Back on Runs, the run is listed with its Blobfish chip.
        await pilot.press("escape")
        runs = await on_runs_with_bench(pilot)
        await wait_for(
            pilot,
            lambda: any(r.run_id == record.run_id and r.status == "completed" for r in runs.bench.rows),
            what="the run in the list",
        )
        shown = frame(app)
        assert "Blobfish" in shown and record.run_id in shown and "blah.dev" not in shown.split("Blobfish", 1)[0][-5:]
        assert runs.bench.starter.sent == 1
        await pilot.press("enter")  # Enter on the Blobfish row watches it again
        again = await watching(pilot, app)
        assert again.run_id == record.run_id
        await finished(pilot, again)


async def test_runs_lists_both_platforms_each_row_with_its_chip(
    clock: PacedClock, bench: BenchmarkClient, sim: SimulatorServer
) -> None:
    started = await bench.start_suite(SLUG, provider="xai", model="grok-4", suite="sample", max_tasks=2)
    async with BlahClient(sim.base_url, api_key=sim.council_key) as client:
        app = bench_app(bench, client, model_id=sim.person_model_id)
        async with app.run_test(size=SIZE) as pilot:
            runs = await on_runs_with_bench(pilot)
            await wait_for(pilot, lambda: bool(runs.runs), what="the blah.dev runs")
            rows = frame_text(app).splitlines()
            blah = [line for line in rows if any(r.id in line for r in runs.runs)]
            blobfish = [line for line in rows if started.record.run_id in line]
            assert len(blah) == len(runs.runs) and all(line.lstrip().startswith("blah.dev") for line in blah)
            assert len(blobfish) == 1 and blobfish[0].lstrip().startswith("Blobfish")
            runs.table.move_to_key(runs.bench.rows[0].key)
            await pilot.press("R")  # resume is blah.dev's: said, nothing sent
            assert any("Resume is for blah.dev runs" in m for m in said(app))
            assert not isinstance(app.screen, ConfirmScreen)


def bench_first_task_row(screen: BenchWatchScreen) -> str:
    table = screen.query_one("#bw-tasks")
    return " ".join(str(c) for c in table.get_row_at(0))  # type: ignore[attr-defined]


async def test_an_interrupted_suite_is_final_and_never_a_score(
    clock: PacedClock, server: BlobfishServer, bench: BenchmarkClient
) -> None:
    server.benchmarks.die_after_tasks = 3
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot)
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        state = state_line(screen)
        assert state.startswith("interrupted")
        assert "not a score" in state and "3 task(s) graded" in state and "a new run is needed" in state
        assert "mean score" not in state and "running" not in state
        assert screen.query_one("#bw-tasks").row_count == 3
        assert screen.query_one("#bw-progress", ProgressLine).label().endswith("ETA none (interrupted)")
        polls = screen.polls
        await pilot.pause(0.5)
        assert screen.polls == polls  # final: nothing more is asked


async def test_a_rejected_credential_names_the_task_and_the_rest_not_attempted(
    clock: PacedClock, bench: BenchmarkClient
) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, key_env="BENCH_REJECTED_KEY")
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        state = state_line(screen)
        stopped_at = sim_bench.BENCHMARKS[SLUG][sim_bench.REJECT_AT_TASK][0]
        assert state.startswith("failed") and f"rejected on task {stopped_at}" in state
        assert f"remaining {10 - sim_bench.REJECT_AT_TASK} task(s) were not attempted" in state
        assert REJECTED_KEY not in frame(app) and "Wv7" not in frame(app)


async def test_run_in_progress_says_so_and_follows_the_running_suite(
    clock: PacedClock, bench: BenchmarkClient, transport: RecordingTransport
) -> None:
    running = await bench.start_suite(SLUG, provider="xai", model="grok-4", suite="full")
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ConfirmScreen) and "in progress" in frame(app),
            what="the offer to follow",
        )
        assert any("already in progress" in m and running.record.run_id in m for m in said(app))
        await pilot.press("y")
        screen = await watching(pilot, app)
        assert screen.run_id == running.record.run_id
        await wait_for(pilot, lambda: screen.polls > 0, what="the running suite read")
        assert posts(transport) == 2  # the first suite, and the refused second: nothing more


async def test_a_lost_answer_starts_one_run_and_watches_it(clock: PacedClock, server: BlobfishServer) -> None:
    lost = DropFirstAnswer()
    async with BenchmarkClient(server.base_url, server.account_key, transport=lost) as client:
        app = bench_app(client)
        async with app.run_test(size=SIZE) as pilot:
            await on_runs_with_bench(pilot)
            await start_by_keys(pilot, max_tasks="2")
            screen = await watching(pilot, app)
            await finished(pilot, screen)
            assert lost.dropped == 1 and posts(lost) == 1
            assert any("answer was lost" in m for m in said(app))
            assert screen.record is not None and screen.record.status == "completed"
            assert len(server.benchmarks.list_runs(server.store.account.name, SLUG)["suite_runs"]) == 1


async def test_a_tasks_steps_open_in_the_inspector_and_hostile_text_stays_inert(
    clock: PacedClock, bench: BenchmarkClient
) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, max_tasks="3")
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        await pilot.press("down", "down")  # cb-003: a hostile name, tool result and grader text
        detail = str(screen.query_one("#bw-detail").render())
        assert "[bold red]PWNED[/]" in detail and "[reverse]by me[/reverse]" in detail
        assert "\x1b" not in frame(app) and "\x07" not in frame(app)
        assert "valid 30 min after the task ran" in detail and "410" in detail
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.analysis is not None,
            what="the Inspector",
        )
        inspector = app.screen
        assert isinstance(inspector, InspectorScreen) and inspector.foreign is not None
        origin = dict(inspector.foreign.origin)
        assert origin["benchmark"] == SLUG and origin["task"].startswith("cb-003")
        assert "\x1b" not in frame(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: inspector.log_id.endswith("#2"), what="the next step")  # counted from 1


async def test_publish_is_for_a_completed_suite_run(
    clock: PacedClock, server: BlobfishServer, bench: BenchmarkClient
) -> None:
    server.benchmarks.die_after_tasks = 1
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot)
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        await pilot.press("P")
        assert any("Only a completed suite run can be published" in m for m in said(app))
        assert app.screen is screen


async def test_P_on_a_completed_suite_opens_the_leaderboards_publish_dialog(
    clock: PacedClock, bench: BenchmarkClient
) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, max_tasks="2")
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, PublishBenchRunScreen), what="the publish dialog")
        dialog = app.screen
        assert isinstance(dialog, PublishBenchRunScreen) and dialog.run_id == screen.run_id
        await wait_for(pilot, lambda: dialog.record is not None, what="the run's record")
        await type_text(pilot, "from the watch")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: dialog.published is not None, what="the publication")
        board = await bench.board(screen.slug)
        mine = [row for row in board.community_runs if row.mine]
        assert [(row.display_name, row.run_id) for row in mine] == [("from the watch", screen.run_id)]


async def test_the_sandbox_task_runs_inline_and_is_shown_as_one_task_not_a_suite_score(
    clock: PacedClock, bench: BenchmarkClient, transport: RecordingTransport
) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, suite_moves=-1)  # from sample up to none
        screen = await watching(pilot, app)
        await finished(pilot, screen)
        assert screen.run_id.startswith("bmr_")
        assert state_line(screen).startswith("completed · score") and "a single task, not a suite score" in state_line(
            screen
        )
        assert screen.query_one("#bw-tasks").row_count == 1
        assert posts(transport) == 1
        sent = next(body for method, path, _, body in transport.sent if method == "POST")
        assert b'"suite"' not in sent


async def test_failed_polls_are_said_and_retried_never_ending_the_watch_or_starting_again(
    clock: PacedClock, server: BlobfishServer
) -> None:
    chaos = BreakPolls(["503", "reset", "429"])
    clock.hold_at = 2  # the watch stays on the first failed poll while the test looks
    # One attempt per request: each fault reaches the watch instead of the client's own retries.
    async with BenchmarkClient(server.base_url, server.account_key, transport=chaos, max_attempts=1) as client:
        app = bench_app(client)
        async with app.run_test(size=SIZE) as pilot:
            await on_runs_with_bench(pilot)
            await start_by_keys(pilot, max_tasks="2")
            screen = await watching(pilot, app)
            message = screen.query_one("#bw-message")
            await wait_for(pilot, lambda: "couldn't poll" in str(message.render()), what="the failed poll said")
            assert "the run goes on" in str(message.render()) and screen.poll_state == "retrying"
            clock.hold_at = None
            await finished(pilot, screen)
            assert chaos.injected == ["503", "reset", "429"]
            assert screen.record is not None and screen.record.status == "completed"
            assert chaos.posts() == 1 and not message.display


async def test_runs_counts_one_benchmark_run_in_the_singular(clock: PacedClock, bench: BenchmarkClient) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, key_env="BENCH_PROVIDER_KEY")
        await finished(pilot, await watching(pilot, app))
        await pilot.press("escape")
        runs = await on_runs_with_bench(pilot)
        await wait_for(pilot, lambda: len(runs.bench.rows) == 1, what="the one benchmark run listed")
        await wait_for(
            pilot,
            lambda: "benchmark run" in str(runs.query_one("#runs-summary").render()),
            what="the Blobfish summary",
        )
        summary = str(runs.query_one("#runs-summary").render())
    assert "): 1 benchmark run, 0 in flight." in summary  # not "1 benchmark runs"
