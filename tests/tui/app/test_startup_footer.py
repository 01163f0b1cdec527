"""The footer: one widget that draws the screen's keys, laid out once per change, and that
answers the mouse as Textual's Footer did.

Textual's Footer mounts a widget per key and builds them all again on every change of bindings
(each focus or screen change): the Logs screen's 21 keys were styled, mounted and laid out
before its first frame, and again on each change. ``KeyFooter`` draws the same cells (the
snapshots hold it to that) from one widget. The start-up benchmark measures the time; these
tests keep the causes away without timing anything, and keep the mouse working.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from tests.support.chatroom import screen_text
from tests.support.waiting import wait_for
from widgets.footer import KeyFooter, ShownKey


class CountingFooter(KeyFooter):
    """A KeyFooter that counts how often it laid out its keys."""

    laid_out = 0

    def _lay_out(self, offered: Any) -> Any:
        self.laid_out += 1
        return super()._lay_out(offered)


MOVE = Binding.Group("Move", compact=True)


class ArchiveScreen(Screen[None]):
    """A screen whose ``a`` key is offered only while ``archived`` is off; ``d`` is shown
    but disabled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "archive", "Archive", id="test.archive"),
        Binding("u", "unarchive", "Unarchive", id="test.unarchive"),
        Binding("d", "delete", "Delete", id="test.delete"),
        Binding("question_mark", "app.help", "Help", id="test.help"),
        Binding("n", "move('down')", "Next call", id="test.next", group=MOVE),
        Binding("p", "move('up')", "Previous call", id="test.previous", group=MOVE),
    ]

    archived = False

    def compose(self) -> ComposeResult:
        yield Static("calls")
        yield CountingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "archive":
            return not self.archived
        if action == "unarchive":
            return self.archived
        if action == "delete":
            return None  # shown, but not available now
        return True

    def action_move(self, where: str) -> None:
        pass

    def action_archive(self) -> None:
        # Three changes of bindings before the next frame, as when a screen mounts, focuses
        # a widget and shows its rows.
        self.archived = True
        for _ in range(3):
            self.refresh_bindings()


class FooterApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.bells = 0
        self.helped = 0

    def on_mount(self) -> None:
        self.push_screen(ArchiveScreen())

    def bell(self) -> None:
        self.bells += 1

    def action_help(self) -> None:
        self.helped += 1


def _footer(app: App[Any]) -> CountingFooter:
    return app.screen.query_one(CountingFooter)


def _key(app: App[Any], key: str) -> ShownKey:
    return next(shown for shown in _footer(app).keys if shown.key == key)


async def test_the_footer_draws_its_keys_without_a_widget_per_key() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in [key.key for key in _footer(app).keys], what="the footer's keys")
        await pilot.pause()
        assert not _footer(app).children
        line = screen_text(app).splitlines()[-1]  # the footer's row, as drawn
        assert line.startswith(" a Archive  d Delete ")
        assert line.endswith("▏ ? Help ^p palette ")  # pinned right
        assert " np Move " in line  # a group: its keys, then its label


async def test_changes_of_bindings_before_a_frame_lay_out_the_keys_once() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in [key.key for key in _footer(app).keys], what="the footer's keys")
        await pilot.pause()
        before = _footer(app).laid_out
        await pilot.press("a")
        await pilot.pause()
        shown = [key.key for key in _footer(app).keys]
        assert "u" in shown and "a" not in shown
        assert _footer(app).laid_out == before + 1  # three changes, one layout


async def test_clicking_a_key_presses_it_a_disabled_one_rings_and_hovering_says_what_it_does() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in [key.key for key in _footer(app).keys], what="the footer's keys")
        await pilot.pause()
        archive = _key(app, "a")
        await pilot.click(CountingFooter, offset=(archive.x + 1, 0))
        await wait_for(pilot, lambda: app.screen.archived, what="Archive pressed by a click")
        delete = _key(app, "d")
        assert not delete.enabled
        await pilot.click(CountingFooter, offset=(delete.x + 1, 0))
        assert app.bells == 1
        assert app.screen.archived  # and nothing else happened
        grouped = _key(app, "n")
        await pilot.hover(CountingFooter, offset=(grouped.x, 0))
        await wait_for(pilot, lambda: _footer(app).tooltip == "Next call", what="the grouped key's tooltip")
        helper = _key(app, "question_mark")
        await pilot.hover(CountingFooter, offset=(helper.x + 1, 0))
        assert _footer(app).tooltip is None  # help has no tooltip of its own
        await pilot.click(CountingFooter, offset=(helper.x + 1, 0))
        await wait_for(pilot, lambda: app.helped == 1, what="help pressed by a click on the pinned key")
