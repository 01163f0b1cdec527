"""A screen whose body is a caption over one table (Compare, Checkpoints, Results): the layout and
the caption's words written once; each screen loads its rows and says what the table shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult

from tui.base_screen import BlahScreen
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.status_header import StatusHeader


class CaptionedTableScreen(BlahScreen):
    """Header, a caption (what loads, what the table shows, or what went wrong), one table that
    takes the rest of the height, footer. Subclasses name the two ids (tests and keymaps reach
    them by id), the caption shown before anything loads, and the table's first columns."""

    DEFAULT_CSS = """
    CaptionedTableScreen .table-caption { height: auto; padding: 0 1; }
    CaptionedTableScreen KeyTable { height: 1fr; }
    """

    CAPTION_ID: ClassVar[str]
    TABLE_ID: ClassVar[str]

    def first_caption(self) -> Text | str:
        """The caption before the first load."""
        return ""

    def first_columns(self) -> Sequence[tuple[str, str]]:
        """``(label, key)`` of the columns the table starts with (none: the load adds them)."""
        return ()

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Caption(self.first_caption(), id=self.CAPTION_ID, classes="table-caption")
        yield KeyTable(id=self.TABLE_ID, columns=self.first_columns())
        yield KeyFooter()

    @property
    def caption(self) -> Caption:
        return self.query_one(f"#{self.CAPTION_ID}", Caption)

    @property
    def table(self) -> KeyTable:
        return self.query_one(f"#{self.TABLE_ID}", KeyTable)

    def _say(self, message: Text | str, *, error: bool = False) -> None:
        """Put ``message`` in the caption (literally), in the error colour when ``error``."""
        self.caption.say(message, error=error)
