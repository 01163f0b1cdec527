"""How ``LogList`` turns rows into Strips: theme styles, search terms, and the line cache.

Kept apart from the widget (which owns cursor, follow mode and scrolling) so each stays small.
Cache key: ``(index, width, selected)``; cleared when rows shift (prepend / replace), when the
terms change, and on any style update (theme switch, focus change).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import tzinfo

from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.strip import Strip
from textual.widget import Widget

from application.logs.row import LogRow, TimeFormat
from widgets.badges import theme_badge_styles
from widgets.log_columns import RowStyles, compile_terms, header_text, row_text

__all__ = ["CACHE_LINES", "LinePainter"]

CACHE_LINES = 2048


class LinePainter:
    """Paints header and row lines for one widget, resolving styles from its CSS lazily."""

    def __init__(self, widget: Widget, *, tz: tzinfo | None, badge_styles: Mapping[str, Style | str] | None) -> None:
        self._widget = widget
        self._tz = tz
        self._badge_override = badge_styles
        self._cache: LRUCache[tuple[int, int, bool], Strip] = LRUCache(CACHE_LINES)
        self._pattern: re.Pattern[str] | None = None
        self._row_styles: RowStyles | None = None
        self._line_styles: tuple[Style, Style] | None = None
        self._dates: TimeFormat = "time"

    def set_dates(self, dates: TimeFormat) -> bool:
        """Show this much of the date in the time column; True when that changed (every
        cached line is then dropped)."""
        if dates == self._dates:
            return False
        self._dates = dates
        self._cache.clear()
        return True

    def forget_lines(self) -> None:
        """Rows moved or changed: drop every cached line."""
        self._cache.clear()

    def forget_styles(self) -> None:
        """Theme/CSS/focus changed: drop resolved styles and every cached line."""
        self._row_styles = None
        self._line_styles = None
        self._cache.clear()

    def set_terms(self, terms: Sequence[str]) -> None:
        self._pattern = compile_terms(terms)
        self._cache.clear()

    def blank(self, width: int) -> Strip:
        return Strip.blank(width, self._styles()[0])

    def header(self, width: int) -> Strip:
        style = self._styles()[0] + self._widget.get_component_rich_style("log-list--header")
        return self._strip(header_text(width, self._dates), width, style)

    def row(self, index: int, row: LogRow | None, width: int, selected: bool) -> Strip:
        """The line for ``row`` at ``index`` (``row`` may be None on a cache hit path)."""
        key = (index, width, selected)
        strip = self._cache.get(key)
        if strip is None:
            assert row is not None
            base, cursor = self._styles()
            text = row_text(
                row, width, self._resolve_row_styles(), tz=self._tz, pattern=self._pattern, dates=self._dates
            )
            strip = self._strip(text, width, cursor if selected else base)
            self._cache[key] = strip
        return strip

    @property
    def tz(self) -> tzinfo | None:
        return self._tz

    def cached(self, index: int, width: int, selected: bool) -> Strip | None:
        return self._cache.get((index, width, selected))

    def _strip(self, text: Text, width: int, style: Style) -> Strip:
        strip = Strip(text.render(self._widget.app.console), text.cell_len)
        return strip.apply_style(style).crop_extend(0, width, style)

    def _styles(self) -> tuple[Style, Style]:
        """(row style, cursor row style). ``Widget.rich_style`` is costly, so it is kept."""
        if self._line_styles is None:
            base = self._widget.rich_style
            cursor = self._widget.get_component_rich_style("log-list--cursor")
            self._line_styles = (base, base + cursor)
        return self._line_styles

    def _resolve_row_styles(self) -> RowStyles:
        if self._row_styles is None:
            widget = self._widget
            badges = self._badge_override
            if badges is None:
                badges = theme_badge_styles(widget.app.get_css_variables())
            self._row_styles = RowStyles(
                dim=widget.get_component_rich_style("log-list--dim", partial=True),
                error=widget.get_component_rich_style("log-list--error", partial=True),
                warning=widget.get_component_rich_style("log-list--warning", partial=True),
                match=widget.get_component_rich_style("log-list--match", partial=True),
                badges=badges,
            )
        return self._row_styles
