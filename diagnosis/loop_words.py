"""The loop detector's word-level helpers (``diagnosis.loop``), each with its compiled twin.

Which periods are worth checking, the words without their punctuation, where each token is,
and each "word N" (a counter: "Day 2"). Each is compiled in ``diagnosis/_loop_gate.c``, used on
the compiled path that ``diagnosis.compiled`` chooses; the Python twins here give the same
answers (tests/diagnosis/test_compiled_scans.py holds each pair equal). The compiled ones answer
None for text that is not ASCII; the Python twin answers then.

They run only for the replies that pass the loop gate (2.6% of the bench's calls), where they
are most of the detector's time: per such reply, periods 1.8 us compiled against 25 in Python,
token spans 9 against 28, counters 0.9 against 18, stripping 1.6 against 8.8
(tests/bench/bench_scans.py); a reply that loops is what a struggling model sends most.
"""

from __future__ import annotations

import re

from .compiled import loop_gate as _loop_gate

__all__ = [
    "MAX_PERIOD",
    "PUNCT",
    "TOKEN",
    "candidate_periods",
    "labelled_numbers",
    "labelled_numbers_py",
    "periods_of",
    "spans_of",
    "stripped",
    "stripped_py",
    "token_spans_py",
]

PUNCT = ".,;:!?\"'()[]{}*_`~«»“”‘’"
"""Punctuation around a word that does not make it another word."""
TOKEN = re.compile(r"\S+")
MAX_PERIOD = 200  # words: longer units are not looked for
_LABELLED_NUMBER = re.compile(r"\b([a-z]+)[ \t]+#?(\d{1,3})\b")


def candidate_periods(toks: list[str]) -> list[int]:
    """Periods worth checking: distances at which some word came back at least twice.

    Distances to the last two earlier occurrences are counted, so a unit in which every word
    occurs twice ("the sky ... the light ... the light ... the sky") still shows its period.
    """
    last: dict[str, tuple[int, int]] = {}
    counts: dict[int, int] = {}
    for i, tok in enumerate(toks):
        prev = last.get(tok)
        if prev is not None:
            for j in prev:
                if j >= 0 and i - j <= MAX_PERIOD:
                    counts[i - j] = counts.get(i - j, 0) + 1
            last[tok] = (i, prev[0])
        else:
            last[tok] = (i, -1)
    strongest = sorted((gap for gap, n in counts.items() if n >= 2), key=lambda g: (-counts[g], g))[:24]
    return sorted(strongest)  # shortest first: the primitive period comes before its multiples


def labelled_numbers_py(low: str) -> list[tuple[str, int, int]]:
    """(word, N, where N starts) of each word followed by a number ("day 2") in ``low``."""
    return [(m.group(1), int(m.group(2)), m.start(2)) for m in _LABELLED_NUMBER.finditer(low)]


def stripped_py(words: list[str]) -> list[str]:
    """The words without surrounding punctuation (a word of punctuation only stays as it is)."""
    return [t.strip(PUNCT) or t for t in words]


def token_spans_py(text: str) -> list[tuple[int, int]]:
    """Where each whitespace-free token of ``text`` is."""
    return [m.span() for m in TOKEN.finditer(text)]


if _loop_gate is None:  # the pure path (``diagnosis.compiled`` chose it)
    periods_of, stripped = candidate_periods, stripped_py
    spans_of, labelled_numbers = token_spans_py, labelled_numbers_py
else:
    _candidate_periods_c, _strip_tokens_c = _loop_gate.candidate_periods, _loop_gate.strip_tokens
    _token_spans_c, _labelled_numbers_c = _loop_gate.token_spans, _loop_gate.labelled_numbers

    def periods_of(toks: list[str]) -> list[int]:
        return _candidate_periods_c(toks, MAX_PERIOD)

    def stripped(words: list[str]) -> list[str]:
        return _strip_tokens_c(words, PUNCT)

    def spans_of(text: str) -> list[tuple[int, int]]:
        spans = _token_spans_c(text)
        return token_spans_py(text) if spans is None else spans  # (None: not ASCII)

    def labelled_numbers(low: str) -> list[tuple[str, int, int]]:
        found = _labelled_numbers_c(low)
        return labelled_numbers_py(low) if found is None else found  # (None: not ASCII)
