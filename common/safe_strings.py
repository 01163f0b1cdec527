"""Untrusted text made inert, as plain strings: the notation of ``widgets/safe_text.py``
(read its docstring) for code with no Rich ``Text`` to build: the CLI, exports, the
application layer. ``widgets.safe_text`` builds its styled ``Text`` from these pieces.
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


def one_line(text: str | None, max_len: int = 200) -> str:
    """Sanitized single-line preview: newline -> ``⏎``, tab -> ``→``; cut at ``max_len``."""
    out = sanitize(text, keep_newlines=True, max_len=max_len)
    return out.replace("\n", NEWLINE_GLYPH).replace("\t", TAB_GLYPH)
