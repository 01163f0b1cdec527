"""Inert markdown: untrusted text (model output, prompts, judge reasoning, ids) only ever goes
into code spans or fenced code blocks, with control characters shown as ``\\xNN``.

A code span's backtick fence is one longer than the longest backtick run inside, so the text
cannot close it; a block's fence likewise. C0/C1 controls (except newline and tab) and the
bidi / zero-width format characters are replaced by visible escapes, so nothing reaches a
terminal raw.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]")
_BACKTICKS = re.compile(r"`+")


def escape_controls(text: str) -> str:
    """Control and format characters as visible escapes; newline and tab are kept."""
    return _CONTROLS.sub(_escape_one, text)


def _escape_one(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _fence_len(text: str, minimum: int) -> int:
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    return max(minimum, longest + 1)


def code_span(text: str, *, limit: int | None = None) -> str:
    """``text`` as an inline code span on one line (newlines shown as ``\\n``)."""
    shown = escape_controls(text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t"))
    if limit is not None and len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    if not shown:
        return "` `"
    fence = "`" * _fence_len(shown, 1)
    pad = " " if shown[0] in "` " or shown[-1] in "` " else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def table_cell(text: str, *, limit: int | None = None) -> str:
    """A code span safe inside a GFM table cell (pipes escaped)."""
    return code_span(text, limit=limit).replace("|", "\\|")


def code_block(text: str, *, info: str = "text") -> str:
    """``text`` as a fenced code block, verbatim apart from escaped control characters."""
    body = escape_controls(text.replace("\r\n", "\n").replace("\r", "\\r"))
    fence = "`" * _fence_len(body, 3)
    if not body.endswith("\n"):
        body += "\n"
    return f"{fence}{info}\n{body}{fence}"


def plain(text: str) -> str:
    """Our own text (never untrusted) with markdown-significant characters escaped."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", text)
