"""Untrusted text (prompts, replies, errors, judge reasoning, names) as a styled Rich ``Text``.

Textual does not protect the terminal: escape sequences inside a string reach it (OSC 52 writes
the clipboard, OSC 0 sets the title, CSI 2J clears the screen) and markup-enabled widgets turn
``[@click=app.quit]x[/]`` into a live action. Everything untrusted goes through this module and
is then shown as a ``rich.text.Text`` (never parsed as markup).

Notation: the one of :mod:`common.safe_strings` (read its docstring), shared with the command
line and the markdown reports: ``^[`` for ESC, ``\\x9b`` for a C1 control, ``<U+202E>`` for a
bidi control and every other unsafe character of ``common/unsafe_chars.py``.

Text with none of these characters is returned verbatim (emoji, CJK, markup-looking brackets).
The output contains only printable characters, so sanitizing is idempotent.

``max_len`` counts characters of the ORIGINAL text: the text is cut there (before sanitizing,
so a 1 MB line costs nothing) and ``…(+N chars)`` says how many original characters were left out.
"""

from __future__ import annotations

import re

from rich.text import Text

from common.safe_strings import (
    NEWLINE_GLYPH,
    SPACE_GLYPH,
    TAB_GLYPH,
    Piece,
    is_clean,
    iter_pieces,
    marker_for,
    one_line,
    sanitize,
    truncation_marker,
)

__all__ = [
    "MARKER_STYLE",
    "WHITESPACE_STYLE",
    "Piece",
    "escape_markup",
    "is_clean",
    "iter_pieces",
    "marker_for",
    "one_line",
    "one_line_text",
    "safe_text",
    "sanitize",
    "show_whitespace",
    "truncation_marker",
]

MARKER_STYLE = "dim reverse"
"""Style of sanitizer markers (``^[``, ``<U+202E>``, ``…(+N chars)``) inside a ``Text``."""

WHITESPACE_STYLE = "dim"
"""Style of the visible-whitespace glyphs (``·``, ``→``, ``⏎``)."""


def safe_text(text: str | None, *, style: str = "", keep_newlines: bool = True) -> Text:
    """A ``Text`` of the sanitized string, never parsed as markup; markers styled ``MARKER_STYLE``."""
    result = Text(style=style, no_wrap=False, end="")
    for _start, _end, shown, is_marker in iter_pieces(text, keep_newlines=keep_newlines):
        result.append(shown, MARKER_STYLE if is_marker else None)
    return result


def one_line_text(text: str | None, max_len: int = 200, *, style: str = "") -> Text:
    """Like ``one_line`` but as a ``Text`` with markers and the ⏎/→ glyphs styled dim."""
    result = Text(style=style, no_wrap=True, end="")
    for _start, _end, shown, is_marker in iter_pieces(text, keep_newlines=True, max_len=max_len):
        if is_marker:
            result.append(shown, MARKER_STYLE)
            continue
        _append_with_glyphs(result, shown, {"\n": NEWLINE_GLYPH, "\t": TAB_GLYPH})
    return result


_WS_RUN = re.compile(r"[\n\t ]")


def _append_with_glyphs(result: Text, shown: str, glyphs: dict[str, str]) -> None:
    """Append ``shown`` with each char in ``glyphs`` replaced by its dim glyph."""
    pos = 0
    for match in _WS_RUN.finditer(shown):
        char = match.group()
        if char not in glyphs:
            continue
        start = match.start()
        if start > pos:
            result.append(shown[pos:start])
        result.append(glyphs[char], WHITESPACE_STYLE)
        pos = start + 1
    if pos < len(shown):
        result.append(shown[pos:])


def show_whitespace(text: str | None) -> Text:
    """Sanitized text with spaces as ``·``, tabs as ``→`` and line ends as ``⏎`` (all dim).

    Line breaks are kept after the ``⏎`` so the layout still follows the original lines.
    """
    result = Text(end="")
    glyphs = {" ": SPACE_GLYPH, "\t": TAB_GLYPH, "\n": NEWLINE_GLYPH + "\n"}
    for _start, _end, shown, is_marker in iter_pieces(text, keep_newlines=True):
        if is_marker:
            result.append(shown, MARKER_STYLE)
        else:
            _append_with_glyphs(result, shown, glyphs)
    return result


def escape_markup(text: str | None) -> str:
    """Sanitize, then escape for TEXTUAL markup (``Static("...")``, ``notify``, ``Label``).

    Only for the rare place a markup string has to be built around untrusted text; prefer
    ``safe_text``. ``rich.markup.escape`` (and ``textual.markup.escape``, the same regex) is not
    enough for Textual: it leaves ``[$accent]``, ``[Bold]`` and ``[ bold]`` alone and Textual
    parses them as tags. Textual treats ``\\[`` as a literal ``[`` and never unescapes
    backslashes, so escaping every ``[`` round-trips any text exactly.
    """
    return sanitize(text).replace("[", "\\[")
