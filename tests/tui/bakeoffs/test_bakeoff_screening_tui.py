"""Screening in Runs (3), by keys, on the errorbar simulator: ``s`` on a bake-off row asks first,
sends once, watches; the end rings the bell and says the recommendation; ``v`` shows the
screening (incumbent, per candidate similarity and money, the recommendation); ``b`` opens the
New bake-off dialog prefilled with the recommended model, and Enter, ``y`` queue it. Also:
402 said in a sentence with nothing queued, a double ``s`` sending once, "keep" with nothing to
follow, and a plain bake-off's end announced too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_runs import go_to_row, runs_app
from tests.support.errorbar import COMPARISON, SLOW, queue_run
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from tui.screens.bakeoffs.screening_view import ScreeningScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from widgets.check_list import CheckList
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


def _bells(app: BlahApp) -> list[int]:
    rung: list[int] = []
    app.bell = lambda: rung.append(1)  # type: ignore[method-assign]
    return rung


async def _screen_by_keys(pilot: Pilot[Any], queue: ErrorbarServer, existing: str) -> BakeoffWatchScreen:
    """On ``existing``'s row, ``s``, then ``y`` in the confirmation; the watch of the new run."""
    await go_to_row(pilot, existing)
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), what="the confirmation")
    body = str(pilot.app.screen.query_one("#confirm-body").render())
    assert "incumbent is your dominant logged model" in body and "spends the workspace's money" in body
    await pilot.press("y")
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, BakeoffWatchScreen) and pilot.app.screen.run_id != existing,
        what="the screening's watch",
    )
    assert isinstance(pilot.app.screen, BakeoffWatchScreen)
    return pilot.app.screen


async def test_s_screens_then_v_shows_it_and_b_bakes_off_the_recommendation(queue: ErrorbarServer) -> None:
    existing = queue_run(queue, COMPARISON)
    queue.requests.clear()
    app = runs_app(queue, admin=True)
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        watch = await _screen_by_keys(pilot, queue, existing["id"])
        creates = [r for r in queue.requests.records() if r.method == "POST" and r.path == "/v1/evals"]
        assert len(creates) == 1
        screening_id = watch.run_id
        assert queue.store.get(screening_id).spec["screening"] is True
        queue.finish(screening_id)  # the queue's time passes; no key is pressed
        await wait_for(
            pilot,
            lambda: "DONE: the screening finished; v opens its recommendation." in watch.state_text.plain,
            timeout=10,
            what="the screening DONE",
        )
        await wait_for(pilot, lambda: any("finished: switch to" in m for m in said(app)), what="the announcement")
        assert rung == [1]
        screening = queue.store.get(screening_id).results["screening"]  # type: ignore[index]
        best = next(c for c in screening["per_candidate"] if c["model"] == screening["recommendation"]["model"])
        sim = best["similarity"]
        sentence = (
            f"switch to {best['model']}: {round(best['est_savings_pct'])}% cheaper, answers match "
            f"{round(sim['match_rate'] * 100)}% [{round(sim['ci95'][0] * 100)}-{round(sim['ci95'][1] * 100)}]"
        )
        assert any(m.endswith(sentence) for m in said(app))

        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
        view = app.screen
        assert isinstance(view, ScreeningScreen)
        assert f"Recommendation: {sentence}" in view.verdict_text.plain
        table = view.query_one("#scr-table")
        assert table.row_count == len(screening["per_candidate"])
        first = [str(getattr(c, "plain", c)) for c in table.get_row("0")]
        assert first[0] == f"→ {best['model']}" and first[1:4] == [
            str(sim["matched"]),
            str(sim["differed"]),
            str(sim["unparsed"]),
        ]
        assert first[5] == f"${best['est_usd_per_request']:.6f}" and first[6] == f"{best['est_savings_pct']:+.1f}%"
        incumbent = str(view.query_one("#scr-incumbent").render())
        assert "incumbent     Qwen/Qwen3-32B" in incumbent and "token shape   prompts" in incumbent

        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the prefilled dialog")
        dialog = app.screen
        assert dialog.query_one("#bn-baseline").value == "Qwen/Qwen3-32B"
        assert list(dialog.query_one("#bn-candidates", CheckList).selected) == [best["model"]]
        assert dialog.query_one("#bn-name").value.endswith("(from screening)")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the bake-off's confirmation")
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, BakeoffWatchScreen) and app.screen.run_id not in (existing["id"], screening_id)
            ),
            what="the new bake-off's watch",
        )
        follow_up = queue.store.get(app.screen.run_id).spec
        assert follow_up["baseline_model"] == "Qwen/Qwen3-32B"
        assert [arm["model"] for arm in follow_up["arms"]] == [best["model"]]


async def test_402_and_422_are_sentences_and_nothing_is_queued(queue: ErrorbarServer) -> None:
    existing = queue_run(queue, COMPARISON)
    queue.set_balance(0)
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        for first_words, words in (
            ("Not screened:", ("balance cannot pay for this: top up the wallet; nothing was queued")),
            ("Nothing to screen:", "the workspace has no logged traffic to sample"),
        ):
            await go_to_row(pilot, existing["id"])
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
            await pilot.press("y")
            await wait_for(
                pilot,
                lambda first_words=first_words: any(m.startswith(first_words) for m in said(app)),
                what=first_words,
            )
            assert words in next(m for m in said(app) if m.startswith(first_words))
            assert not isinstance(app.screen, BakeoffWatchScreen)
            queue.set_balance(100)
            queue.clear_traffic()
    assert queue.store.ids() == [existing["id"]]


async def test_a_members_key_is_told_the_role_and_which_key_was_used(queue: ErrorbarServer) -> None:
    from api_client.errorbar.client import ErrorbarClient

    existing = queue_run(queue, COMPARISON)
    app = runs_app(queue)
    app.ctx.errorbar = ErrorbarClient(queue.base_url, api_key=queue.member_key, key_source="$ERRORBAR_API_KEY")
    async with app.run_test(size=SIZE) as pilot:
        await go_to_row(pilot, existing["id"])
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(
            pilot, lambda: any(m.startswith("Not screened (a role problem)") for m in said(app)), what="the 403"
        )
        message = next(m for m in said(app) if m.startswith("Not screened (a role problem)"))
    assert "OWNER or ADMIN" in message and "the key used ($ERRORBAR_API_KEY) is not one" in message
    assert "the key's user is a member" in message and queue.member_key not in message
    assert queue.store.ids() == [existing["id"]]


async def test_a_lost_answer_is_found_in_the_list_and_not_resent(queue: ErrorbarServer) -> None:
    existing = queue_run(queue, COMPARISON)
    queue.requests.clear()
    queue.lose_next_answer("POST", "/v1/evals")
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await go_to_row(pilot, existing["id"])
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch of the found run")
        assert any("its answer was lost; found in the list" in m for m in said(app))
    assert sum(1 for r in queue.requests.records() if r.method == "POST") == 1
    assert len(queue.store.ids()) == 2


async def test_a_double_s_asks_once_and_sends_once(queue: ErrorbarServer) -> None:
    existing = queue_run(queue, COMPARISON)
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        runs = await go_to_row(pilot, existing["id"])
        await pilot.press("s", "s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch")
        await pilot.pause(0.3)
        assert runs.screening.sent == 1 and not runs.screening.busy
        assert sum(isinstance(s, ConfirmScreen) for s in app.screen_stack) == 0
    assert len(queue.store.ids()) == 2  # the existing run and one screening


async def test_keep_has_nothing_to_bake_off(queue: ErrorbarServer) -> None:
    keep = queue_run(queue, {"screening": True, "candidate_models": ["anthropic/claude-sonnet-4"], "sample_count": 8})
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await go_to_row(pilot, keep["id"])
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, BakeoffWatchScreen)
                and app.screen.run is not None
                and app.screen.run.status == "DONE"
            ),
            what="the watch",
        )
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ScreeningScreen), what="the screening view")
        assert "keep the incumbent (Qwen/Qwen3-32B)" in app.screen.verdict_text.plain
        assert app.screen.query_one("#scr-verdict").has_class("keep")
        await pilot.press("b")
        await wait_for(
            pilot,
            lambda: any(m.startswith("Nothing to bake off: keep") for m in said(app)),
            what="b saying there is nothing to follow",
        )
        assert isinstance(app.screen, ScreeningScreen)


async def test_a_watched_bakeoff_rings_once_when_it_ends(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    app = runs_app(queue)
    rung = _bells(app)
    async with app.run_test(size=SIZE) as pilot:
        await go_to_row(pilot, run["id"])
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffWatchScreen), what="the watch")
        queue.finish(run["id"])
        await wait_for(
            pilot, lambda: any("finished; v opens its results" in m for m in said(app)), what="the end announced"
        )
        await pilot.press("escape")
        await pilot.press("r")  # the list sees the same end: not announced again
        await wait_for(
            pilot, lambda: app.screen.bakeoffs.row(f"errorbar:{run['id']}").run.status == "DONE", what="the list DONE"
        )
    assert rung == [1]
    assert sum("finished; v opens its results" in m for m in said(app)) == 1
