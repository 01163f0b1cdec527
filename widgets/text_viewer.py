"""``TextViewer``: one long untrusted text, verbatim and inert, scrollable.

Why not ``TextArea(read_only=True)``: it writes control characters through as they are (an ESC
in the document reaches the terminal inside a segment) and it has no way to dim a sanitizer
marker differently from the text. This is a Line-API widget over ``TextLayout``: only visible
lines are turned into Strips, so a 1 MB single line scrolls without freezing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.errors import StyleSyntaxError
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from widgets.text_layout import TEMPLATE_TOKENS, TextLayout

__all__ = ["TEMPLATE_TOKENS", "TextViewer"]

_FALLBACK_SPAN_STYLE = Style(reverse=True)


def _parse_style(style: str | Style) -> Style:
    if isinstance(style, Style):
        return style
    try:
        return Style.parse(style)
    except StyleSyntaxError:  # a bad style from a caller must not crash the viewer
        return _FALLBACK_SPAN_STYLE


class TextViewer(ScrollView, can_focus=True):
    """Shows ``text`` sanitized (markers dimmed), wrapped, with template tokens highlighted.

    ``highlight_spans`` takes ``(start, end, style)`` in ORIGINAL-text offsets; ``style`` is a
    Rich style string or ``Style``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "toggle_whitespace", "Whitespace", id="text_viewer.toggle_whitespace"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"text-viewer--token"}

    DEFAULT_CSS = """
    TextViewer {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;
        background: $surface;
        & > .text-viewer--token { color: $accent; text-style: bold underline; }
    }
    """

    show_whitespace: reactive[bool] = reactive(False)
    """Draw spaces as ``·``, tabs as ``→``, line ends as ``⏎`` (all dim)."""

    def __init__(
        self,
        text: str | None = "",
        *,
        show_whitespace: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._text = text or ""
        self._spans: list[tuple[int, int, Style]] = []
        self._layout = TextLayout(self._text, show_whitespace=show_whitespace)
        self._cache: LRUCache[tuple[int, int], Strip] = LRUCache(1024)
        self._styled = False
        self._paint: tuple[int, Style] | None = None
        self.set_reactive(TextViewer.show_whitespace, show_whitespace)

    # ------------------------------------------------------------------ public API

    @property
    def text(self) -> str:
        """The original (unsanitized) text."""
        return self._text

    @property
    def display_text(self) -> str:
        """What is shown, before wrapping (sanitized; glyphs when whitespace is on)."""
        return self._layout.display

    @property
    def line_count(self) -> int:
        return len(self._layout.lines(self._wrap_width()))

    def set_text(self, text: str | None) -> None:
        """Show another text; finding spans are cleared (they referred to the old text)."""
        self._text = text or ""
        self._spans = []
        self._rebuild()
        self.scroll_to(y=0, animate=False, immediate=True)

    def highlight_spans(self, spans: Sequence[tuple[int, int, str | Style]]) -> None:
        """Highlight findings; offsets refer to the ORIGINAL text and are clamped to it."""
        self._spans = [(int(s), int(e), _parse_style(style)) for s, e, style in spans]
        self._layout.set_findings(self._spans)
        self._cache.clear()
        self.refresh()

    def action_toggle_whitespace(self) -> None:
        self.show_whitespace = not self.show_whitespace

    # ------------------------------------------------------------------ reactive / events

    def watch_show_whitespace(self, value: bool) -> None:
        self._rebuild()

    def on_resize(self, event: events.Resize) -> None:
        self._cache.clear()
        self._update_virtual_size()

    def on_mount(self) -> None:
        self._update_virtual_size()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styled = False
        self._cache.clear()

    # ------------------------------------------------------------------ rendering

    def render_lines(self, crop: Region) -> list[Strip]:
        # Widget style and content width are costly to resolve: once per paint, not per line.
        self._paint = (self._wrap_width(), self.rich_style)
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        width, base = self._paint if self._paint is not None else (self._wrap_width(), self.rich_style)
        index = int(self.scroll_y) + y
        lines = self._layout.lines(width)
        if index >= len(lines):
            return Strip.blank(width, base)
        self._ensure_styled()
        key = (index, width)
        strip = self._cache.get(key)
        if strip is None:
            start, end = lines[index]
            text = self._layout.line_text(start, end)
            strip = Strip(text.render(self.app.console), text.cell_len)
            strip = strip.apply_style(base).crop_extend(0, width, base)
            self._cache[key] = strip
        return strip

    # ------------------------------------------------------------------ internals

    def _wrap_width(self) -> int:
        return max(1, self.scrollable_content_region.width)

    def _ensure_styled(self) -> None:
        if not self._styled:
            token = self.get_component_rich_style("text-viewer--token", partial=True)
            self._layout.set_token_style(token)
            self._styled = True

    def _rebuild(self) -> None:
        self._layout = TextLayout(self._text, show_whitespace=self.show_whitespace)
        self._layout.set_findings(self._spans)
        self._styled = False
        self._cache.clear()
        self._update_virtual_size()
        self.refresh()

    def _update_virtual_size(self) -> None:
        # Not before the first layout: at width 0 the text would be wrapped one cell wide (a
        # megabyte became a million lines, half a second each time) only to be wrapped again
        # at the real width by the Resize that follows.
        if self.is_mounted and self.scrollable_content_region.width > 0:
            self.virtual_size = Size(0, self.line_count)
