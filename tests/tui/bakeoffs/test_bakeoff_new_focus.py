"""The New bake-off dialog keeps what a person works on in view, at 80x24 and 160x48, by keys
on the errorbar simulator (issue 41, items 1 and 6):

- every field Tab reaches is on screen, inside the form's viewport, when it has the focus
  (Max output tokens, Continue and Cancel too), so a typed character never lands unseen;
- the live ``plan:`` line and the Continue/Cancel buttons are on screen without scrolling;
- after the queue's underpowered refusal the focus is on Samples, cursor at the end, nothing
  selected (the name is not one key away from being replaced), and the refusal goes as soon as
  the sample count changes;
- ``n`` or Esc at the confirmation goes back to the form with everything typed kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, TextArea

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_new import confirm_shown, fill, fill_certified_switch, open_dialog, text, typed
from tests.support.bakeoff_runs import on_runs, runs_app
from tests.support.errorbar import queue_that_ran_one_comparison
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from tui.screens.bakeoffs.watch import BakeoffWatchScreen
from widgets.check_list import CheckList
from widgets.confirm import ConfirmScreen

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_that_ran_one_comparison() as server:
        yield server


def in_view(dialog: BakeoffNewScreen, widget: Widget, *, lines: int | None = None) -> bool:
    """``widget`` (its first ``lines``) is on the screen, inside the dialog's box, and (a field)
    inside the part of the form that is scrolled into view."""
    screen = Region(0, 0, *dialog.app.size)
    box = dialog.query_one("#bn-dialog").content_region
    region = widget.region if lines is None else widget.region._replace(height=min(lines, widget.region.height))
    if not region or not screen.contains_region(region) or not box.contains_region(region):
        return False
    form = dialog.query_one("#bn-form")
    if form in widget.ancestors:
        return form.content_region.contains_region(region)
    return True


def plan_and_buttons_in_view(dialog: BakeoffNewScreen) -> bool:
    return all(in_view(dialog, dialog.query_one(f"#{name}")) for name in ("bn-plan-row", "bn-ok", "bn-cancel"))


@pytest.mark.parametrize("size", list(SIZES))
async def test_every_field_tab_reaches_is_in_view_and_so_are_the_plan_and_the_buttons(
    queue: ErrorbarServer, size: str
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        assert text(dialog.query_one("#bn-plan")).startswith("at 40 samples the 95% interval")
        assert plan_and_buttons_in_view(dialog)
        seen: list[str] = []
        for _ in range(len(dialog.focus_chain)):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            assert focused is not None
            seen.append(str(focused.id))
            assert in_view(dialog, focused), f"#{focused.id} has the focus out of view at {size}"
            assert plan_and_buttons_in_view(dialog), f"the plan or the buttons out of view with #{focused.id}"
        assert {"bn-max", "bn-samples", "bn-ok", "bn-cancel", "bn-assertions", "bn-trace"} <= set(seen)


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_cap_typed_after_shift_tab_lands_in_the_field_in_view(queue: ErrorbarServer, size: str) -> None:
    """From Name, shift+tab goes round to Continue, Cancel, then Max output tokens."""
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        await pilot.press("shift+tab")
        assert app.focused is dialog.query_one("#bn-ok") and in_view(dialog, app.focused)
        await pilot.press("shift+tab")
        assert app.focused is dialog.query_one("#bn-cancel") and in_view(dialog, app.focused)
        await pilot.press("shift+tab", "end", "ctrl+u", *typed("2048"))
        field = dialog.query_one("#bn-max", Input)
        assert app.focused is field and field.value == "2048"
        assert in_view(dialog, field) and plan_and_buttons_in_view(dialog)


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_character_typed_after_the_form_was_paged_away_brings_its_field_back_into_view(
    queue: ErrorbarServer, size: str
) -> None:
    """Page Down in Name scrolls the form (the field does not take it); what is typed next shows."""
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        name = dialog.query_one("#bn-name", Input)
        await pilot.press("pagedown", "pagedown")
        assert app.focused is name and not in_view(dialog, name)
        await pilot.press(*typed("v3"))
        await pilot.pause()
        assert name.value == "v3" and in_view(dialog, name)


async def underpowered(pilot: Pilot[Any]) -> BakeoffNewScreen:
    """A certified switch at 40 samples, confirmed: the queue answers 412 (78 would do)."""
    await on_runs(pilot)
    await fill_certified_switch(pilot)
    await confirm_shown(pilot)
    await pilot.press("y")
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, BakeoffNewScreen) and "78 samples" in text(app.screen.query_one("#bn-error")),
        what="the dialog again, with the 412",
    )
    assert isinstance(app.screen, BakeoffNewScreen)
    return app.screen


@pytest.mark.parametrize("size", list(SIZES))
async def test_after_the_underpowered_refusal_the_focus_is_on_samples_and_the_refusal_goes_when_they_change(
    queue: ErrorbarServer, size: str
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        dialog = await underpowered(pilot)
        samples = dialog.query_one("#bn-samples", Input)
        under = dialog.query_one("#bn-err-samples")
        assert "the queue takes it from 78 samples" in text(under)
        await wait_for(pilot, lambda: app.focused is samples, what="the focus on Samples")
        assert samples.selection.is_empty and samples.cursor_position == len("40")
        # the refusal below it as far as the form has room (at 80x24 the plan leaves it 8 lines), once the
        # scroll to the focused field has run (it is scheduled with the focus)
        await wait_for(
            pilot,
            lambda: in_view(dialog, samples) and in_view(dialog, under, lines=5) and plan_and_buttons_in_view(dialog),
            timeout=5,
            what="Samples, its refusal, the plan and the buttons in view",
        )
        await pilot.press("backspace", "backspace", "7", "8")
        assert samples.value == "78"
        assert dialog.query_one("#bn-name", Input).value == "switch to tiny v3?"
        assert text(under) == "" and text(dialog.query_one("#bn-error")) == ""
        assert "at 78 samples" in text(dialog.query_one("#bn-plan"))
        await pilot.press("enter")
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None,
            what="the watch on the certified switch",
        )
        watch = app.screen
        assert isinstance(watch, BakeoffWatchScreen) and watch.run is not None
        assert watch.run.sample_count == 78 and watch.run.name == "switch to tiny v3?"
    assert queue.requests.count("POST", "/v1/evals") == 2


@pytest.mark.parametrize("size", list(SIZES))
async def test_n_or_escape_at_the_confirmation_goes_back_to_the_form_with_everything_kept(
    queue: ErrorbarServer, size: str
) -> None:
    app = runs_app(queue, admin=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="v3 against Qwen3-32B",
            rubric="Accurate, concise answers in the support tone.",
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3", "meta-llama/Llama-3.1-8B-Instruct"],
            arms="model=you/tiny-sft-v2; label=v2 best of 3; n=3",
            tag="support",
            assertions="completed",
            samples="30",
        )

        def kept() -> dict[str, object]:
            return {
                **{str(field.id): field.value for field in dialog.query(Input)},
                **{str(area.id): area.text for area in dialog.query(TextArea)},
                "ticked": list(dialog.query_one("#bn-candidates", CheckList).selected),
            }

        typed_in = kept()
        assert typed_in["bn-other"] == "meta-llama/Llama-3.1-8B-Instruct" and typed_in["ticked"] == ["you/tiny-sft-v3"]
        for key in ("n", "escape"):
            await confirm_shown(pilot)
            await pilot.press(key)
            await wait_for(pilot, lambda: app.screen is dialog, what=f"the form again after {key}")
            assert kept() == typed_in
            samples = dialog.query_one("#bn-samples", Input)
            assert app.focused is samples and samples.selection.is_empty and in_view(dialog, samples)
            await pilot.press("enter")
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(
            pilot, lambda: isinstance(app.screen, BakeoffWatchScreen) and app.screen.run is not None, what="the watch"
        )
        watch = app.screen
        assert isinstance(watch, BakeoffWatchScreen) and watch.run is not None
        assert watch.run.name == "v3 against Qwen3-32B" and watch.run.sample_count == 30
        assert watch.run.candidate_models[:2] == ["you/tiny-sft-v3", "meta-llama/Llama-3.1-8B-Instruct"]
        await wait_for(pilot, lambda: not dialog.is_attached, what="the dialog let go once the run was sent")
    assert queue.requests.count("POST", "/v1/evals") == 1
    assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)
