"""Inert markdown: untrusted text (model output, prompts, judge reasoning, ids) only ever goes
into code spans or fenced code blocks, with control characters made visible.

A code span's backtick fence is one longer than the longest backtick run inside, so the text
cannot close it; a block's fence likewise. The characters of the shared unsafe table
(``unsafe_chars``: controls except newline and tab, format characters such as bidi controls and
tags, line/paragraph separators, private use, surrogates, unassigned) are shown in the one
notation of :mod:`common.safe_strings` (``^[``, ``\\x9b``, ``<U+202E>``), the same as the app and
the command line, so nothing reaches a terminal raw.
"""

from __future__ import annotations

import re

from common.safe_strings import clip, one_line, sanitize

_BACKTICKS = re.compile(r"`+")


def escape_controls(text: str) -> str:
    """Every character of the shared unsafe table (``unsafe_chars``) made visible
    (:func:`common.safe_strings.sanitize`); newline and tab are kept."""
    return sanitize(text, keep_newlines=True)


def _fence_len(text: str, minimum: int) -> int:
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    return max(minimum, longest + 1)


def code_span(text: str, *, limit: int | None = None) -> str:
    """``text`` as an inline code span on one line (newlines shown as ``⏎``, as everywhere)."""
    shown = one_line(text, max_len=None) if limit is None else clip(text, limit)
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
    body = escape_controls(text.replace("\r\n", "\n"))
    fence = "`" * _fence_len(body, 3)
    if not body.endswith("\n"):
        body += "\n"
    return f"{fence}{info}\n{body}{fence}"


#: Names and tokens in OUR prose that read best as code: ``max_tokens``, ``finish_reason``,
#: ``<|im_end|>``, ``[/INST]``, ``</s>``. They go in code spans rather than being backslash-escaped.
_CODE_WORDS = re.compile(r"<\|[^|\s]{1,40}\|>|\[/?INST\]|</?s>|<<SYS>>|<</SYS>>|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")
#: What markdown really needs escaped in running prose: the backslash, backticks, emphasis
#: asterisks, strikethrough tildes, an opening link bracket and ``<`` when it could open HTML.
#: Parentheses, ``#``, ``+``, ``!``, ``>`` and intraword underscores are plain text to
#: CommonMark in the middle of a sentence.
_PROSE_SPECIAL = re.compile(r"([\\`*\[~]|<(?=[A-Za-z/!?]))")
_LONE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def plain(text: str) -> str:
    """Our own text (never untrusted) as markdown prose that reads well in a terminal too.

    Identifiers such as ``max_tokens`` and chat tokens such as ``<|im_end|>`` become code
    spans; otherwise only the characters markdown would act on are escaped. Pipes are left
    alone: use :func:`plain_cell` inside a table.
    """
    out: list[str] = []
    pos = 0
    for match in _CODE_WORDS.finditer(text):
        out.append(_escape_prose(text[pos : match.start()]))
        out.append(code_span(match.group()))
        pos = match.end()
    out.append(_escape_prose(text[pos:]))
    return "".join(out)


def _escape_prose(text: str) -> str:
    text = escape_controls(text)
    text = _PROSE_SPECIAL.sub(r"\\\1", text)
    return _LONE_UNDERSCORE.sub(r"\\_", text)


def plain_cell(text: str) -> str:
    """:func:`plain` for a GFM table cell (pipes escaped, also inside code spans)."""
    return plain(text).replace("|", "\\|")
