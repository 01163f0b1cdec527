"""Seed 002's leftovers in the TUI (issue 31, item 2), by keys against the Blobfish simulator
over HTTP: a run's full-suite command shown and copied with ``y``; a ``run_in_progress`` on
another benchmark followed on that benchmark; a sandbox task's wait left without losing it."""

from __future__ import annotations

from api_client.blobfish.benchmarks import BenchmarkClient
from simulator.blobfish.server import BlobfishServer
from tests.support.bench import SLUG
from tests.support.bench_screens import PacedClock, bench_app, frame_text, on_runs_with_bench, start_by_keys
from tests.support.blobfish import RecordingTransport
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.runs.bench.watch import BenchWatchScreen
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)
COMMAND = f"harbor run --dataset {SLUG} --model xai/grok-4"


async def watching(pilot, app: BlahApp) -> BenchWatchScreen:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: isinstance(app.screen, BenchWatchScreen), what="the benchmark watch")
    assert isinstance(app.screen, BenchWatchScreen)
    return app.screen


async def test_the_full_suite_command_is_shown_and_y_copies_it(clock: PacedClock, bench: BenchmarkClient) -> None:
    app = bench_app(bench)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, suite_moves=-1)  # the sandbox task: its record carries the command
        single = await watching(pilot, app)
        await wait_for(pilot, lambda: COMMAND in frame_text(app), what="the command on the single run")
        await pilot.press("y")
        assert app.clipboard == COMMAND
        await pilot.press("escape")
        await on_runs_with_bench(pilot)
        await start_by_keys(pilot, max_tasks="1")  # a suite: shown from the same model's sandbox run
        suite = await watching(pilot, app)
        assert suite is not single and suite.run_id.startswith("bmrs_")
        await wait_for(pilot, lambda: COMMAND in frame_text(app), what="the command on the suite run")
        assert f"from sandbox run {single.run_id}" in frame_text(app)


async def _start_on(pilot, app: BlahApp, slug: str) -> None:  # type: ignore[no-untyped-def]
    """``b``, the slug typed over the one offered, provider and model, Enter, ``y``."""
    from tui.screens.runs.bench.start_dialog import BenchStartScreen

    await pilot.press("b")
    await wait_for(pilot, lambda: isinstance(app.screen, BenchStartScreen), what="the start dialog")
    await pilot.press(*["backspace"] * 40, *slug, "tab", *"xai", "tab", *"grok-4", "enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
    await pilot.press("y")


async def test_run_in_progress_on_another_benchmark_is_offered_and_followed_there(
    clock: PacedClock, bench: BenchmarkClient
) -> None:
    app = bench_app(bench)
    clock.hold_at = 1
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        await _start_on(pilot, app, "taxbench-50")
        first = await watching(pilot, app)
        await pilot.press("escape")
        await on_runs_with_bench(pilot)
        await _start_on(pilot, app, SLUG)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ConfirmScreen) and "in progress" in frame_text(app),
            what="the offer to follow",
        )
        assert first.run_id in frame_text(app) and "taxbench-50" in frame_text(app)
        await pilot.press("y")
        followed = await watching(pilot, app)
        assert followed is not first and followed.run_id == first.run_id and followed.slug == "taxbench-50"
        await wait_for(pilot, lambda: followed.polls > 0, what="the running suite read")
        clock.hold_at = None


async def test_runs_lists_the_benchmarks_run_before_and_the_demos(clock: PacedClock, bench: BenchmarkClient) -> None:
    """A benchmark run in an earlier session, and those the session was told of, are listed."""
    from application.runs.bench.known import remember_slug

    remember_slug("taxbench-50", "run")
    app = bench_app(bench)
    app.ctx.bench_slugs = ("shellbench-20",)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs_with_bench(pilot)
        summary = frame_text(app)
        assert all(slug in summary for slug in (SLUG, "taxbench-50", "shellbench-20")), summary


class HeldPost(RecordingTransport):
    """The sandbox task's POST waits until the test lets it through (four minutes, in short)."""

    def __init__(self) -> None:
        super().__init__()
        import asyncio

        self.release = asyncio.Event()

    async def handle_async_request(self, request):  # type: ignore[no-untyped-def]
        if request.method == "POST" and request.url.path.endswith("/runs"):
            await self.release.wait()
        return await super().handle_async_request(request)


async def test_the_sandbox_tasks_wait_can_be_left_and_the_run_is_kept(
    clock: PacedClock, server: BlobfishServer
) -> None:
    from tui.screens.runs.screen import RunsScreen

    held = HeldPost()
    async with BenchmarkClient(server.base_url, server.account_key, transport=held) as client:
        app = bench_app(client)
        async with app.run_test(size=SIZE) as pilot:
            await on_runs_with_bench(pilot)
            await start_by_keys(pilot, suite_moves=-1)  # the sandbox task
            await wait_for(
                pilot,
                lambda: "has no cancel" in " ".join(frame_text(app).split()),
                what="the wait said, and that it can be left",
            )
            await pilot.press("5")  # the person goes elsewhere (Chatroom)
            await wait_for(pilot, lambda: not isinstance(app.screen, RunsScreen), what="another area")
            elsewhere = app.screen
            held.release.set()
            await wait_for(pilot, lambda: any("graded" in m for m in said(app)), what="the answer")
            assert app.screen is elsewhere  # nothing pushed over what the person does now
            await pilot.press("3")
            runs = await on_runs_with_bench(pilot)
            await wait_for(pilot, lambda: any(r.kind == "task" for r in runs.bench.rows), what="the run listed")
            task = next(r for r in runs.bench.rows if r.kind == "task")
            assert task.run_id.startswith("bmr_") and task.run_id in frame_text(app)
