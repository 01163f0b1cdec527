"""Snapshots of Runs' "New bake-off" dialog, reached by keys (``e``) on the errorbar simulator
(its wall clock stopped): filled in, one candidate ticked, and a refused rubric said inline
before anything is sent, at 160x48 and 80x24; and a criterion run on a judge no better than
chance, said before anything is spent. With the focus on the last field (Max output tokens,
reached by shift+tab) and after the queue's underpowered refusal (the focus on Samples), at
both sizes: the focused field, the plan line and the buttons all in view."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_new import confirm_shown, fill, fill_certified_switch, open_dialog, tab_to, typed
from tests.support.bakeoff_runs import on_runs, runs_app, stop_wall_clock
from tests.support.errorbar import COMPARISON, SLOW, queue_run
from tests.support.waiting import wait_for

SIZES = {"160x48": (160, 48), "80x24": (80, 24)}


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        stop_wall_clock(server)
        queue_run(server, COMPARISON)
        yield server


@pytest.mark.parametrize("size", list(SIZES))
def test_new_bakeoff_dialog_says_a_refused_field(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    app = runs_app(queue, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="tiny v3 against Qwen3-32B",
            rubric="short",
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            samples="40",
        )
        error = dialog.query_one("#bn-error")
        await wait_for(pilot, lambda: "rubric" in str(error.render()), what="the refusal")
        # A steady cursor: blinking switched on then off stops the blink timer (which phase a
        # frame caught was the machine's load).
        for field in dialog.query(Input):
            field.cursor_blink = True
            field.cursor_blink = False
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


def test_new_bakeoff_dialog_says_a_judge_no_better_than_chance(snap_compare: Any, queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        dialog = await fill(
            pilot,
            name="concise enough?",
            rubric="",
            baseline="Qwen/Qwen3-32B",
            kind="criterion",
            criterion="crit_concise",
            candidates=["you/tiny-sft-v3"],
            samples="40",
            submit=False,
        )
        for field in dialog.query(Input):
            field.cursor_blink = True
            field.cursor_blink = False
        await pilot.press("shift+tab", "shift+tab")  # back up the form, so its top is in view
        await tab_to(pilot, "bn-criterion", back=True)
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZES["160x48"], run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass


def test_new_bakeoff_confirmation_says_what_it_spends_on_at_80x24(snap_compare: Any, queue: ErrorbarServer) -> None:
    app = runs_app(queue, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        await fill(
            pilot,
            name="v3 against Qwen3-32B",
            rubric="Accurate, concise answers in the support tone.",
            baseline="Qwen/Qwen3-32B",
            candidates=["you/tiny-sft-v3"],
            arms="model=you/tiny-sft-v2; label=v2 best of 3; n=3",
            assertions="completed",
            samples="30",
        )
        await confirm_shown(pilot)
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZES["80x24"], run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass


def steady_cursors(screen: Any) -> None:
    """A steady cursor: blinking switched on then off stops the blink timer."""
    for field in screen.query(Input):
        field.cursor_blink = True
        field.cursor_blink = False


@pytest.mark.parametrize("size", list(SIZES))
def test_new_bakeoff_dialog_keeps_the_last_field_the_plan_and_the_buttons_in_view(
    snap_compare: Any, queue: ErrorbarServer, size: str
) -> None:
    app = runs_app(queue, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        dialog = await open_dialog(pilot)
        steady_cursors(dialog)
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "end", "ctrl+u", *typed("2048"))
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass


@pytest.mark.parametrize("size", list(SIZES))
def test_new_bakeoff_dialog_after_an_underpowered_refusal(snap_compare: Any, queue: ErrorbarServer, size: str) -> None:
    app = runs_app(queue, admin=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await on_runs(pilot)
        await fill_certified_switch(pilot)
        await confirm_shown(pilot)
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                app.focused is not None
                and app.focused.id == "bn-samples"
                and "78 samples" in str(app.screen.query_one("#bn-err-samples").render())
            ),
            what="the 412 said on Samples, which has the focus",
        )
        steady_cursors(app.screen)
        await pilot.pause(0.3)

    try:
        assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass
