"""Bake-offs in Runs (3) and their watch, driven by keys on the errorbar simulator: the row
with its chip, Enter watching a running one to DONE with an ETA and opening its results in
Compare's Bake-offs view on that run, a failed one, cancelling once, blah.dev-only keys, hostile
names inert, and nothing of errorbar when it is not configured."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import go_to_row, on_runs, runs_app, watch_by_keys
from tests.support.errorbar import COMPARISON, CRITERION, SLOW, queue_run
from tests.support.hostile_payloads import HOSTILE, assert_inert
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.screen import BakeoffScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


def _row_text(screen, key: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(getattr(value, "plain", value)) for value in screen.table.get_row(key)]


async def test_bakeoffs_are_listed_with_the_errorbar_chip(queue: ErrorbarServer) -> None:
    done = queue_run(queue, COMPARISON)
    running = queue_run(queue, CRITERION, finish=False)
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await on_runs(pilot)
        finished = _row_text(screen, f"errorbar:{done['id']}")
        pending = _row_text(screen, f"errorbar:{running['id']}")
        summary = str(screen.query_one("#runs-summary").render())
    assert finished[0].strip() == "errorbar"
    assert finished[1] == f"{done['id']} {COMPARISON['name'][:28]}… · comparison"  # a long name is cut
    assert finished[2:4] == ["DONE", "100%"]
    assert finished[4] == f"2 vs {COMPARISON['baseline_model']}"
    assert pending[0].strip() == "errorbar" and "criterion" in pending[1] and pending[2] == "PENDING"
    assert "errorbar: 2 bake-offs, 1 in flight" in summary


async def test_the_list_refreshes_while_a_bakeoff_runs() -> None:
    queue_time = [0.0]
    with ErrorbarServer(seed=7, speed=1.0) as server:
        server.store.clock = lambda: queue_time[0]
        run = queue_run(server, {**COMPARISON, "sample_count": 12}, finish=False)
        app = runs_app(server)
        async with app.run_test(size=SIZE) as pilot:
            screen = await on_runs(pilot)
            key = f"errorbar:{run['id']}"
            assert _row_text(screen, key)[2] == "PENDING"
            queue_time[0] = 1e6  # the run's whole time has passed: no key is pressed
            await wait_for(
                pilot,
                lambda: _row_text(screen, key)[2:4] == ["DONE", "100%"],
                timeout=10,
                what="the row refreshed to DONE",
            )


async def test_enter_watches_a_running_bakeoff_to_done_with_an_eta_then_v_opens_its_results() -> None:
    body = {**COMPARISON, "sample_count": 12, "candidate_models": ["you/tiny-sft-v3"]}
    queue_time = [0.0]
    with ErrorbarServer(seed=7, speed=1.0) as server:
        server.store.clock = lambda: queue_time[0]
        run = queue_run(server, body, finish=False)
        newer = queue_run(server, COMPARISON)  # listed first: the view must open on the watched run
        run_s = 12 * 4 * 0.1  # 12 samples x (2 answers + 2 judge readings) x 0.1 s (simulator's pace)
        app = runs_app(server)
        seen: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            watch = await watch_by_keys(pilot, run["id"])

            def shown() -> str:
                text = watch.state_text.plain
                if not seen or seen[-1] != text:
                    seen.append(text)
                return text

            for fifth in range(1, 5):
                queue_time[0] = 1.0 + run_s * fifth / 5
                await wait_for(
                    pilot, lambda fifth=fifth: f"RUNNING · {fifth * 20}% done" in shown(), what=f"{fifth * 20}% done"
                )
                bar = watch.query_one("#bkw-progress")
                assert bar.done == fifth * 200 and bar.total == 1000
            await wait_for(
                pilot,
                lambda: "ETA " in shown() and "ETA: estimating" not in shown(),
                what="an ETA from the progress over time",
            )
            assert "80% · ETA" in watch.query_one("#bkw-progress").label()
            queue_time[0] = 1.0 + run_s + 1.0
            await wait_for(pilot, lambda: "DONE: the bake-off finished" in shown(), what="the run DONE")
            assert "ETA" not in seen[-1] and "DONE · 100%" in seen[-1]
            await pilot.press("v")
            await wait_for(pilot, lambda: isinstance(app.screen, BakeoffScreen), what="Compare's Bake-offs view")
            view = app.screen
            await wait_for(
                pilot,
                lambda: view.run is not None and bool(view.rows) and "win rate" in view.detail_text.plain,
                what="the run's results",
            )
            assert view.run.id == run["id"] != newer["id"]
            assert view.query_one("#bakeoff-runs").current_key == run["id"]
    assert "ETA: estimating" in "".join(seen)


async def test_a_failed_bakeoff_says_so_and_shows_no_result(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    queue.fail_run(run["id"], "Generation failed: the provider returned errors.")
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        watch = await watch_by_keys(pilot, run["id"])
        await wait_for(pilot, lambda: "FAILED" in watch.state_text.plain, what="the final status")
        text = watch.state_text.plain
        await pilot.press("v")
        await wait_for(pilot, lambda: any("No results" in m for m in said(app)), what="v saying there are none")
        assert isinstance(app.screen, BakeoffWatchScreen)
    assert "FAILED: the bake-off ended in ERROR (Generation failed: the provider returned errors.)" in text
    assert "A failed run has no results." in text
    assert "win rate" not in text and "ETA" not in text
    assert any("a run that did not finish DONE has no results" in m for m in said(app))


async def test_cancel_from_the_watch_is_confirmed_and_sent_once(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        watch = await watch_by_keys(pilot, run["id"])
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        assert queue.requests.count("POST", "/cancel") == 0
        await pilot.press("y", "c", "c")
        await wait_for(
            pilot, lambda: "CANCELLED: the bake-off was cancelled" in watch.state_text.plain, what="the run cancelled"
        )
        await pilot.press("c")
        await wait_for(
            pilot,
            lambda: sum("sent once" in m or "Only a PENDING" in m for m in said(app)) >= 3,
            what="the later presses answered",
        )
        await app.workers.wait_for_complete()
    assert queue.requests.count("POST", "/cancel") == 1
    assert watch.cancel.sent == 1
    assert "A cancelled run has no results." in watch.state_text.plain


async def test_declining_the_cancel_sends_nothing(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        watch = await watch_by_keys(pilot, run["id"])
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is watch and not watch.cancel.busy, what="back on the watch")
    assert queue.requests.count("POST", "/cancel") == 0


async def test_blah_dev_only_keys_on_a_bakeoff_row_say_so(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await go_to_row(pilot, run["id"])
        await pilot.press("v", "R", "c")
        await wait_for(
            pilot, lambda: len([m for m in said(app) if "is for blah.dev runs" in m]) == 3, what="three answers"
        )
        assert app.screen is screen
    messages = [m for m in said(app) if "is for blah.dev runs" in m]
    assert [m.split(" is ")[0] for m in messages] == ["Run results", "Resume", "Cancel"]
    assert all("errorbar bake-off" in m for m in messages)
    assert queue.requests.count("POST", "/cancel") == 0


async def test_hostile_run_names_stay_inert(queue: ErrorbarServer) -> None:
    payload = "".join(text for _, text in HOSTILE[:6])[:60]
    run = queue_run(queue, {**COMPARISON, "name": "[bold red]x[/] " + payload}, finish=False)
    queue.fail_run(run["id"], "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 [link=x]y[/link]")
    app = runs_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await on_runs(pilot)
        assert "[bold red]x[/]" in _row_text(screen, f"errorbar:{run['id']}")[1]
        await pilot.pause()
        assert_inert(app.export_screenshot())
        watch = await watch_by_keys(pilot, run["id"])
        await wait_for(pilot, lambda: "FAILED" in watch.state_text.plain, what="the final status")
        assert "[link=x]y[/link]" in watch.state_text.plain
        await pilot.pause()
        assert_inert(app.export_screenshot())


async def test_the_watch_says_when_a_running_bakeoff_is_decided_and_offers_to_cancel(queue: ErrorbarServer) -> None:
    body = {
        **COMPARISON,
        "baseline_model": "meta-llama/Llama-3.1-8B-Instruct",
        "candidate_models": ["anthropic/claude-sonnet-4"],
        "sample_count": 200,
        "assertions": [],
    }
    run = queue_run(queue, body, finish=False)
    stored = queue.store.get(run["id"])
    queue.store.speed = 1.0
    stored.started = queue.store.clock() - 1.0 - stored.units * 0.1 * 0.6  # 60% of the way: RUNNING
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        watch = await watch_by_keys(pilot, run["id"])
        stored.frozen_ratio = queue.store.ratio(stored)  # it stays RUNNING at that point
        await wait_for(pilot, lambda: "decided at" in watch.state_text.plain, what="the decision")
        text = watch.state_text.plain
        assert "anthropic/claude-sonnet-4: decided at " in text or ": decided at " in text
        assert ": win (win rate" in text and "anytime-valid 95% interval" in text
        assert "c cancels the rest (confirmed, sent once)" in text
        assert queue.requests.count("POST", "/cancel") == 0  # offered, never sent unasked
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: "stopped early" in watch.state_text.plain, what="stopped early")
        await app.workers.wait_for_complete()
    assert queue.requests.count("POST", "/cancel") == 1
