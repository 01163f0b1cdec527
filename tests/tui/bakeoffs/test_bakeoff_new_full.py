"""The complete New bake-off dialog by keys on the errorbar simulator: a certified switch
("against what you shipped") refused as underpowered says on the samples row how many would
do and is sent again only when the person confirms again; a criterion whose judge is no
better than chance is said before anything is spent; bad assertions and a 1.5 margin are
said inline with nothing sent; a model the queue does not have is said on the candidates
row; candidates can be prefilled from outside; arms, filters and assertions reach the run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_new import choose, confirm_shown, fill, fill_certified_switch, open_dialog, text, type_into
from tests.support.bakeoff_runs import on_runs, runs_app
from tests.support.errorbar import queue_that_ran_one_comparison
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from widgets.check_list import CheckList
from widgets.confirm import ConfirmScreen

pytestmark = pytest.mark.slow  # ~100 s of keys in one file: started first, so it is not the suite's tail

SIZE = (160, 48)
RUBRIC = "Accurate, concise answers in the support tone."


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_that_ran_one_comparison() as server:
        yield server


def creates(server: ErrorbarServer) -> int:
    return server.requests.count("POST", "/v1/evals")


async def test_an_underpowered_certified_switch_is_said_on_the_samples_row_and_resent_only_when_confirmed(
    queue: ErrorbarServer,
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        await fill_certified_switch(pilot)
        confirm = await confirm_shown(pilot)
        body = text(confirm.query_one("#confirm-body"))
        assert "against what you shipped (your logged answers, not regenerated): a certified switch" in body
        assert "noninferiority margin 0.05" in body
        assert "baseline: your logged answers (what you shipped, not regenerated): 0 generations" in body
        assert "__stored__" not in body
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the dialog again")
        dialog = app.screen
        under = dialog.query_one("#bn-err-samples")
        await wait_for(
            pilot, lambda: "the queue takes it from 78 samples" in text(under), what="the 412 on the samples row"
        )
        assert "instead of 40" in text(under) and "not resent" in text(under)
        assert creates(queue) == 1
        await type_into(pilot, "bn-samples", "78")
        await pilot.press("enter")
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None,
            what="the watch on the certified switch",
        )
        assert app.screen.run.baseline_model == "__stored__" and app.screen.run.sample_count == 78
    assert creates(queue) == 2


async def test_a_judge_no_better_than_chance_is_said_before_anything_is_spent(queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="concise?",
            rubric="",
            baseline="Qwen/Qwen3-32B",
            kind="criterion",
            criterion="crit_concise",
            candidates=["you/tiny-sft-v3"],
            samples="40",
            submit=False,
        )
        info = text(dialog.query_one("#bn-criterion-info"))
        assert "trust misaligned · TPR 0.550 · TNR 0.400 · kappa -0.050" in info
        assert "this pass rate says nothing: the judge's TPR+TNR-1 is -0.05" in info
        await pilot.press("enter")
        confirm = await confirm_shown(pilot)
        assert "! criterion Concise: this pass rate says nothing: the judge's TPR+TNR-1 is -0.05" in text(
            confirm.query_one("#confirm-body")
        )
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), what="the confirmation gone")
    assert creates(queue) == 0


@pytest.mark.parametrize(
    ("assertions", "margin", "row", "words"),
    [
        ("regex_match=([a-z", "", "assertions", "the regex does not compile"),
        ("completed\nmax_length=12.5", "", "assertions", "assertions[1]: max_length needs a non-negative whole number"),
        ("json_schema={oops", "", "assertions", "the JSON schema does not parse"),
        ("", "1.5", "margin", "0.05, not 5"),
    ],
)
async def test_bad_assertions_and_margins_are_said_inline_and_nothing_is_sent(
    queue: ErrorbarServer, assertions: str, margin: str, row: str, words: str
) -> None:
    app = runs_app(queue, admin=True)
    extra = {"assertions": assertions} if assertions else {"margin": margin}
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="bad input",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            samples="20",
            **extra,
        )
        under = dialog.query_one(f"#bn-err-{row}")
        await wait_for(pilot, lambda: words in text(under), what=f"the refusal under {row}")
        assert "nothing was sent" in text(under)
        assert isinstance(app.screen, BakeoffNewScreen)
    assert creates(queue) == 0


async def test_a_model_the_queue_does_not_have_is_said_on_the_candidates_row(queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        await fill(
            pilot,
            name="unknown model",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            candidates=["acme/never-heard-of"],
            samples="20",
        )
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the dialog again")
        under = app.screen.query_one("#bn-err-candidates")
        await wait_for(
            pilot,
            lambda: "Model 'acme/never-heard-of' is not available" in text(under),
            what="the 400 on the candidates row",
        )
    assert creates(queue) == 1


async def test_arms_filters_and_assertions_typed_in_reach_the_run_and_the_offered_models_are_the_workspaces(
    queue: ErrorbarServer,
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        check = dialog.query_one("#bn-candidates", CheckList)
        offered = {check.get_option_at_index(i).value for i in range(check.option_count)}
        assert offered == {"Qwen/Qwen3-32B", "you/tiny-sft-v3", "you/tiny-sft-v2"}  # no invented catalog
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, BakeoffNewScreen), what="the dialog closed")
        await fill(
            pilot,
            name="versioned arms",
            rubric=RUBRIC,
            baseline="Qwen/Qwen3-32B",
            rubric_type="adherence",
            judge="anthropic/claude-sonnet-4",
            candidates=["you/tiny-sft-v2"],
            arms="model=you/tiny-sft-v3; label=terse v3; n=2; system=Be brief.",
            tag="support",
            assertions="completed\nregex_match=^Here",
            samples="20",
        )
        confirm = await confirm_shown(pilot)
        body = text(confirm.query_one("#confirm-body"))
        assert "arm terse v3: 40 generations (20 samples × best-of-2)" in body
        await pilot.press("y")
        await wait_for(
            pilot, lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None, what="the watch"
        )
        run = app.screen.run
    assert creates(queue) == 1
    assert [(a.key, a.n, a.system) for a in run.arms] == [("you/tiny-sft-v2", 1, False), ("terse v3", 2, True)]
    assert run.rubric_type == "adherence" and run.judge_model == "anthropic/claude-sonnet-4"
    assert run.sample_filters == {"tag": "support"}
    assert run.assertions == [{"type": "completed"}, {"type": "regex_match", "value": "^Here"}]


async def test_candidates_prefilled_from_outside_are_ticked_and_a_same_family_judge_is_warned(
    queue: ErrorbarServer,
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        app.screen.bakeoffs.create(candidates=["meta-llama/Llama-3.1-8B-Instruct"])
        await wait_for(
            pilot, lambda: isinstance(app.screen, BakeoffNewScreen) and app.screen.loaded, what="the prefilled dialog"
        )
        dialog = app.screen
        check = dialog.query_one("#bn-candidates", CheckList)
        assert check.selected == ["meta-llama/Llama-3.1-8B-Instruct"]
        await type_into(pilot, "bn-judge", "meta-llama/Llama-3.3-70B-Instruct")
        warning = dialog.query_one("#bn-judge-warning")
        await wait_for(
            pilot,
            lambda: "shares a family with meta-llama/Llama-3.1-8B-Instruct" in text(warning),
            what="the family warning",
        )
        await pilot.press("escape")
    assert creates(queue) == 0


async def test_a_hostile_criterion_name_is_shown_inert(queue: ErrorbarServer) -> None:
    queue.store.criteria["crit_tone"].name = "[bold red]Brand[/] \x1b[31mtone"
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        select = dialog.query_one("#bn-criterion")
        prompts = [str(prompt) for prompt, value in select._options if value == "crit_tone"]
        assert prompts and prompts[0].startswith("[bold red]Brand[/]") and "\x1b" not in prompts[0]
        await choose(pilot, "bn-criterion", "crit_tone")
        info = text(dialog.query_one("#bn-criterion-info"))
        assert "[bold red]Brand[/]" in info and "\x1b" not in info
        assert "never checked against human labels" in info
        await pilot.press("escape")


async def test_the_plan_is_shown_in_the_dialog_and_its_confirmation_and_beside_a_412(queue: ErrorbarServer) -> None:
    """Issue 32: what the run can answer, before it is paid for: the dialog's plan follows the
    samples and the margin typed; the confirmation says the same; the 412 adds what would do."""
    from application.bakeoffs.planning import run_plan_lines
    from diagnosis.planning import smallest_margin

    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_runs(pilot)
        dialog = await fill_certified_switch(pilot, submit=False)
        helpful = dialog.chosen_criterion()
        assert helpful is not None and helpful.tpr is not None
        expected = run_plan_lines(40, 0.05, helpful.tpr, helpful.tnr)
        plan = text(dialog.query_one("#bn-plan"))
        assert (
            "at 40 samples the 95% interval will be about ±" in plan
            and "a 5.0-point margin (no more than 5.0 points worse?) passes" in plan
        )
        assert all(line in " ".join(plan.split()) for line in expected)
        await type_into(pilot, "bn-samples", "200")
        await wait_for(pilot, lambda: "at 200 samples" in text(dialog.query_one("#bn-plan")), what="the plan at 200")
        await type_into(pilot, "bn-samples", "40")
        await pilot.press("enter")
        confirm = await confirm_shown(pilot)
        body = " ".join(text(confirm.query_one("#confirm-body")).split())
        assert all(line in body for line in expected)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, BakeoffNewScreen), what="the dialog again")
        under = app.screen.query_one("#bn-err-samples")
        widest = smallest_margin(500, 0.5, helpful.tpr, helpful.tnr)
        await wait_for(pilot, lambda: "one run cannot reach 80% power" in text(under), what="the plan beside the 412")
        assert f"a margin of at least {widest * 100:.1f} points (500 samples reach that)" in " ".join(
            text(under).split()
        )
    assert creates(queue) == 1
