"""The footer's share of start-up: its keys are styled once and composed once per change that shows.

Textual's Footer re-applies the stylesheet to every key twice right after mounting it (a key
starts compact and its binding to ``Footer.compact`` un-compacts it) and recomposes all its keys
on every change of bindings, even one that shows the same keys; the Logs screen recomposed its
21 keys four times before its first rows. ``KeyFooter`` styles each key once and recomposes only
when the keys would differ. The start-up benchmark measures the time; these tests keep the causes
away without timing anything.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from tests.support.waiting import wait_for
from widgets.footer import KeyFooter


class CountingFooter(KeyFooter):
    """A KeyFooter that counts how often it built its keys."""

    composed_with_keys = 0

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        if widgets:
            self.composed_with_keys += 1
        yield from widgets


class ArchiveScreen(Screen[None]):
    """A screen whose ``a`` key is offered only while ``archived`` is off."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "archive", "Archive", id="test.archive"),
        Binding("u", "unarchive", "Unarchive", id="test.unarchive"),
        Binding("r", "refresh_twice", "Refresh", id="test.refresh"),
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
        return True

    def action_archive(self) -> None:
        # Three changes of bindings before the next frame, as when a screen mounts, focuses
        # a widget and shows its rows.
        self.archived = True
        for _ in range(3):
            self.refresh_bindings()

    def action_refresh_twice(self) -> None:
        self.refresh_bindings()
        self.refresh_bindings()


class FooterApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.styled: list[DOMNode] = []

    def on_mount(self) -> None:
        self.push_screen(ArchiveScreen())

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        self.styled.append(node)
        super().update_styles(node, animate=animate)


def _footer(app: App[Any]) -> CountingFooter:
    return app.screen.query_one(CountingFooter)


def _keys(app: App[Any]) -> list[str]:
    return [key.key for key in _footer(app).query(FooterKey)]


async def test_opening_a_screen_styles_each_footer_key_once() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in _keys(app), what="the footer's keys")
        await pilot.pause()
        keys = list(_footer(app).query(FooterKey))
        restyled = [node for node in app.styled if isinstance(node, FooterKey)]
        assert restyled == []  # Textual's Footer restyled each key twice: compact, then not
        # ... and the keys look as Textual leaves them: the footer's compactness, the palette key compact
        for key in keys:
            expected = True if key.has_class("-command-palette") else _footer(app).compact
            assert key.compact is expected and key.has_class("-compact") is expected, key


async def test_changes_of_bindings_before_a_frame_recompose_the_footer_once() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in _keys(app), what="the footer's keys")
        await pilot.pause()
        before = _footer(app).composed_with_keys
        await pilot.press("a")
        await wait_for(pilot, lambda: "u" in _keys(app), what="Unarchive offered in the footer")
        await pilot.pause()
        assert "a" not in _keys(app)
        assert _footer(app).composed_with_keys == before + 1  # three changes, one recompose


async def test_a_change_of_bindings_that_shows_the_same_keys_does_not_rebuild_them() -> None:
    app = FooterApp()
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: "a" in _keys(app), what="the footer's keys")
        await pilot.pause()
        shown = list(_footer(app).query(FooterKey))
        composed = _footer(app).composed_with_keys
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert _footer(app).composed_with_keys == composed
        assert list(_footer(app).query(FooterKey)) == shown  # the very same widgets, still mounted
        assert all(key.is_attached for key in shown)
