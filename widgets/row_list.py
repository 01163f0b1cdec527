"""``RowList``: a virtual list of one-line rows, drawn only where they are on screen.

For long lists of small rows (a 2,000-step rollout) where Textual's DataTable measures and
lays out every cell first: here a row is asked for (``row(index) -> Text``) only when it
scrolls into view, and its line is cached. A header line stays on top. Talks upward with
``Highlighted`` / ``Selected`` messages; keys: arrows, page up/down, home/end, Enter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["RowList"]


class RowList(ScrollView, can_focus=True):
    """``count`` rows; ``row(index)`` gives row ``index`` as one line of ``Text``."""

    DEFAULT_CSS = """
    RowList { background: $surface; }
    RowList > .row-list--header { text-style: bold; color: $foreground-muted; }
    RowList > .row-list--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    RowList:blur > .row-list--cursor { background: $block-cursor-blurred-background; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--header", "row-list--cursor"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False, id="row_list.up"),
        Binding("down", "move(1)", "Down", show=False, id="row_list.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="row_list.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="row_list.page_down"),
        Binding("home", "first", "First", show=False, id="row_list.first"),
        Binding("end", "last", "Last", show=False, id="row_list.last"),
        Binding("enter", "select", "Open", show=False, id="row_list.select"),
    ]

    class Highlighted(Message):
        def __init__(self, row_list: RowList, index: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.index = index

    class Selected(Highlighted):
        pass

    def __init__(
        self,
        count: int,
        row: Callable[[int], Text],
        header: Text | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.count = count
        self._row = row
        self._header = header
        self.cursor = 0
        self._lines: dict[tuple[int, int, bool], Strip] = {}
        self._paint: tuple[int, Style, Style, Style] | None = None
        """(width, base, header, cursor styles) for the paint under way: resolving them costs
        more than drawing a cached line, so once per paint."""

    # ------------------------------------------------------------------ size and drawing

    @property
    def _header_lines(self) -> int:
        return 1 if self._header is not None else 0

    def on_mount(self) -> None:
        self.virtual_size = Size(0, self.count + self._header_lines)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()

    def _strip(self, text: Text, width: int, style: Style) -> Strip:
        line = text.copy()
        line.no_wrap = True
        line.truncate(width, overflow="ellipsis", pad=True)
        segments = [
            Segment(s.text, style + s.style if s.style else style)
            for s in line.render(self.app.console)
            if s.text != "\n"
        ]
        return Strip(segments, width).crop_extend(0, width, style)

    def render_lines(self, crop: Region) -> list[Strip]:
        base = self.rich_style
        self._paint = (
            self.scrollable_content_region.width,
            base,
            base + self.get_component_rich_style("row-list--header"),
            base + self.get_component_rich_style("row-list--cursor"),
        )
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        if self._paint is None:
            base = self.rich_style
            width, header, cursor = (
                self.scrollable_content_region.width,
                base + self.get_component_rich_style("row-list--header"),
                base + self.get_component_rich_style("row-list--cursor"),
            )
        else:
            width, base, header, cursor = self._paint
        if y < self._header_lines and self._header is not None:
            return self._strip(self._header, width, header)
        index = int(self.scroll_y) + y - self._header_lines
        if not 0 <= index < self.count:
            return Strip.blank(width, base)
        selected = index == self.cursor
        key = (index, width, selected)
        cached = self._lines.get(key)
        if cached is None:
            style = cursor if selected else base
            cached = self._lines[key] = self._strip(self._row(index), width, style)
            if len(self._lines) > 4_000:
                self._lines.clear()
        return cached

    def refresh_row(self, index: int) -> None:
        """Row ``index`` changed: draw it again."""
        for key in [k for k in self._lines if k[0] == index]:
            del self._lines[key]
        y = index - int(self.scroll_y) + self._header_lines
        self.refresh_line(y)

    # ------------------------------------------------------------------ the cursor

    def move_to(self, index: int) -> None:
        """Put the cursor on ``index`` (clamped), scroll it into view, say so (``Highlighted``)."""
        if self.count == 0:
            return
        index = max(0, min(self.count - 1, index))
        if index == self.cursor:
            return
        previous, self.cursor = self.cursor, index
        visible = max(1, self.scrollable_content_region.height - self._header_lines)
        top = int(self.scroll_y)
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index >= top + visible:
            self.scroll_to(y=index - visible + 1, animate=False, immediate=True)
        for row in (previous, index):
            self._lines.pop((row, self.scrollable_content_region.width, row == index), None)
        self.refresh()
        self.post_message(self.Highlighted(self, index))

    def on_click(self, event: events.Click) -> None:
        index = int(self.scroll_y) + event.y - self._header_lines
        if 0 <= index < self.count:
            self.move_to(index)

    def action_move(self, delta: int) -> None:
        self.move_to(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor + direction * max(1, self.scrollable_content_region.height - self._header_lines - 1))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self.count - 1)

    def action_select(self) -> None:
        if self.count:
            self.post_message(self.Selected(self, self.cursor))
