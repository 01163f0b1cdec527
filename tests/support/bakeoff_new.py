"""Filling Runs' "New bake-off" dialog by keys. No tests here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Select, TextArea

from tests.support.quick_keys import keys_of, press_quickly, type_text
from tests.support.waiting import wait_for
from tui.screens.bakeoffs.new_dialog import BakeoffNewScreen
from widgets.check_list import CheckList
from widgets.confirm import ConfirmScreen

typed = keys_of  # the name the tests import


async def open_dialog(pilot: Pilot[Any]) -> BakeoffNewScreen:
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, BakeoffNewScreen), what="the New bake-off dialog")
    dialog = pilot.app.screen
    assert isinstance(dialog, BakeoffNewScreen)
    await wait_for(pilot, lambda: dialog.loaded, what="the workspace's runs and criteria in the dialog")
    return dialog


async def tab_to(pilot: Pilot[Any], field_id: str, *, back: bool = False) -> None:
    """Tab (or shift+tab) until ``field_id`` has the focus, as a person does.

    The number of presses is counted on the screen's focus chain first and the presses are sent
    in one run (:func:`press_quickly`); one at a time, each settled, only if that run missed."""
    chain = pilot.app.screen.focus_chain
    ids = [widget.id for widget in chain]
    focused = pilot.app.focused
    if field_id in ids and focused in chain:
        steps = (ids.index(field_id) - chain.index(focused)) * (-1 if back else 1) % len(chain)
        await press_quickly(pilot, *["shift+tab" if back else "tab"] * steps)
    for _ in range(40):
        focused = pilot.app.focused
        if focused is not None and focused.id == field_id:
            return
        await pilot.press("shift+tab" if back else "tab")
    raise AssertionError(f"#{field_id} never got the focus")


async def type_into(pilot: Pilot[Any], field_id: str, text: str) -> None:
    await tab_to(pilot, field_id)
    widget = pilot.app.focused
    if isinstance(widget, TextArea):
        await pilot.press("ctrl+a")  # select all, so typing replaces it
        lines = text.split("\n")
        for index, line in enumerate(lines):
            await type_text(pilot, line)
            if index < len(lines) - 1:
                await pilot.press("enter")
    else:
        await pilot.press("end", "ctrl+u")
        await type_text(pilot, text)


async def choose(pilot: Pilot[Any], field_id: str, value: str) -> None:
    """A Select: Enter opens it, arrows move to ``value``, Enter picks it."""
    await tab_to(pilot, field_id)
    select = pilot.app.focused
    assert isinstance(select, Select)
    values = [v for _, v in select._options]
    await pilot.press("enter")
    await press_quickly(pilot, "home", *["down"] * values.index(value))
    await pilot.press("enter")
    await wait_for(pilot, lambda: select.value == value, what=f"{value} chosen in #{field_id}")


async def tick(pilot: Pilot[Any], field_id: str) -> None:
    await tab_to(pilot, field_id)
    box = pilot.app.focused
    assert isinstance(box, Checkbox)
    await pilot.press("space")


async def fill(
    pilot: Pilot[Any],
    *,
    name: str,
    rubric: str,
    baseline: str,
    candidates: Sequence[str],
    samples: str,
    submit: bool = True,
    **more: Any,
) -> BakeoffNewScreen:
    """Runs ``e``, then the fields in Tab order: candidates the dialog offers are ticked with
    space, others typed into "Other models"; Enter in the samples field continues (unless not
    ``submit``). ``more``:
    kind, criterion, rubric_type, judge, stored, margin, arms, tag, dataset, trace, assertions."""
    dialog = await open_dialog(pilot)
    await type_into(pilot, "bn-name", name)
    if "kind" in more:
        await choose(pilot, "bn-kind", more["kind"])
    if "criterion" in more:
        await choose(pilot, "bn-criterion", more["criterion"])
    await type_into(pilot, "bn-rubric", rubric)
    if "rubric_type" in more:
        await choose(pilot, "bn-rubric-type", more["rubric_type"])
    if "judge" in more:
        await type_into(pilot, "bn-judge", more["judge"])
    await type_into(pilot, "bn-baseline", baseline)
    if more.get("stored"):
        await tick(pilot, "bn-stored")
    if "margin" in more:
        await type_into(pilot, "bn-margin", more["margin"])
    await tab_to(pilot, "bn-candidates")
    check = dialog.query_one("#bn-candidates", CheckList)
    offered = [check.get_option_at_index(i).value for i in range(check.option_count)]
    for model in candidates:
        if model in offered:
            await press_quickly(pilot, "home", *["down"] * offered.index(model), "space")
    others = [m for m in candidates if m not in offered]
    if others:
        await type_into(pilot, "bn-other", ", ".join(others))
    for key, field_id in (("arms", "bn-arms"), ("tag", "bn-tag"), ("dataset", "bn-dataset")):
        if key in more:
            await type_into(pilot, field_id, more[key])
    if more.get("trace"):
        await tick(pilot, "bn-trace")
    if "assertions" in more:
        await type_into(pilot, "bn-assertions", more["assertions"])
    await type_into(pilot, "bn-samples", samples)
    if submit:
        await pilot.press("enter")
    return dialog


async def confirm_shown(pilot: Pilot[Any]) -> ConfirmScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), what="the confirmation")
    assert isinstance(pilot.app.screen, ConfirmScreen)
    return pilot.app.screen


async def fill_certified_switch(
    pilot: Pilot[Any], *, name: str = "switch to tiny v3?", margin: str = "0.05", samples: str = "40", **more: Any
) -> BakeoffNewScreen:
    """``fill`` with a certified switch: a criterion run of tiny v3 against what you shipped
    (the calibrated ``crit_helpful``) at ``margin``; at 40 samples the queue refuses it as
    underpowered (412)."""
    return await fill(
        pilot,
        name=name,
        rubric="",
        baseline="",
        kind="criterion",
        criterion="crit_helpful",
        stored=True,
        margin=margin,
        candidates=["you/tiny-sft-v3"],
        samples=samples,
        **more,
    )


def text(widget: object) -> str:
    """What a Static shows, as plain text."""
    return str(widget.render())  # type: ignore[attr-defined]
