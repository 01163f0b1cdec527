"""A pushed page that shows one block of text, scrolled (the bake-off's failure clusters, its
evidence bundle): the layout and the drawing written once; each page loads its own block."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.base_screen import BlahScreen
from widgets.footer import KeyFooter
from widgets.status_header import StatusHeader


class TextPageScreen(BlahScreen):
    """Header, the block (``#<PAGE>-body`` in ``#<PAGE>-scroll``), footer. ``body_text`` is what
    the page shows now (the loading line until the first ``draw``)."""

    DEFAULT_CSS = """
    TextPageScreen .page-scroll { height: 1fr; }
    TextPageScreen .page-body { height: auto; padding: 0 1; }
    """

    PAGE: ClassVar[str]
    """The prefix of the page's ids."""
    LOADING: ClassVar[str]
    """The line shown until the block arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.body_text = Text()

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with VerticalScroll(id=f"{self.PAGE}-scroll", classes="page-scroll"):
            yield Static(Text(self.LOADING), id=f"{self.PAGE}-body", classes="page-body")
        yield KeyFooter()

    def draw(self, text: Text) -> None:
        self.body_text = text
        self.query_one(f"#{self.PAGE}-body", Static).update(text)
