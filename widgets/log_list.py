"""``LogList``: a list of calls that stays fast at a million rows.

Only visible lines are rendered (Textual's Line API, like Textualize/toolong) and each rendered
line is kept in an LRU cache keyed by ``(index, width, selected)``. Rows come from a plain list
(``set_rows`` / ``append_rows`` / ``prepend_rows``) or from any ``RowSource`` (``__len__`` and
``row(i)``) whose owner calls ``notify_appended`` / ``notify_prepended`` after changing it.

Follow mode: while the cursor is on the newest row, appended rows move it along (live tail).
Once the user moves up or scrolls up, the view stays put, ``new_since_pause`` counts arrivals and
``NewWhilePaused`` is posted; ``follow()`` (or End / G) jumps back to live.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import tzinfo
from typing import ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from application.logs.row import ListRowSource, LogRow, RowSource, TimeFormat
from widgets.log_columns import time_format
from widgets.log_paint import LinePainter

__all__ = ["LogList", "LogRow", "RowSource"]


class LogList(ScrollView, can_focus=True):
    """Scrollable, keyboard-driven list of ``LogRow`` with follow mode and search highlight."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, id="log_list.cursor_up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="log_list.cursor_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="log_list.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="log_list.page_down"),
        Binding("home,g", "first", "Oldest", show=False, id="log_list.first"),
        Binding("end,G", "last", "Live", id="log_list.last"),
        Binding("enter", "select", "Open", id="log_list.select"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "log-list--header",
        "log-list--cursor",
        "log-list--dim",
        "log-list--error",
        "log-list--warning",
        "log-list--match",
    }

    DEFAULT_CSS = """
    LogList {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;
        background: $surface;
        & > .log-list--header { background: $panel; color: $foreground; text-style: bold; }
        & > .log-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .log-list--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .log-list--dim { color: $text-muted; }
        & > .log-list--error { color: $text-error; text-style: bold; }
        & > .log-list--warning { color: $text-warning; }
        & > .log-list--match { background: $warning 50%; text-style: bold; }
    }
    """

    class _ListMessage(Message):
        """A message about this list: ``control`` is the list, so ``@on(..., "#id")`` picks it."""

        def __init__(self, log_list: LogList | None = None) -> None:
            super().__init__()
            self.log_list = log_list

        @property
        def control(self) -> LogList | None:
            return self.log_list

    class _EntryMessage(_ListMessage):
        def __init__(self, entry_id: str, index: int, log_list: LogList | None = None) -> None:
            super().__init__(log_list)
            self.entry_id = entry_id
            self.index = index

    class Highlighted(_EntryMessage):
        """The cursor moved to another entry."""

    class Selected(_EntryMessage):
        """Enter (or a click on the cursor row): open this entry."""

    class NewWhilePaused(_ListMessage):
        """Rows arrived while the user was reading older ones; ``count`` since the pause."""

        def __init__(self, count: int, log_list: LogList | None = None) -> None:
            super().__init__(log_list)
            self.count = count

    class NeedOlder(_ListMessage):
        """The user reached the oldest row: load history and call ``prepend_rows``.
        ``to_oldest``: they asked for the oldest of all (``g``), not just the next page."""

        def __init__(self, log_list: LogList | None = None, *, to_oldest: bool = False) -> None:
            super().__init__(log_list)
            self.to_oldest = to_oldest

    following: var[bool] = var(True)
    """True while the list tails new rows (cursor on the newest)."""
    new_since_pause: var[int] = var(0)
    """Rows appended since follow mode was paused (0 while following)."""
    has_older: var[bool] = var(True)
    """Set False when there is no more history, so ``NeedOlder`` stops being posted."""

    def __init__(
        self,
        rows: Sequence[LogRow] | RowSource = (),
        *,
        tz: tzinfo | None = None,
        badge_styles: Mapping[str, Style | str] | None = None,
        show_header: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._source: RowSource = ListRowSource([])
        self._cursor = -1
        self._painter = LinePainter(self, tz=tz, badge_styles=badge_styles)
        self._show_header = show_header
        self._need_older_sent = False
        self._programmatic_scroll = 0
        self._paint_width: int | None = None
        self._after_paint: dict[Callable[[], object], None] = {}
        self._set_source(rows)
        self._cursor = len(self._source) - 1

    # ------------------------------------------------------------------ public API

    @property
    def row_count(self) -> int:
        return len(self._source)

    @property
    def cursor_index(self) -> int:
        """Index of the cursor row, -1 when the list is empty."""
        return self._cursor

    @property
    def current_entry_id(self) -> str | None:
        return self._source.row(self._cursor).id if self._cursor >= 0 else None

    def row_at(self, index: int) -> LogRow:
        return self._source.row(index)

    def set_rows(self, rows: Sequence[LogRow] | RowSource, *, follow: bool = True) -> None:
        """Replace every row. With ``follow`` the cursor goes to the newest row (live)."""
        previous = self.current_entry_id
        self._set_source(rows)
        self._painter.forget_lines()
        self._need_older_sent = False
        count = len(self._source)
        self._cursor = count - 1 if follow else min(max(self._cursor, 0), count - 1)
        self.following = follow
        self.new_since_pause = 0
        self._update_virtual_size()
        self._scroll_to_cursor(to_end=follow)
        self.refresh()
        if self.current_entry_id is not None and self.current_entry_id != previous:
            self._post_highlighted()

    def append_rows(self, rows: Sequence[LogRow]) -> None:
        """Add newer rows at the bottom (list storage only)."""
        self._list_source().rows.extend(rows)
        self.notify_appended(len(rows))

    def prepend_rows(self, rows: Sequence[LogRow]) -> None:
        """Add older rows at the top, keeping the viewport and cursor on the same entries."""
        self._list_source().rows[0:0] = rows
        self.notify_prepended(len(rows))

    def notify_appended(self, count: int) -> None:
        """The source gained ``count`` rows at the end."""
        if count <= 0:
            return
        self._update_virtual_size()
        if self.following or self._cursor < 0:
            self._cursor = len(self._source) - 1
            self._scroll_to_cursor(to_end=True)
            self._post_highlighted()
        else:
            self.new_since_pause += count
            self.post_message(self.NewWhilePaused(self.new_since_pause, self))
        self.refresh()

    def notify_prepended(self, count: int) -> None:
        """The source gained ``count`` rows at the start (indices shift; the view does not)."""
        if count <= 0:
            return
        self._painter.forget_lines()
        self._need_older_sent = False
        self._update_virtual_size()
        if self._cursor < 0:
            self._cursor = len(self._source) - 1
            self._post_highlighted()
        else:
            self._cursor += count
        self._scroll_programmatically(self.scroll_y + count)
        self.refresh()

    def follow(self) -> None:
        """Jump back to live: cursor on the newest row, tail new rows again."""
        self.following = True
        self.new_since_pause = 0
        self._move_cursor(len(self._source) - 1, user=False)
        self._scroll_to_cursor(to_end=True)

    def move_cursor_to(self, index: int) -> None:
        """Put the cursor on row ``index`` (scrolled into view), as if the person moved it:
        off the newest row the list stops following."""
        self._move_cursor(index)

    def call_after_paint(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` (once) after the next frame that draws this list has been handed to
        the terminal: for slower work that must not delay the rows a person reads first. Not
        a timer, which a loaded machine can fire before the frame."""
        self._after_paint[callback] = None
        self.refresh()

    def set_highlight(self, terms: Sequence[str]) -> None:
        """Highlight case-insensitive matches of any term in the previews (empty: none)."""
        self._painter.set_terms(terms)
        self.refresh()

    # ------------------------------------------------------------------ actions

    def action_cursor_up(self) -> None:
        if self._cursor <= 0:
            self._maybe_need_older()
            return
        self._move_cursor(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self._move_cursor(self._cursor + 1)

    def action_page_up(self) -> None:
        if self._cursor <= 0:
            self._maybe_need_older()
            return
        self._move_cursor(self._cursor - self._page_rows())

    def action_page_down(self) -> None:
        self._move_cursor(self._cursor + self._page_rows())

    def action_first(self) -> None:
        self._move_cursor(0)
        if self.has_older and len(self._source) > 0:  # the real oldest may not be loaded yet
            self._need_older_sent = True
            self.post_message(self.NeedOlder(self, to_oldest=True))

    def action_last(self) -> None:
        self.follow()

    def action_select(self) -> None:
        if self._cursor >= 0:
            row = self._source.row(self._cursor)
            self.post_message(self.Selected(row.id, self._cursor, self))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = int(self.scroll_y) + offset.y - self._header_lines
        if offset.y < self._header_lines or not 0 <= index < len(self._source):
            return
        if index == self._cursor:
            self.action_select()
        else:
            self._move_cursor(index)

    # ------------------------------------------------------------------ rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        # Resolving the widget style and content width costs more than rendering a cached
        # line, so do it once per paint instead of once per line.
        self._paint_width = self.scrollable_content_region.width
        if self._painter.set_dates(self._dates_on_screen()):
            self.refresh()  # lines outside ``crop`` show the other format: repaint them too
        try:
            return super().render_lines(crop)
        finally:
            self._paint_width = None
            if self._after_paint:
                # The screen renders and hands the frame to the driver in one go: these run
                # after that, once this list's messages are next handled.
                for callback in self._after_paint:
                    self.call_later(callback)
                self._after_paint.clear()

    def _dates_on_screen(self) -> TimeFormat:
        """The time column shows the date when the rows on screen span more than one day."""
        count = len(self._source)
        if count == 0:
            return "time"
        top = min(max(int(self.scroll_y), 0), count - 1)
        bottom = min(top + self._visible_rows() - 1, count - 1)
        first, last = self._source.row(top).created_at, self._source.row(bottom).created_at
        return time_format(first, last, self._painter.tz)

    def render_line(self, y: int) -> Strip:
        width = self._paint_width if self._paint_width is not None else self.scrollable_content_region.width
        if y < self._header_lines:
            return self._painter.header(width)
        index = int(self.scroll_y) + y - self._header_lines
        if not 0 <= index < len(self._source):
            return self._painter.blank(width)
        selected = index == self._cursor
        cached = self._painter.cached(index, width, selected)
        return cached or self._painter.row(index, self._source.row(index), width, selected)

    def notify_style_update(self) -> None:
        """Theme or CSS changed: every cached line has stale colours."""
        super().notify_style_update()
        self._painter.forget_styles()

    # ------------------------------------------------------------------ internals

    @property
    def _header_lines(self) -> int:
        return 1 if self._show_header else 0

    def _set_source(self, rows: Sequence[LogRow] | RowSource) -> None:
        if isinstance(rows, list):
            self._source = ListRowSource(rows)
        elif isinstance(rows, RowSource) and not isinstance(rows, ListRowSource):
            self._source = rows
        else:
            self._source = ListRowSource(list(rows))  # type: ignore[arg-type]  # a tuple of rows here

    def _list_source(self) -> ListRowSource:
        if not isinstance(self._source, ListRowSource):
            raise TypeError("LogList shows a custom RowSource: change it, then call notify_appended / notify_prepended")
        return self._source

    def _page_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - self._header_lines - 1)

    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - self._header_lines)

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(0, len(self._source) + self._header_lines)

    def _move_cursor(self, index: int, *, user: bool = True) -> None:
        count = len(self._source)
        if count == 0:
            return
        index = min(max(index, 0), count - 1)
        if user:
            at_end = index == count - 1
            if at_end and not self.following:
                self.following = True
                self.new_since_pause = 0
            elif not at_end and self.following:
                self.following = False
                self.new_since_pause = 0
        if index == self._cursor:
            return
        previous, self._cursor = self._cursor, index
        scroll_before = self.scroll_y
        self._scroll_to_cursor()
        if self.scroll_y == scroll_before:
            self.refresh_line(previous + self._header_lines)
            self.refresh_line(index + self._header_lines)
        else:
            self.refresh()
        self._post_highlighted()

    def _post_highlighted(self) -> None:
        if self._cursor >= 0:
            row = self._source.row(self._cursor)
            self.post_message(self.Highlighted(row.id, self._cursor, self))

    def _scroll_to_cursor(self, *, to_end: bool = False) -> None:
        if to_end:
            self._scroll_programmatically(self.max_scroll_y)
            return
        top = int(self.scroll_y)
        visible = self._visible_rows()
        if self._cursor < top:
            self._scroll_programmatically(self._cursor)
        elif self._cursor >= top + visible:
            self._scroll_programmatically(self._cursor - visible + 1)

    def _scroll_programmatically(self, y: float) -> None:
        self._programmatic_scroll += 1
        try:
            self.scroll_to(y=y, animate=False, immediate=True, force=True)
        finally:
            self._programmatic_scroll -= 1

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self._programmatic_scroll:
            return
        if new_value < old_value and new_value < self.max_scroll_y and self.following:
            self.following = False
            self.new_since_pause = 0
        if new_value <= 0 and old_value > 0:
            self._maybe_need_older()

    def _maybe_need_older(self) -> None:
        if self.has_older and not self._need_older_sent and len(self._source) > 0:
            self._need_older_sent = True
            self.post_message(self.NeedOlder(self))

    def on_mount(self) -> None:
        self._update_virtual_size()
        self.call_after_refresh(self._scroll_to_cursor, to_end=self.following)

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        """Sized by the layout, before the frame is drawn: a following list is put at its
        newest rows now. Left to ``on_mount``'s scroll (after the first refresh), the first
        frame drew the oldest screenful (reading the far end of an archive) and the next one
        the newest: twice the lines painted for the first paint of a list built with rows."""
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if self.following and len(self._source) and self.scroll_y != self.max_scroll_y:
            self.set_reactive(LogList.scroll_y, self.max_scroll_y)  # no watcher: nothing to refresh yet
        return changed

    def on_resize(self, event: events.Resize) -> None:
        self._painter.forget_lines()
        if self.following:
            self.call_after_refresh(self._scroll_to_cursor, to_end=True)
        else:
            self.call_after_refresh(self._scroll_to_cursor)
