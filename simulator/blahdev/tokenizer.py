"""A tiny, consistent tokenizer: special tokens, words, single punctuation marks, newlines.

Every token count in the simulator comes from here, so ``completion_tokens`` always equals
``count(response)`` and a truncated reply has exactly ``max_tokens`` tokens.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"<\|?/?[a-z_]+\|?>|\[/?INST\]|\w+|[^\w\s]|\n")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@lru_cache(maxsize=8192)
def _count(text: str) -> int:
    return len(_TOKEN.findall(text))


def count(text: str | None) -> int:
    return _count(text) if text else 0


def cut(text: str, max_tokens: int) -> str:
    """``text`` cut right after its ``max_tokens``-th token (whole text when shorter)."""
    if max_tokens <= 0:
        return ""
    for n, match in enumerate(_TOKEN.finditer(text), start=1):
        if n == max_tokens:
            return text[: match.end()]
    return text
