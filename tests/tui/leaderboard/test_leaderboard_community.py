"""Leaderboard's Community board tab and the publish dialog, by keys, on the Blobfish simulator:
publish a completed suite run and see it marked as yours, delete it; a double press publishes
once; a lost answer is settled from the board; each refusal in its own sentence; hostile rows
stay inert; without Blobfish the tab says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.blobfish import shapes_bench as shapes
from api_client.blobfish.benchmarks import NOT_YOURS, REFUSALS
from application.leaderboard.bench_board import DOCUMENTED_BADGE, HONESTY_LINE
from simulator.blobfish.server import BlobfishServer
from tests.support.bench import FakeClock
from tests.support.bench_board import SLUG, DropFirstDelete, SuiteMaker, frame_segments, frame_text, make_board_app
from tests.support.blobfish import DropFirstAnswer
from tests.support.hostile_payloads import HOSTILE, assert_segments_inert
from tests.support.notify_log import said
from tests.support.quick_keys import type_text
from tests.support.waiting import wait_for
from tui.screens.leaderboard.community import CommunityBoard
from tui.screens.leaderboard.pick_suite import SuiteRunPickerScreen
from tui.screens.leaderboard.publish import PublishBenchRunScreen
from tui.screens.leaderboard.screen import LeaderboardScreen
from widgets.confirm import ConfirmScreen

SIZE = (160, 48)
SUBMIT = "/submit"


@pytest.fixture(scope="module")
def server() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=11, live=False) as running:
        yield running


@pytest.fixture
def bf(server: BlobfishServer) -> BlobfishServer:
    server.benchmarks.reset()
    server.benchmarks.clock = FakeClock().time
    server.requests.clear()
    return server


@pytest.fixture
def suites(bf: BlobfishServer) -> SuiteMaker:
    clock = FakeClock()
    bf.benchmarks.clock = clock.time
    return SuiteMaker(bf, clock)


def board(pilot: Pilot[Any]) -> CommunityBoard:
    return (
        pilot.app.query_one(CommunityBoard)
        if isinstance(pilot.app.screen, LeaderboardScreen)
        else pilot.app.get_screen("leaderboard").query_one(CommunityBoard)
    )


async def open_board(pilot: Pilot[Any], slug: str = SLUG) -> CommunityBoard:
    """Leaderboard, `]` to the Community board tab, the slug typed, Enter."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="the leaderboard")
    await pilot.press("]")
    community = app.screen.query_one(CommunityBoard)
    await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "cb-slug", what="the slug box")
    await type_text(pilot, slug)
    await pilot.press("enter")
    await wait_for(pilot, lambda: community.read_slug == slug, what="the board")
    return community


async def publish_in_dialog(pilot: Pilot[Any], name: str = "", *, confirm: bool = True) -> PublishBenchRunScreen:
    """In the open publish dialog: the record read, ``name`` typed, ctrl+s, then y."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, PublishBenchRunScreen), what="the publish dialog")
    dialog = app.screen
    assert isinstance(dialog, PublishBenchRunScreen)
    await wait_for(
        pilot, lambda: dialog.record is not None or dialog.record_problem is not None, what="the run's record"
    )
    if name:
        await type_text(pilot, name)
    await pilot.press("ctrl+s")
    if confirm:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: dialog.outcome is not None, what="the platform's answer")
    return dialog


async def push_publish(pilot: Pilot[Any], run_id: str) -> None:
    """As the run watch does for a completed suite run (its key P)."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LeaderboardScreen), what="the leaderboard")
    pilot.app.push_screen(PublishBenchRunScreen(SLUG, run_id))


async def test_publish_by_keys_shows_it_marked_as_yours_then_delete_it(bf: BlobfishServer, suites: SuiteMaker) -> None:
    run_id = await suites.completed()
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        community = await open_board(pilot)
        text = frame_text(app)
        assert HONESTY_LINE[:60] in text.replace("\n", " ")  # above the rows, not a footnote
        assert [row.mine for row in community.rows] == [False]  # only the seeded stranger's row
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, SuiteRunPickerScreen), what="the run picker")
        await wait_for(pilot, lambda: run_id in frame_text(app), what="the completed run in the picker")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PublishBenchRunScreen), what="the publish dialog")
        dialog = app.screen
        assert isinstance(dialog, PublishBenchRunScreen) and dialog.run_id == run_id
        await wait_for(pilot, lambda: dialog.record is not None, what="the run's record")
        await type_text(pilot, "my scaffold")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        confirmation = frame_text(app)
        # The dialog's own text (the frame wraps the badge at the dialog's edge; before the board
        # gained its error-bar line the badge was matched on the row behind the dialog).
        body = str(app.screen.query_one("#confirm-body").render())
        assert DOCUMENTED_BADGE in " ".join(body.split())
        assert "self-run, not the official suite (12 hosted tasks)" in confirmation
        assert bf.requests.count("POST", SUBMIT) == 0  # nothing is sent before "y"
        await pilot.press("y")
        await wait_for(pilot, lambda: dialog.published is not None, what="the publication")
        assert bf.requests.count("POST", SUBMIT) == 1
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LeaderboardScreen) and any(row.run_id == run_id for row in community.rows),
            what="the new row",
        )
        mine = [row for row in community.rows if row.mine]
        assert [row.run_id for row in mine] == [run_id]
        await pilot.pause(0.1)
        text = frame_text(app)
        assert "my scaffold ◀ yours" in text and "1 yours" in text
        # Error bars as far as the data goes: the person's row from its suite run's tasks, the
        # stranger's mean an average only; every pass rate a Wilson interval from its counts.
        yours = next(line for line in text.splitlines() if "my scaffold ◀ yours" in line)
        stranger = next(line for line in text.splitlines() if "evil" in line)
        assert re.search(r"mean \d\.\d\d \[\d\.\d\d–\d\.\d\d\] · pass rate \d+\.\d% \[", yours), yours
        assert re.search(r"mean \d\.\d\d \(no interval\) · pass rate \d+\.\d% \[", stranger), stranger
        assert "intervals for your 1 row from its tasks, averages only for the rest" in text
        assert text.count(DOCUMENTED_BADGE) == 2  # the badge on every row, verbatim
        assert community.rows == sorted(community.rows, key=lambda r: -(r.mean_score or 0))

        await pilot.press("d")  # the new row is the highlighted one
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the delete confirmation")
        assert "my scaffold" in frame_text(app)
        await pilot.press("y")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, LeaderboardScreen)
                and not any(row.mine for row in community.rows)
                and community.rows
            ),
            what="the row gone",
        )
        assert any(m.startswith("Deleted") for m in said(app))
    assert await suites.board_ids(mine=True) == []


async def test_a_double_press_publishes_once(bf: BlobfishServer, suites: SuiteMaker) -> None:
    run_id = await suites.completed()
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await push_publish(pilot, run_id)
        dialog = await publish_in_dialog(pilot, "twice", confirm=False)
        await pilot.press("ctrl+s")  # pressed again at once
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
        await pilot.press("y", "y")
        await wait_for(pilot, lambda: dialog.published is not None, what="the publication")
        await pilot.press("ctrl+s", "y")  # once more, after it went through
        await pilot.pause(0.2)
        assert isinstance(app.screen, PublishBenchRunScreen)
        assert any("Already published" in m for m in said(app))
    assert bf.requests.count("POST", SUBMIT) == 1
    assert len(await suites.board_ids(mine=True)) == 1


async def test_a_lost_answer_is_settled_by_reading_the_board_not_by_sending_again(
    bf: BlobfishServer, suites: SuiteMaker
) -> None:
    run_id = await suites.completed()
    lost = DropFirstAnswer()
    app = make_board_app(bf, transport=lost)
    async with app.run_test(size=SIZE) as pilot:
        await push_publish(pilot, run_id)
        dialog = await publish_in_dialog(pilot, "lost")
        assert lost.dropped == 1
        assert dialog.outcome is not None and dialog.outcome.settled
        assert dialog.published is not None and dialog.published.run_id == run_id
        assert "the board shows it went through" in frame_text(app)
    assert bf.requests.count("POST", SUBMIT) == 1


async def _refusal_run(kind: str, bf: BlobfishServer, suites: SuiteMaker) -> str:
    if kind == shapes.CODE_NOT_A_SUITE_RUN:
        return await suites.single()
    if kind == shapes.CODE_SUITE_RUN_NOT_COMPLETED:
        return await suites.started()
    run_id = await suites.completed()
    if kind == shapes.CODE_SUITE_RUN_NOT_GRADED:
        # The platform's state for a completed suite none of whose tasks was graded.
        job = next(j for s in bf.benchmarks.scopes.values() for j in s.suites if j["run_id"] == run_id)
        job["graded"] = 0
    if kind == shapes.CODE_ALREADY_SUBMITTED:
        await suites.publish(run_id, "first time")
    if kind == "stranger":
        async with suites.client() as client:
            board = await client.board(SLUG)
        return next(row.run_id for row in board.community_runs if not row.mine and row.run_id)
    return run_id


@pytest.mark.parametrize(
    "kind",
    [
        shapes.CODE_NOT_A_SUITE_RUN,
        shapes.CODE_SUITE_RUN_NOT_COMPLETED,
        shapes.CODE_SUITE_RUN_NOT_GRADED,
        shapes.CODE_ALREADY_SUBMITTED,
        "stranger",
    ],
)
async def test_each_refusal_is_said_in_its_own_sentence(kind: str, bf: BlobfishServer, suites: SuiteMaker) -> None:
    run_id = await _refusal_run(kind, bf, suites)
    existing = await suites.board_ids(mine=True)
    bf.requests.clear()
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await push_publish(pilot, run_id)
        dialog = await publish_in_dialog(pilot, "try")
        assert dialog.outcome is not None and dialog.outcome.kind == "refused"
        assert dialog.published is None
        shown = " ".join(frame_text(app).split())
        if kind == shapes.CODE_ALREADY_SUBMITTED:
            assert existing and f"already on the community board as {existing[0]}" in shown
            assert dialog.outcome.existing_id == existing[0]
        elif kind == "stranger":
            assert "Not yours, or not there" in shown
        else:
            assert " ".join(REFUSALS[kind].split())[1:60] in shown
    assert bf.requests.count("POST", SUBMIT) == 1


async def test_names_and_notes_over_the_limit_are_refused_before_sending(
    bf: BlobfishServer, suites: SuiteMaker
) -> None:
    run_id = await suites.completed()
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await push_publish(pilot, run_id)
        dialog = await publish_in_dialog(pilot, "n" * (shapes.MAX_DISPLAY_NAME + 1), confirm=False)
        await pilot.pause(0.1)
        text = frame_text(app)
        assert "81/80: 1 too many" in text
        assert "The display name is 81 characters; at most 80. Nothing was sent" in text
        assert isinstance(app.screen, PublishBenchRunScreen) and dialog.outcome is None
        assert app.focused is not None and app.focused.id == "publish-name"
    assert bf.requests.count("POST", SUBMIT) == 0


async def test_deleting_a_row_that_is_gone_says_not_yours_or_not_there(bf: BlobfishServer, suites: SuiteMaker) -> None:
    bcr = await suites.publish(await suites.completed(), "soon gone")
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        community = await open_board(pilot)
        assert [row.community_run_id for row in community.rows if row.mine] == [bcr]
        while community.rows[community.query_one("#cb-rows").index or 0].community_run_id != bcr:
            await pilot.press("down")
        await suites.delete(bcr)  # deleted meanwhile (another terminal, the web page)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the delete confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: any(NOT_YOURS[:20] in m.lower() for m in said(app)), what="the refusal")
        await wait_for(pilot, lambda: not any(row.mine for row in community.rows), what="the board re-read")


async def test_a_lost_delete_answer_is_settled_by_reading_the_board(bf: BlobfishServer, suites: SuiteMaker) -> None:
    bcr = await suites.publish(await suites.completed(), "lost delete")
    lost = DropFirstDelete()
    app = make_board_app(bf, transport=lost)
    async with app.run_test(size=SIZE) as pilot:
        community = await open_board(pilot)
        while community.rows[community.query_one("#cb-rows").index or 0].community_run_id != bcr:
            await pilot.press("down")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the delete confirmation")
        await pilot.press("y")
        await wait_for(
            pilot, lambda: any("the board shows the row is gone" in m for m in said(app)), what="the settled outcome"
        )
        assert lost.dropped == 1
    assert bf.requests.count("DELETE") == 1
    assert await suites.board_ids(mine=True) == []


async def test_a_strangers_row_is_not_offered_for_deletion(bf: BlobfishServer) -> None:
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await open_board(pilot)
        await pilot.press("d")
        await pilot.pause(0.2)
        assert isinstance(app.screen, LeaderboardScreen)
        assert any("Only your own rows" in m for m in said(app))
    assert bf.requests.count("DELETE") == 0


async def test_hostile_board_rows_stay_inert(bf: BlobfishServer, suites: SuiteMaker) -> None:
    short = [(name, text) for name, text in HOSTILE if len(text) <= shapes.MAX_DISPLAY_NAME]
    for name, text in short[:6]:
        await suites.publish(await suites.completed(model=f"{text[:40]}"), text, notes=f"{name}: {text}")
        bf.benchmarks.scopes.clear()  # a fresh scope: one suite per account at a time
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        community = await open_board(pilot)
        assert len(community.rows) == 7
        for _ in community.rows:  # every row's notes in the detail pane
            assert_segments_inert(frame_segments(app))
            await pilot.press("down")
        assert isinstance(app.screen, LeaderboardScreen)  # no markup action ran


async def test_without_blobfish_the_tab_says_it_is_not_configured(bf: BlobfishServer) -> None:
    app = make_board_app(bf, bench=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="the leaderboard")
        await pilot.press("]")
        await wait_for(pilot, lambda: "Blobfish is not configured" in frame_text(app), what="the sentence")
        await pilot.press("p")
        await pilot.pause(0.1)
        assert isinstance(app.screen, LeaderboardScreen)
        app.push_screen(PublishBenchRunScreen(SLUG, "bmrs_x"))  # as the run watch would
        await wait_for(pilot, lambda: "Blobfish is not configured" in frame_text(app), what="the dialog's sentence")
        await pilot.press("ctrl+s")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, ConfirmScreen)


async def test_an_unknown_slug_says_the_platform_has_no_such_benchmark(bf: BlobfishServer) -> None:
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        await open_board(pilot, "nosuchbench-1")
        await wait_for(
            pilot, lambda: "Blobfish has no benchmark 'nosuchbench-1' (404)" in frame_text(app), what="the sentence"
        )


async def test_an_empty_board_says_the_platform_returned_no_rows(bf: BlobfishServer) -> None:
    bf.benchmarks.board[SLUG].clear()  # the platform has no community run for this benchmark
    app = make_board_app(bf)
    async with app.run_test(size=SIZE) as pilot:
        community = await open_board(pilot)
        assert community.rows == []
        await wait_for(
            pilot,
            lambda: "the platform returned no community runs for this benchmark" in frame_text(app),
            what="the sentence",
        )
        assert HONESTY_LINE[:40] in frame_text(app)
