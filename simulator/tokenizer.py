"""A tiny, consistent tokenizer: special tokens, words, single punctuation marks, newlines.

Every token count in the simulator comes from here, so ``completion_tokens`` always equals
``count(response)`` and a truncated reply has exactly ``max_tokens`` tokens.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"<\|?/?[a-z_]+\|?>|\[/?INST\]|\w+|[^\w\s]|\n")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def count(text: str | None) -> int:
    return 0 if not text else len(_TOKEN.findall(text))


def cut(text: str, max_tokens: int) -> str:
    """``text`` cut right after its ``max_tokens``-th token (whole text when shorter)."""
    if max_tokens <= 0:
        return ""
    for n, match in enumerate(_TOKEN.finditer(text), start=1):
        if n == max_tokens:
            return text[: match.end()]
    return text
