"""Runs' "New bake-off" (``e``), by keys on the errorbar simulator: a comparison created in the
app is watched to DONE, opened in Compare (losses first into the Inspector, the gate both
ways); sent once (a double ``y``, a lost answer); a refused field said before sending; a 402
said."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_new import confirm_shown, fill, tab_to, typed
from tests.support.bakeoff_runs import on_runs, runs_app
from tests.support.errorbar import COMPARISON, queue_run, queue_that_ran_one_comparison
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from tui.screens.bakeoffs.screen import GATE_THRESHOLDS, BakeoffScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from tui.screens.inspector.screen import InspectorScreen
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)
RUBRIC = "Accurate, concise answers in the support tone."


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_that_ran_one_comparison() as server:
        yield server


def creates(server: ErrorbarServer) -> int:
    return server.requests.count("POST", "/v1/evals")


async def test_a_comparison_created_by_keys_is_watched_to_done_gated_both_ways_and_its_losses_inspected() -> None:
    queue_time = [0.0]
    with ErrorbarServer(seed=7, speed=1.0) as server:
        server.store.clock = lambda: queue_time[0]
        queue_run(server, COMPARISON)
        server.requests.clear()
        app = runs_app(server, admin=True)
        async with app.run_test(size=SIZE) as pilot:
            await on_runs(pilot)
            await fill(
                pilot,
                name="sonnet against llama",
                rubric=RUBRIC,
                baseline="meta-llama/Llama-3.1-8B-Instruct",
                candidates=["anthropic/claude-sonnet-4"],
                samples="60",
            )
            confirm = await confirm_shown(pilot)
            body = confirm.query_one("#confirm-body").render()
            await pilot.press("y")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None,
                what="the watch on the new run",
            )
            watch = app.screen
            run_id = watch.run.id
            queue_time[0] = 1e6  # the run's whole time has passed
            await wait_for(
                pilot,
                lambda: "DONE: the bake-off finished" in watch.state_text.plain,
                timeout=10,
                what="the new run DONE",
            )
            await pilot.press("v")
            await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="Compare's Bake-offs view")
            view = app.screen
            await wait_for(
                pilot,
                lambda: view.run is not None and view.run.id == run_id and bool(view.rows),
                what="the new run's samples",
            )
            words = {}
            for _ in GATE_THRESHOLDS:
                threshold = view.threshold
                await wait_for(
                    pilot,
                    lambda threshold=threshold: (
                        f"min win rate {threshold:.2f}" in view.detail_text.plain and view.gate is not None
                    ),
                    what=f"the gate at {threshold}",
                )
                words[threshold] = "gate PASS" in view.detail_text.plain
                await pilot.press("t")
            assert words[GATE_THRESHOLDS[0]] is True and words[GATE_THRESHOLDS[-1]] is False
            assert view.rows[0].outcome == "loss"
            await pilot.press("tab", "tab", "enter")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, InspectorScreen) and app.screen.foreign is not None,
                what="the first loss in the Inspector",
            )
            assert dict(app.screen.foreign.origin)["outcome"].startswith("loss")
    assert creates(server) == 1
    # 60 samples: the baseline and the candidate each answer every one; two judge calls per pair
    assert "120 generations and 120 judge calls, paid from the workspace's wallet" in str(body)
    assert "anthropic/claude-sonnet-4" in str(body)


async def test_a_double_y_queues_one_run(queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        await fill(
            pilot,
            name="twice pressed",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            samples="20",
        )
        await confirm_shown(pilot)
        await pilot.press("y", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch")
        await pilot.press("escape", "e")
        await pilot.pause()
    assert creates(queue) == 1


async def test_a_lost_answer_queues_one_run_and_the_watch_opens_on_it(queue: ErrorbarServer) -> None:
    queue.lose_next_answer("POST", "/v1/evals")
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        await fill(
            pilot,
            name="answer lost",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v2"],
            samples="20",
        )
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None, what="the watch"
        )
        assert app.screen.run.name == "answer lost"
        assert any("its answer was lost; found in the list" in m for m in said(app))
    assert creates(queue) == 1


async def test_a_refused_field_is_said_in_the_dialog_and_nothing_is_sent(queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="too short rubric",
            rubric="short",
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            samples="4",
        )
        error = dialog.query_one("#bn-error")
        await wait_for(pilot, lambda: "rubric" in str(error.render()), what="the refusal")
        assert "10 to 2000 characters" in str(error.render()) and "nothing was sent" in str(error.render())
        under_rubric = dialog.query_one("#bn-err-rubric")
        assert "10 to 2000 characters" in str(under_rubric.render())
        await tab_to(pilot, "bn-rubric", back=True)
        await pilot.press("end", *typed(" for support"), "enter")
        await wait_for(pilot, lambda: "sample_count" in str(error.render()), what="the sample count refused")
        assert "sample_count" in str(dialog.query_one("#bn-err-samples").render())
        assert str(under_rubric.render()) == ""
        assert isinstance(app.screen, BakeoffNewScreen)
        assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)
    assert creates(queue) == 0


async def test_a_workspace_that_cannot_pay_is_told_so(queue: ErrorbarServer) -> None:
    # The simulator answers 402 only to screening (a plain run with no balance ends in ERROR
    # part-way), so the queue's documented 402 is injected on the create.
    queue.fail_next("POST", "/v1/evals", 402, "Insufficient balance: top up the wallet.")
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        await fill(
            pilot,
            name="no money",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            samples="20",
        )
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: any("was not queued" in m for m in said(app)), what="the 402 said")
        message = next(m for m in said(app) if "was not queued" in m)
        assert "balance cannot pay" in message
        assert not isinstance(app.screen, BakeoffWatchScreen)
    assert creates(queue) == 1


async def test_without_errorbar_e_is_not_offered(queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)
    app.ctx.errorbar = None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: type(app.screen).__name__ == "RunsScreen", what="Runs")
        await pilot.press("e")
        await pilot.pause()
        assert app.screen.check_action("new_bakeoff", ()) is False
        assert not isinstance(app.screen, BakeoffNewScreen)
    assert creates(queue) == 0
