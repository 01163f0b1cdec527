"""The continuation detector's reading of a reply that writes the next item of the numbered
series the prompt is an item of ("Quiz question 1: ...?" answered, then "Quiz question 2: ...")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from common.records import ChatTurn

from .. import kinds
from ..finding import Finding
from ..text import quote, user_text
from .lines import SERIES_ITEM

__all__ = ["Series", "next_in_series", "series_of"]

_ASKS_FOR_NEXT = re.compile(r"\b(?:next|complete|continue|finish|fill in|more)\b", re.IGNORECASE)

#: (label, N, the pattern of a numbered item of that label opening a line or a sentence: ``numbered`` picks
#: item N+1) for each series in a user text.
Series = tuple[tuple[str, int, re.Pattern[str]], ...]


def series_of(prompt: str | None, messages: Sequence[ChatTurn] | None) -> Series:
    """The numbered series the user's turn is an item of (usually none)."""
    if messages:
        return _series_in(user_text(prompt, messages))
    if not prompt:
        return ()
    return _series_in_prompt(prompt) if len(prompt) <= _CACHED_PROMPT_CHARS else _series_in(user_text(prompt))


_CACHED_PROMPT_CHARS = 8000  # longer prompts are read each time: the cache stays under ~8 MB


@lru_cache(maxsize=1024)
def _series_in_prompt(prompt: str) -> Series:
    """:func:`_series_in` of the prompt's user turn, remembered per prompt: eval prompts come back
    call after call, and finding the turn and reading it cost more than the rest of the detector."""
    return _series_in(user_text(prompt))


def _series_in(said: str) -> Series:
    """Each numbered item opening a line of ``said`` ("Quiz question 1:", "Problem 3.", "Q4)"): the
    highest N per label. None when the user names item N+1 itself ("Step 1: ... What is step 2?")
    or asks for the next one or for more."""
    latest: dict[str, int] = {}
    for raw, number in _series_items(said):
        label = " ".join(raw.lower().split())
        latest[label] = max(latest.get(label, 0), number)
    if not latest or _ASKS_FOR_NEXT.search(said) is not None:
        return ()
    out = []
    for label, number in latest.items():
        following, item = _item_patterns(label)
        if numbered(following, said, number + 1) is None:
            out.append((label, number, item))
    return tuple(out)


def _series_items(said: str) -> list[tuple[str, int]]:
    """(label as written, N) of each line of ``said`` that opens as item N of a series, in order.

    Plain ``re`` since issue 39 (diagnosis/_text_scan.c read the lines in C, with a gate that let
    most prompts skip reading their user turn): the detector costs ~1.5-2 us more per distinct
    call here, which the report can afford (tests/bench/bench_scans.py). A gate in ``re``
    (``[A-Za-z \t#][0-9]{1,3}[ \t]*[:.)]``) took 9 us per bench prompt, more than it saves."""
    return [(match.group(1), int(match.group(2))) for match in SERIES_ITEM.finditer(said)]


@lru_cache(maxsize=4096)
def _item_patterns(label: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A numbered item of a series named anywhere, and one opening a line or a sentence, the
    number captured (``numbered`` picks item N+1). One pair per label, not per (label, N):
    prompts numbered "Case 1:" ... "Case 50000:" compiled two patterns for each new N (a
    pure-Python report of 50,000 such calls compiled 1,890: CPU 3.47 -> 2.95 s pure, 2.11 ->
    1.72 s compiled; over the bench's 1M calls both stayed within their noise, 67-69 and 39-40 s)."""
    words = r"[ \t]+".join(map(re.escape, label.split()))
    following = rf"(?<![A-Za-z]){words}[ \t]*#?(\d+)(?!\d)"
    item = re.compile(rf"(?:^|(?<=[.!?] )|(?<=[.!?]\t)){following}[ \t]*[:.)]", re.IGNORECASE | re.MULTILINE)
    return re.compile(following, re.IGNORECASE), item


def numbered(pattern: re.Pattern[str], text: str, number: int) -> re.Match[str] | None:
    """The first match of ``pattern`` (from ``_item_patterns``) whose number is ``number``
    (leading zeros allowed), as a pattern with that number written in would find it: a label
    has no digits, so matches of other numbers never overlap the one wanted."""
    wanted = str(number)
    for found in pattern.finditer(text):
        if found.group(1).lstrip("0") == wanted:
            return found
    return None


def next_in_series(reply: str, series: Series) -> Finding | None:
    """The prompt is item N of a numbered series ("Quiz question 1: ...?") and the reply writes item
    N+1 ("Quiz question 2: ...") instead of stopping after the answer. The item must open a line
    or a sentence of the reply ("see chapter 2." does not)."""
    for label, number, item in series:
        found = numbered(item, reply, number + 1)
        if found is None:
            continue
        start = found.start()
        evidence = (
            f"The prompt is item {number} of a numbered series ({quote(label, 30)}) and the reply goes on to write "
            f"item {number + 1} at character {start} instead of stopping: {quote(reply[start : start + 80])}."
        )
        return Finding(kinds.CONTINUATION, evidence, (start, min(len(reply), start + 80)), {"how": "next_in_series"})
    return None
