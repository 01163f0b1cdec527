"""Compare's bake-offs as a new user met them (issue 31): the samples reached with a key the
footer shows (not only "Tab Tab Enter", said nowhere), and the before/after of a comparison
named and swapped with a key."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs
from tests.support.errorbar import COMPARISON, SLOW, queue_run
from tests.support.waiting import wait_for
from tui.screens.inspector.screen import InspectorScreen

SIZE = (160, 48)


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        yield server


def footer_text(app) -> str:  # type: ignore[no-untyped-def]
    """The screen's last row, where the footer draws its keys."""
    rows = ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]
    return rows[-1]


async def test_s_goes_to_the_samples_the_footer_says_so_and_enter_opens_one(queue: ErrorbarServer) -> None:
    queue_run(queue, {**COMPARISON, "sample_count": 5})
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bakeoffs(app, pilot)
        await wait_for(pilot, lambda: bool(screen.rows), what="the samples")
        assert "s Samples" in footer_text(app)
        await pilot.press("s", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="a sample in the Inspector")


async def test_before_and_after_are_named_and_shift_x_swaps_them(queue: ErrorbarServer) -> None:
    first = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v2"]})
    second = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v2"], "name": "again"})
    app = bakeoff_app(queue)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bakeoffs(app, pilot)
        ids = [r.id for r in screen.runs]
        step = ids.index(first["id"]) - ids.index(second["id"])
        await pilot.press(*["down"] * ids.index(second["id"]), "x")  # the newer one marked first
        await pilot.press(*[("down" if step > 0 else "up")] * abs(step), "x")
        await wait_for(pilot, lambda: screen.comparison is not None, what="the comparison")
        text = screen.detail_text.plain
        assert f"before {second['id']} → after {first['id']}" in text and "X swaps" in text
        assert "after: again" not in text and "before: again" in text  # the names, each on its side
        await pilot.press("X")
        await wait_for(
            pilot,
            lambda: f"before {first['id']} → after {second['id']}" in screen.detail_text.plain,
            what="the swapped comparison",
        )
        assert "after: again" in screen.detail_text.plain


async def test_at_80x24_a_finished_comparison_shows_its_verdict_unscrolled_and_its_wins_one_key_away(
    queue: ErrorbarServer,
) -> None:
    """Issue 31 had the wins, ties and losses unscrolled; issue 41 put the answer ("Switch? …")
    first, so at 80x24 the results are one key (``a``) away."""
    import re

    done = queue_run(queue, {**COMPARISON, "candidate_models": ["you/tiny-sft-v2"]})
    app = bakeoff_app(queue)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_bakeoffs(app, pilot)
        await wait_for(
            pilot,
            lambda: screen.run is not None and screen.run.id == done["id"] and "wins" in screen.detail_text.plain,
            what="the finished run read",
        )
        await wait_for(pilot, lambda: "Switch? " in screen.verdict_text.plain, what="the verdict")
        await pilot.pause(0.2)

        def rows() -> list[str]:
            return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]

        assert any(row.strip().startswith("Switch? ") for row in rows()), "\n".join(rows())
        await pilot.press("a")
        await pilot.pause()
        assert any(re.search(r"wins \d+ · ties \d+ · losses \d+", row) for row in rows()), "\n".join(rows())
