"""The bake-off view read as a person reads it (issue 41, items 2 and 5): the answer ("Switch?
…") on screen without scrolling at 80x24 and 160x48 on a two-candidate run; each panel one key
away, the pane that then has the focus marked at its left edge, the keys in the footer and in
``?``; and the prediction-powered reading drawn as soon as a label is saved, not when the run
is opened again. Driven by keys against the queue simulator over real HTTP; what is asserted is
the terminal's text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.chatroom import screen_text
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server
from tests.support.notify_log import said
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.screen import BakeoffScreen
from tui.screens.help.screen import HelpScreen
from widgets.key_table import KeyTable

SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
JUDGED = {"win": "c", "loss": "b", "tie": "equals_sign"}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _words(text: str) -> str:
    return " ".join(text.split())


def _pane(app: BlahApp, screen: BakeoffScreen) -> str:
    """What the terminal shows inside the scroll pane (its rows and columns, without its edge
    and scrollbar), as one line of words."""
    region = screen.query_one("#bakeoff-detail-scroll", VerticalScroll).scrollable_content_region
    rows = screen_text(app).split("\n")[region.y : region.bottom]
    return _words(" ".join(row[region.x : region.right] for row in rows))


def _edge(app: BlahApp, screen: BakeoffScreen) -> set[str]:
    """The characters in the column just left of the pane's text, on its rows."""
    pane = screen.query_one("#bakeoff-detail-scroll", VerticalScroll)
    region = pane.scrollable_content_region
    rows = screen_text(app).split("\n")[region.y : region.bottom]
    return {row[region.x - 1] for row in rows}


async def _read(app: BlahApp, pilot: Pilot[Any], run_id: str) -> BakeoffScreen:
    await open_bakeoffs(app, pilot)
    screen = await read_run(app, pilot, run_id)
    await wait_for(pilot, lambda: screen.verdict_text.plain.startswith("Switch? "), what="the verdict")
    await pilot.pause()
    return screen


@SIZES
async def test_the_verdict_is_on_screen_first_without_scrolling(queue: ErrorbarServer, size: tuple[int, int]) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]  # two candidates
    app = bakeoff_app(queue)
    async with app.run_test(size=size) as pilot:
        screen = await _read(app, pilot, run_id)
        sentence = _words(screen.verdict_text.plain.split("\n", 1)[0])
        shown = _pane(app, screen)
        assert sentence in shown
        assert shown.startswith(f"{run_id} · ")  # which run it answers for, then the answer


async def _press_panel(pilot: Pilot[Any], key: str) -> None:
    await pilot.press(key)
    await pilot.pause()


@pytest.mark.parametrize(
    ("key", "heading"),
    [
        ("l", "Calibration (your pair labels against the judge)"),
        ("o", "The app's own reading (beside the queue's numbers, not instead of them)"),
        ("p", "Gate (min win rate 0.50; t changes it"),
        ("a", "baseline Qwen/Qwen3-32B · judge"),
    ],
    ids=["calibration", "reading", "gate", "results"],
)
async def test_one_key_brings_each_panel_into_view_at_80x24(queue: ErrorbarServer, key: str, heading: str) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _read(app, pilot, run_id)
        assert heading not in _pane(app, screen) or key == "a"
        assert _edge(app, screen) == {" "}  # the runs list has the focus: no mark on the pane
        await _press_panel(pilot, key)
        pane = screen.query_one("#bakeoff-detail-scroll", VerticalScroll)
        assert app.focused is pane
        assert _pane(app, screen).startswith(heading)  # the panel at the pane's top
        assert _edge(app, screen) == {"▊"}  # and the pane marked as having the focus
        await _press_panel(pilot, "v")  # back to the answer
        assert _pane(app, screen).startswith("Switch? ")


async def test_tab_to_the_pane_marks_it_and_tab_again_leaves_it_unmarked(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _read(app, pilot, run_id)
        pane = screen.query_one("#bakeoff-detail-scroll", VerticalScroll)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is pane and _edge(app, screen) == {"▊"}
        await pilot.press("tab")  # on to the samples
        await pilot.pause()
        assert app.focused is screen.query_one("#bakeoff-samples", KeyTable) and _edge(app, screen) == {" "}


async def test_a_panel_the_run_lacks_is_said_and_the_keys_are_listed(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, CRITERION)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _read(app, pilot, run_id)
        footer = screen_text(app).split("\n")[-1]
        assert "vaplom Panels" in footer
        for key in ("l", "m"):
            await _press_panel(pilot, key)
        assert any("Calibration (labels): only a finished comparison run has" in m for m in said(app))
        assert any("Comparison: no comparison yet" in m for m in said(app))
        assert app.focused is screen.query_one("#bakeoff-runs", KeyTable)  # the focus stayed
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        await pilot.pause()
        shown = screen_text(app)
    for key, what, binding_id in (
        ("v", "Verdict", "bakeoffs.panel_verdict"),
        ("a", "Results", "bakeoffs.panel_results"),
        ("p", "Gate (pass/fail)", "bakeoffs.panel_gate"),
        ("l", "Calibration (labels)", "bakeoffs.panel_calibration"),
        ("o", "Own reading (paired, PPI)", "bakeoffs.panel_reading"),
        ("m", "Comparison", "bakeoffs.panel_comparison"),
    ):
        assert any(f"│  {key} " in row and what in row and binding_id in row for row in shown.split("\n")), key


async def test_a_saved_label_brings_the_prediction_powered_reading(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _read(app, pilot, run_id)
        assert "prediction-powered" not in screen.readings_text.plain
        await pilot.press("s")  # to the samples
        table = screen.query_one("#bakeoff-samples", KeyTable)
        labelled = 0
        while labelled < 3:  # two candidates: one of them gets two labels, the fewest PPI reads
            row = next(r for r in screen.rows if r.key == table.current_key)
            if row.outcome not in JUDGED:  # no judge reading: a label cannot measure the judge
                await pilot.press("down")
                continue
            await pilot.press(JUDGED[row.outcome])
            labelled += 1
            saved = f"labelled pairs {labelled} "
            await wait_for(pilot, lambda saved=saved: saved in screen.calibration_text.plain, what="the label saved")
        reading = screen.readings_text.plain
        assert "prediction-powered win rate" in reading and "labels are worth" in reading
        await _press_panel(pilot, "o")
        assert "prediction-powered win rate" in _pane(app, screen)
