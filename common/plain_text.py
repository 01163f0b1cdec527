"""Untrusted text made inert for a plain terminal (the CLI), without Textual.

``widgets.safe_text`` does this for the app; commands that must not import Textual use these.
Both escape the characters of :mod:`common.unsafe_chars` (controls, bidi and other format
characters, line/paragraph separators, private use, unassigned), so no escape sequence and no
reordering of the line ever reaches the terminal.
"""

from __future__ import annotations

from .unsafe_chars import replace_unsafe


def _visible(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def inert(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every unsafe character shown as an escape (``\\x1b``, ``\\u202e``)."""
    return replace_unsafe(text, _visible, keep="\n" if keep_newlines else "")


def one_line(text: str, max_len: int | None = None) -> str:
    """:func:`inert` on one line, cut to ``max_len`` characters with an ellipsis."""
    flat = inert(text)
    if max_len is not None and len(flat) > max_len:
        return flat[: max(0, max_len - 1)] + "…"
    return flat


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def inert_json(document: str) -> str:
    """A JSON text with every unsafe character written as a ``\\uXXXX`` escape instead.

    Unsafe characters can only sit inside JSON strings (the syntax is ASCII), where an
    escape means the same character: the document decodes to the same values, verbatim,
    yet printing it cannot drive the terminal."""
    return replace_unsafe(document, _json_escape, keep="\n")
