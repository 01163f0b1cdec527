"""Compare's bake-off view (``o``) on the errorbar simulator, driven by keys: watch a running
bake-off to DONE, open its losses in the Inspector, gate it both ways, read a criterion run
whose rates match a hand computation, compare two finished runs; every figure on screen
recomputed from the simulator's samples; hostile text inert; no queue configured."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from application.bakeoffs.results import JudgeFigures, correction_note
from application.bakeoffs.samples import doubtful_reason
from diagnosis.loop import find_loop
from diagnosis.stats import rogan_gladen, wilson_interval
from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import COMPARISON, CRITERION, SLOW, get, queue_run
from tests.support.hostile_payloads import HOSTILE, assert_inert
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.screen import GATE_THRESHOLDS, NOT_CONFIGURED
from tui.screens.inspector.screen import InspectorScreen

SIZE = (160, 48)
STRONG: dict[str, Any] = {
    "name": "sonnet against llama",
    "rubric": "Accurate, concise answers in the support tone.",
    "baseline_model": "meta-llama/Llama-3.1-8B-Instruct",
    "candidate_models": ["anthropic/claude-sonnet-4"],
    "sample_count": 60,
    "max_output_tokens": 2048,
}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


def _samples(server: ErrorbarServer, run_id: str) -> list[dict[str, Any]]:
    answer = get(server, f"/v1/evals/{run_id}/samples")
    assert answer.status_code == 200
    return answer.json()


def _counts(samples: list[dict[str, Any]], arm: str) -> dict[str, Any]:
    rows = [c for s in samples for c in s["candidates"] if c["model"] == arm]
    count = {k: sum(1 for c in rows if c["outcome"] == k) for k in ("win", "tie", "loss", "failed")}
    both = [c["orderings"] for c in rows if None not in (c["orderings"]["ab"], c["orderings"]["ba"])]
    first = sum((o["ab"] == "baseline") + (o["ba"] == "candidate") for o in both)
    second = sum((o["ab"] == "candidate") + (o["ba"] == "baseline") for o in both)
    losses = [c for c in rows if c["outcome"] == "loss"]
    return {
        **count,
        "truncated": sum(1 for c in rows if c["truncated"]),
        "disagree": sum(1 for o in both if o["ab"] != o["ba"]),
        "read": len(both),
        "bias": (first - second) / (2 * len(both)) * 100,
        "losses": len(losses),
        "cut_losses": sum(1 for c in losses if c["truncated"]),
    }


async def test_watching_a_running_bakeoff_to_done() -> None:
    """The queue's time is moved by the test (a fifth of the run at a time); the view polls,
    shows each step's progress, an ETA once it has seen progress over time, then DONE."""
    body = {**COMPARISON, "sample_count": 12, "candidate_models": ["you/tiny-sft-v3"]}
    queue_time = [0.0]
    with ErrorbarServer(seed=7, speed=1.0) as server:
        server.store.clock = lambda: queue_time[0]
        run = queue_run(server, body, finish=False)
        run_s = 12 * 4 * 0.1  # 12 samples x (2 answers + 2 judge readings) x 0.1 s (simulator's pace)
        app = bakeoff_app(server)
        seen: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_bakeoffs(app, pilot)

            def shown() -> str:
                text = screen.detail_text.plain
                if not seen or seen[-1] != text:
                    seen.append(text)
                return text

            await wait_for(
                pilot, lambda: "fails closed until the run is DONE" in shown(), what="the gate failing closed"
            )
            assert "no results yet: they come when the run is DONE" in shown()
            for fifth in range(1, 5):
                queue_time[0] = 1.0 + run_s * fifth / 5
                await wait_for(
                    pilot, lambda fifth=fifth: f"RUNNING · {fifth * 20}% done" in shown(), what=f"{fifth * 20}% done"
                )
            await wait_for(
                pilot,
                lambda: "ETA " in shown() and "ETA: estimating" not in shown(),
                what="an ETA from the progress over time",
            )
            queue_time[0] = 1.0 + run_s + 1.0
            await wait_for(pilot, lambda: "DONE · 100%" in shown() and "win rate" in shown(), what="the run DONE")
    assert "ETA: estimating" in "".join(seen)
    assert "fails closed" not in seen[-1] and "ETA" not in seen[-1]
    assert run["id"] in seen[-1]


async def test_losses_come_first_and_open_in_the_inspector(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        outcomes = [row.outcome for row in screen.rows]
        assert outcomes[0] == "loss" and "win" in outcomes
        assert outcomes.index("win") > max(i for i, o in enumerate(outcomes) if o == "loss")
        first = screen.rows[0]
        await pilot.press("tab", "tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the Inspector")
        inspector = app.screen
        await wait_for(pilot, lambda: inspector.foreign is not None, what="the answer read")
        origin = dict(inspector.foreign.origin)
        assert origin["this answer"] == f"candidate {first.arm}"
        assert origin["outcome"].startswith("loss")
        assert origin["verdicts"] == "baseline shown first: the baseline · candidate shown first: the baseline"
        assert inspector.foreign.entry.response == first.answer.text
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: inspector.foreign is not None and inspector.foreign.entry.model_id == COMPARISON["baseline_model"],
            what="the baseline's answer",
        )
        assert inspector.foreign.entry.response == first.sample.baseline_answer
        assert dict(inspector.foreign.origin)["verdicts"].startswith("baseline shown first: the baseline")


async def test_a_win_by_a_looping_answer_opens_flagged_as_doubtful(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        last = screen.rows[-1]
        assert last.outcome == "win" and last.doubtful == "won with a looping answer"
        await pilot.press("tab", "tab", "G", "enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.foreign is not None,
            what="the Inspector",
        )
        foreign = app.screen.foreign
        assert app.screen.log_id == last.key
        assert "Doubtful verdict: the candidate won with a looping answer." in foreign.notes
        assert dict(foreign.origin)["outcome"].startswith("win")


async def test_the_gate_passes_then_fails_as_the_threshold_rises(queue: ErrorbarServer) -> None:
    run = queue_run(queue, STRONG)
    lower = get(queue, f"/v1/evals/{run['id']}").json()["results"]["per_candidate"][0]["ci95"][0]
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        words = {}
        for _ in GATE_THRESHOLDS:
            threshold = screen.threshold
            await wait_for(
                pilot,
                lambda threshold=threshold: (
                    f"min win rate {threshold:.2f}" in screen.detail_text.plain and screen.gate is not None
                ),
                what=f"the gate at {threshold}",
            )
            text = screen.detail_text.plain
            words[threshold] = "gate PASS" in text
            assert f"required {threshold:.3f} · lower bound {lower:.3f}" in text
            await pilot.press("t")
    assert words == {t: lower >= t for t in GATE_THRESHOLDS}
    assert True in words.values() and False in words.values()


async def test_a_criterion_run_shows_observed_and_corrected_rates_by_hand(queue: ErrorbarServer) -> None:
    run = queue_run(queue, CRITERION)
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        text = screen.detail_text.plain
    assert "frozen judge Helpful and correct: TPR 0.900 · TNR 0.840 · kappa 0.720" in text
    samples = _samples(queue, run["id"])
    for model in [CRITERION["baseline_model"], *CRITERION["candidate_models"]]:
        rows = [c for s in samples for c in s["candidates"] if c["model"] == model]
        passed = sum(1 for c in rows if c["outcome"] == "pass")
        failed = sum(1 for c in rows if c["outcome"] == "fail")
        observed = passed / (passed + failed)
        corrected = (observed + 0.84 - 1) / (0.90 + 0.84 - 1)  # Rogan–Gladen by hand
        assert corrected == pytest.approx(rogan_gladen(observed, 0.90, 0.84))
        low, high = wilson_interval(passed, passed + failed)
        assert f"observed ○ {observed:.3f} [{low:.3f}, {high:.3f}] · corrected ● {corrected:.3f}" in text
        assert f"pass {passed} · fail {failed}" in text


async def test_every_figure_on_screen_is_recomputed_from_the_samples(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        text = screen.detail_text.plain
        table = screen.query_one("#bakeoff-samples")
        flagged = {str(key.value) for key in table.rows if str(table.get_cell(key, "flag")) == "doubtful"}
    samples = _samples(queue, run["id"])
    doubtful = {
        f"{s['index']}:{c['model']}"
        for s in samples
        for c in s["candidates"]
        if c["outcome"] == "win" and (not c["answer"].strip() or find_loop(c["answer"]) is not None)
    }
    assert flagged == doubtful and doubtful  # a win by a looping answer is flagged, and only such wins
    for arm in COMPARISON["candidate_models"]:
        c = _counts(samples, arm)
        judged = c["win"] + c["tie"] + c["loss"]
        rate = (c["win"] + c["tie"] / 2) / judged
        low, high = wilson_interval(c["win"] + c["tie"] / 2, judged)
        block = text.split(arm, 1)[1]
        assert f"wins {c['win']} · ties {c['tie']} · losses {c['loss']}" in block
        assert f"win rate {rate:.3f} [{low:.3f}, {high:.3f}]" in block
        assert f"failed {c['failed']} · unreportable no · truncated {c['truncated']}" in block
        assert (
            f"disagreed on {c['disagree'] / c['read'] * 100:.0f}% of pairs ({c['disagree']} of {c['read']})"
            f" · position bias {c['bias']:+.1f} points"
        ) in block
        verb = "was" if c["cut_losses"] == 1 else "were"
        assert f"{c['cut_losses']} of {c['losses']} losses {verb} cut at the 1,024-token cap" in block


async def test_two_finished_bakeoffs_compare(queue: ErrorbarServer) -> None:
    before = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v2"]})
    after = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v2"], "name": "again"})
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bakeoffs(app, pilot)
        ids = [r.id for r in screen.runs]
        step = ids.index(after["id"]) - ids.index(before["id"])
        await pilot.press(*["down"] * ids.index(before["id"]), "x")
        await pilot.press(*[("down" if step > 0 else "up")] * abs(step), "x")
        await wait_for(
            pilot,
            lambda: screen.comparison is not None and "Compared" in screen.detail_text.plain,
            what="the comparison",
        )
        text = screen.detail_text.plain
    assert f"Compared: before {before['id']} → after {after['id']}" in text
    assert "you/tiny-sft-v2" in text.split("Compared", 1)[1]


async def test_hostile_names_and_answers_stay_inert(queue: ErrorbarServer) -> None:
    payload = "".join(text for _, text in HOSTILE[:16])  # under the queue's 2,000-character clip
    run = queue_run(queue, {**COMPARISON, "name": "[bold red]x[/] \x1b[31mred"})
    stored = queue.store.get(run["id"])
    for sample in stored.samples:
        sample.graded[0].answer.text = payload + " [link=https://evil.example]click[/link]"
        sample.baseline.text = payload
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run["id"])
        assert "[bold red]x[/]" in screen.detail_text.plain
        await pilot.press("tab", "tab", "enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and app.screen.foreign is not None,
            what="the Inspector",
        )
        index, arm = app.screen.log_id.split(":", 1)
        graded = next(g for g in stored.samples[int(index)].graded if g.arm == arm)
        assert app.screen.foreign.entry.response == graded.answer.text  # verbatim, shown inert
        await pilot.pause()
        rendered = app.export_screenshot()
    assert_inert(rendered)


async def test_without_errorbar_the_view_says_it_is_not_configured() -> None:
    app = bakeoff_app(None)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bakeoffs(app, pilot)
        await wait_for(
            pilot,
            lambda: "errorbar is not configured" in str(screen.query_one("#bakeoff-caption").render()),
            what="the sentence",
        )
    assert NOT_CONFIGURED.startswith("errorbar is not configured")


def test_a_correction_below_zero_says_clamped_at_0() -> None:
    judge = JudgeFigures("j", 0.9, 0.84, 0.7)
    assert correction_note(0.10, judge, 0.0) == "clamped at 0"
    assert correction_note(0.10, JudgeFigures("j", 0.55, 0.40, None), None).startswith("none: the judge is no better")
    assert correction_note(0.50, JudgeFigures("j", None, None, None), None).startswith(
        "none: the frozen judge was never"
    )


def test_a_win_by_an_empty_or_looping_answer_is_doubtful() -> None:
    assert doubtful_reason("win", "") == "won with an empty answer"
    assert doubtful_reason("win", "Sure " + "and then " * 30) == "won with a looping answer"
    assert doubtful_reason("loss", "") is None
    assert doubtful_reason("win", "Reset it from the account page, then sign in again.") is None
