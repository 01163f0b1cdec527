"""The one cleaner of untrusted text (prompts, replies, errors, judge reasoning, names), as plain
strings: the command line, the markdown reports, the application layer and the app all show a
control the same way. ``widgets.safe_text`` builds its styled ``Text`` from these pieces.

Controls are made visible, never dropped and never obeyed (the characters of
:mod:`common.unsafe_chars`), in one notation:

* C0 controls and DEL -> caret notation, as ``cat -v`` and ``less`` show them: ESC -> ``^[``,
  NUL -> ``^@``, DEL -> ``^?``; CR is always ``^M``. Newline and tab are kept where lines are
  kept (``keep_newlines``), else ``^J`` / ``^I`` (on :func:`one_line`: the glyphs ``⏎`` and ``→``).
* C1 controls (U+0080-U+009F) -> the literal text ``\\x9b``.
* Every other unsafe character (bidi and other format characters, line/paragraph separators,
  private use, surrogates, unassigned) -> ``<U+XXXX>``.

The output holds only printable characters, so cleaning twice changes nothing. A ``--json``
document is the one exception: :func:`inert_json` escapes the JSON way (``\\uXXXX``), so the
document still decodes to the same values, verbatim.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from common.unsafe_chars import LAYOUT, has_unsafe, replace_unsafe, unsafe_positions

__all__ = [
    "NEWLINE_GLYPH",
    "SPACE_GLYPH",
    "TAB_GLYPH",
    "Piece",
    "clip",
    "inert_json",
    "is_clean",
    "iter_pieces",
    "marker_for",
    "one_line",
    "sanitize",
    "truncation_marker",
]

NEWLINE_GLYPH = "⏎"
TAB_GLYPH = "→"
SPACE_GLYPH = "·"

#: What each mode lets through: newline and tab (``keep_newlines``) or nothing.
_KEEP_LAYOUT = LAYOUT
_KEEP_NOTHING = ""

Piece = tuple[int, int, str, bool]
"""``(orig_start, orig_end, shown_text, is_marker)``: one run of the sanitized output."""


@lru_cache(maxsize=512)
def marker_for(char: str) -> str:
    """The visible replacement for one unsafe character (see the module docstring)."""
    code = ord(char)
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    if 0x80 <= code <= 0x9F:
        return f"\\x{code:02x}"
    return f"<U+{code:04X}>"


def _keep(keep_newlines: bool) -> str:
    return _KEEP_LAYOUT if keep_newlines else _KEEP_NOTHING


def truncation_marker(dropped: int) -> str:
    """The marker appended when ``dropped`` original characters were cut off."""
    return f"…(+{dropped} chars)"


def is_clean(text: str, *, keep_newlines: bool = True) -> bool:
    """True when ``sanitize`` would return ``text`` unchanged (no max_len)."""
    return not has_unsafe(text, _keep(keep_newlines))


def sanitize(text: str | None, *, keep_newlines: bool = True, max_len: int | None = None) -> str:
    """Make untrusted text inert: every control/invisible character becomes a visible marker.

    ``None`` becomes ``""``. See the module docstring for the notation and ``max_len``.
    """
    if not text:
        return ""
    dropped = 0
    if max_len is not None and len(text) > max_len:
        dropped = len(text) - max(max_len, 0)
        text = text[: max(max_len, 0)]
    out = replace_unsafe(text, marker_for, _keep(keep_newlines))
    return out + truncation_marker(dropped) if dropped else out


def iter_pieces(text: str | None, *, keep_newlines: bool = True, max_len: int | None = None) -> Iterator[Piece]:
    """Yield the sanitized output as runs that remember where they came from.

    Plain runs are verbatim slices of the original; marker runs replace one original character.
    The final truncation marker (if any) has ``orig_start == orig_end == len(original cut)``.
    Joining the shown texts gives exactly ``sanitize(text, ...)``.
    """
    if not text:
        return
    dropped = 0
    if max_len is not None and len(text) > max_len:
        dropped = len(text) - max(max_len, 0)
        text = text[: max(max_len, 0)]
    pos = 0
    for start in unsafe_positions(text, _keep(keep_newlines)):
        if start > pos:
            yield (pos, start, text[pos:start], False)
        yield (start, start + 1, marker_for(text[start]), True)
        pos = start + 1
    if pos < len(text):
        yield (pos, len(text), text[pos:], False)
    if dropped:
        yield (len(text), len(text), truncation_marker(dropped), True)


def one_line(text: str | None, max_len: int | None = 200) -> str:
    """Sanitized single-line preview: newline -> ``⏎``, tab -> ``→``; cut at ``max_len``."""
    out = sanitize(text, keep_newlines=True, max_len=max_len)
    return out.replace("\n", NEWLINE_GLYPH).replace("\t", TAB_GLYPH)


def clip(text: str | None, width: int) -> str:
    """:func:`one_line` that fits a column of ``width`` characters: cut with ``…`` when longer
    (a table cell; the markers count, since they are what the terminal shows)."""
    shown = one_line(text[: width + 1] if text else text, max_len=None)
    return shown if len(shown) <= width else shown[: max(0, width - 1)] + "…"


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def inert_json(document: str) -> str:
    """A JSON text with every unsafe character written as a ``\\uXXXX`` escape instead.

    Unsafe characters can only sit inside JSON strings (the syntax is ASCII), where an escape
    means the same character: the document decodes to the same values, verbatim, yet printing
    it cannot drive the terminal."""
    return replace_unsafe(document, _json_escape, keep="\n")
