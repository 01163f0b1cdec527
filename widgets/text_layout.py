"""Pure layout for ``TextViewer``: sanitized display text, offset mapping, wrapping, spans.

Sanitizing lengthens text (``\\x1b`` -> ``^[``, U+202E -> ``<U+202E>``, tab -> 4 cells), so
offsets into the ORIGINAL text (findings, template tokens) are mapped through the list of
pieces the display string was built from. Wrapping is done here on plain strings (not by Rich),
so a 1 MB single line costs a few thousand string slices instead of a Rich wrap.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.cells import get_character_cell_size
from rich.style import Style
from rich.text import Text

from common.chat_markers import TEMPLATE_TOKENS
from widgets.safe_text import (
    MARKER_STYLE,
    NEWLINE_GLYPH,
    SPACE_GLYPH,
    TAB_GLYPH,
    WHITESPACE_STYLE,
    iter_pieces,
)

__all__ = [
    "MAX_VIEW_CHARS",
    "TEMPLATE_TOKENS",
    "TEMPLATE_TOKEN_PATTERN",
    "TextLayout",
    "template_token_spans",
]

MAX_VIEW_CHARS = 2_000_000
"""Original characters shown; the rest is replaced by a ``…(+N chars)`` marker."""

_WORD_TOKENS = {"USER:", "ASSISTANT:"}
TEMPLATE_TOKEN_PATTERN = re.compile(
    "|".join(
        (r"\b" if token in _WORD_TOKENS else "") + re.escape(token)
        for token in sorted(TEMPLATE_TOKENS, key=len, reverse=True)
    )
)

_TAB = "    "
_TAB_WS = TAB_GLYPH + "   "
_PLAIN, _MARKER, _GLYPH = 0, 1, 2


def template_token_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every chat-template token in ``text`` (original offsets)."""
    return [m.span() for m in TEMPLATE_TOKEN_PATTERN.finditer(text)]


@dataclass(slots=True)
class _Spans:
    """Display-coordinate spans sorted by start, with the longest length for windowed lookup."""

    starts: list[int] = field(default_factory=list)
    items: list[tuple[int, int, Style]] = field(default_factory=list)
    longest: int = 0

    @classmethod
    def build(cls, spans: Iterable[tuple[int, int, Style]]) -> _Spans:
        items = sorted((s for s in spans if s[1] > s[0]), key=lambda s: s[0])
        return cls([s[0] for s in items], items, max((e - s for s, e, _ in items), default=0))

    def overlapping(self, start: int, end: int) -> Iterable[tuple[int, int, Style]]:
        lo = bisect_left(self.starts, start - self.longest)
        hi = bisect_left(self.starts, end)
        return (s for s in self.items[lo:hi] if s[1] > start)


class TextLayout:
    """Display string + piece map for one text in one whitespace mode."""

    def __init__(self, text: str | None, *, show_whitespace: bool = False) -> None:
        self.original = text or ""
        self.show_whitespace = show_whitespace
        orig: list[int] = []
        disp: list[int] = []
        kinds: list[int] = []
        chunks: list[str] = []
        length = 0
        ws = re.compile("[\t\n ]" if show_whitespace else "\t")
        tab = _TAB_WS if show_whitespace else _TAB

        def add(o: int, shown: str, kind: int) -> None:
            nonlocal length
            orig.append(o)
            disp.append(length)
            kinds.append(kind)
            chunks.append(shown)
            length += len(shown)

        for o_start, _o_end, shown, is_marker in iter_pieces(self.original, max_len=MAX_VIEW_CHARS):
            if is_marker:
                add(o_start, shown, _MARKER)
                continue
            pos = 0
            for match in ws.finditer(shown):
                char, at = match.group(), match.start()
                if char == " ":
                    continue  # 1:1, drawn as a glyph at render time
                if at > pos:
                    add(o_start + pos, shown[pos:at], _PLAIN)
                add(o_start + at, tab if char == "\t" else NEWLINE_GLYPH + "\n", _GLYPH)
                pos = at + 1
            if pos < len(shown):
                add(o_start + pos, shown[pos:], _PLAIN)
        self.display = "".join(chunks)
        self._orig, self._disp, self._kinds = orig, disp, kinds
        self._orig_len = min(len(self.original), MAX_VIEW_CHARS)
        self._tokens = _Spans()
        self._findings = _Spans()
        self._lines: list[tuple[int, int]] = []
        self._width = -1

    # ------------------------------------------------------------------ offsets

    def to_display(self, offset: int) -> int:
        """Map an offset in the original text to the display string."""
        offset = min(max(offset, 0), self._orig_len)
        if offset == self._orig_len:
            return self._end_display()
        k = bisect_right(self._orig, offset) - 1
        if self._kinds[k] == _PLAIN:
            return self._disp[k] + (offset - self._orig[k])
        return self._disp[k]

    def _end_display(self) -> int:
        """Display offset just after the last original char shown (before a cut marker)."""
        if self._kinds and self._kinds[-1] == _MARKER and self._orig[-1] == self._orig_len:
            return self._disp[-1]
        return len(self.display)

    def set_token_style(self, style: Style) -> None:
        spans = template_token_spans(self.original[: self._orig_len])
        self._tokens = _Spans.build((self.to_display(s), self.to_display(e), style) for s, e in spans)

    def set_findings(self, spans: Sequence[tuple[int, int, Style]]) -> None:
        """Finding spans in ORIGINAL offsets (clamped; empty or reversed spans ignored)."""
        self._findings = _Spans.build((self.to_display(s), self.to_display(e), st) for s, e, st in spans)

    # ------------------------------------------------------------------ wrapping

    def lines(self, width: int) -> list[tuple[int, int]]:
        """Display ``(start, end)`` of each screen line when wrapped at ``width`` cells."""
        if width != self._width:
            self._lines = _wrap(self.display, max(width, 1))
            self._width = width
        return self._lines

    # ------------------------------------------------------------------ rendering

    def line_text(self, start: int, end: int) -> Text:
        """The styled ``Text`` of one screen line."""
        segment = self.display[start:end]
        if self.show_whitespace and " " in segment:
            segment = segment.replace(" ", SPACE_GLYPH)
        text = Text(segment, end="", no_wrap=True)
        k = max(bisect_right(self._disp, start) - 1, 0)
        while k < len(self._disp) and self._disp[k] < end:
            kind = self._kinds[k]
            if kind != _PLAIN:
                p_end = self._disp[k + 1] if k + 1 < len(self._disp) else len(self.display)
                piece_style = MARKER_STYLE if kind == _MARKER else WHITESPACE_STYLE
                text.stylize(piece_style, max(self._disp[k], start) - start, min(p_end, end) - start)
            k += 1
        if self.show_whitespace:
            for match in re.finditer(" ", self.display[start:end]):
                text.stylize(WHITESPACE_STYLE, match.start(), match.start() + 1)
        for spans in (self._tokens, self._findings):
            for s, e, span_style in spans.overlapping(start, end):
                text.stylize(span_style, max(s, start) - start, min(e, end) - start)
        return text


def _wrap(display: str, width: int) -> list[tuple[int, int]]:
    """Greedy wrap: break after the last space that fits, else hard-break at ``width`` cells."""
    lines: list[tuple[int, int]] = []
    start = 0
    total = len(display)
    all_ascii = display.isascii()
    while True:
        newline = display.find("\n", start)
        line_end = total if newline < 0 else newline
        if all_ascii or display[start:line_end].isascii():
            _wrap_ascii(display, start, line_end, width, lines)
        else:
            _wrap_cells(display, start, line_end, width, lines)
        if newline < 0:
            return lines
        start = newline + 1


def _wrap_ascii(display: str, start: int, end: int, width: int, out: list[tuple[int, int]]) -> None:
    pos = start
    while end - pos > width:
        cut = display.rfind(" ", pos, pos + width)
        stop = cut + 1 if cut > pos else pos + width
        out.append((pos, stop))
        pos = stop
    out.append((pos, end))


def _wrap_cells(display: str, start: int, end: int, width: int, out: list[tuple[int, int]]) -> None:
    pos = start
    cells = 0
    last_space = -1
    index = start
    while index < end:
        char = display[index]
        size = get_character_cell_size(char)
        if cells + size > width and index > pos:
            stop = last_space + 1 if last_space >= pos else index
            out.append((pos, stop))
            pos = stop
            cells = sum(get_character_cell_size(c) for c in display[pos:index])
            last_space = -1
        if char == " ":
            last_space = index
        cells += size
        index += 1
    out.append((pos, end))
