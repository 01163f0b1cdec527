"""Snapshots of Leaderboard's Community board tab (a stranger's hostile row and the person's
own) and of the publish dialog, at 80x24 and 160x48, on the Blobfish simulator with its clock
fixed (the same ids and times on every run)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from simulator.blobfish.server import BlobfishServer
from tests.support.bench import FakeClock
from tests.support.bench_board import SLUG, SuiteMaker, make_board_app
from tests.support.quick_keys import type_text
from tests.support.waiting import wait_for
from tui.screens.leaderboard.community import CommunityBoard
from tui.screens.leaderboard.publish import PublishBenchRunScreen
from tui.screens.leaderboard.screen import LeaderboardScreen

SIZES = {"80x24": (80, 24), "160x48": (160, 48)}


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[BlobfishServer, str]]:
    """The simulator with one of the person's rows published and a second completed suite run
    (the one the dialog publishes); the seeded stranger's row is there too."""
    with BlobfishServer(seed=11, live=False) as bf:
        clock = FakeClock()
        bf.benchmarks.clock = clock.time
        suites = SuiteMaker(bf, clock)

        async def build() -> str:
            await suites.publish(
                await suites.completed(max_tasks=3), "grok-4 · my scaffold", notes="temperature 0, 24 turns"
            )
            return await suites.completed(max_tasks=2, model="grok-4-mini")

        yield bf, asyncio.run(build())


async def _still(pilot: Pilot[Any]) -> None:
    """No blinking cursor, no toast: the frame is the same on every run."""
    for field in [*pilot.app.screen.query(Input), *pilot.app.screen.query(TextArea)]:
        field.cursor_blink = True
        field.cursor_blink = False
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


@pytest.mark.parametrize("size", list(SIZES))
def test_community_board_tab(snap_compare: Any, world: tuple[BlobfishServer, str], size: str) -> None:
    bf, _ = world
    app = make_board_app(bf, demo=True)  # the demo's slug is filled in

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="the leaderboard")
        await pilot.press("]")
        board = app.screen.query_one(CommunityBoard)
        await wait_for(pilot, lambda: board.read_slug == SLUG and len(board.rows) == 2, what="the board")
        await _still(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_publish_dialog(snap_compare: Any, world: tuple[BlobfishServer, str], size: str) -> None:
    bf, run_id = world
    app = make_board_app(bf, demo=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="the leaderboard")
        dialog = PublishBenchRunScreen(SLUG, run_id)
        app.push_screen(dialog)
        await wait_for(pilot, lambda: dialog.record is not None, what="the run's record")
        await type_text(pilot, "grok-4-mini sample run")
        await _still(pilot)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
