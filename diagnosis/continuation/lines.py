"""The line patterns the continuation detector reads (a few-shot label, a numbered item, a
speaker's name): each can only match from the start of a line, so each is read by
:class:`LineStarts`, one ``match`` per line start on a text of few lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["FEW_SHOT_LABEL", "SERIES_ITEM", "SPEAKER_LINE", "LineStarts"]


class LineStarts:
    """A pattern that can only match from the start of a line and never across a newline (its
    MULTILINE twin starts with ``^`` and none of its parts matches "\n"), with the ``search``
    and ``finditer`` of that twin. A text with few lines (most prompts and replies) is read by
    one ``match`` at each line start instead of a scan that tests ``^`` at every character;
    a text of many short lines is left to the twin."""

    __slots__ = ("at", "twin")

    def __init__(self, pattern: str) -> None:
        self.at = re.compile(pattern)
        self.twin = re.compile("^" + pattern, re.MULTILINE)

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        """``pos``: 0 or the start of a line."""
        if text.count("\n", pos) * _CHARS_PER_LINE > len(text) - pos:
            yield from self.twin.finditer(text, pos)
            return
        match = self.at.match
        while True:
            found = match(text, pos)
            if found is not None:
                yield found
            pos = text.find("\n", pos) + 1
            if pos == 0:
                return

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)


_CHARS_PER_LINE = 48  # fewer lines than one per this many characters: match at each line start

FEW_SHOT_LABEL = LineStarts(
    r"[ \t]*(Q|Question|Input|Text|Review|Sentence|Problem|English|Word|Example)[ \t]*\d*[ \t]*:"
)
#: An item of a numbered series opening a line ("Quiz question 1:", "Problem 3.", "Q4)").
SERIES_ITEM = LineStarts(r"[ \t>*#-]*([A-Za-z][A-Za-z \t]{0,30}?)[ \t]*#?(\d{1,3})[ \t]*[:.)]")
#: A line that opens with a speaker's name and a colon ("Alice: ...", "Dr Who: ..."): one or two capitalised words.
SPEAKER_LINE = LineStarts(r"[ \t]*([A-Z][\w.'-]{0,24}(?: [A-Z][\w.'-]{0,24})?)[ \t]*:[ \t]*\S")
