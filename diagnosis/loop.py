"""Repetition / degeneration: find the unit a reply keeps repeating.

Three levels, cheapest first:

- a run of one character (``!!!!!!!!!!``, ``aaaaaaaaaaaaaaaa``) or a short unit repeated without
  spaces (``hahahahahahahaha``): looked for only inside long whitespace-free tokens;
- a run of blank lines / whitespace (a reply padded until the token limit);
- a unit of words repeated back to back: a word, a phrase, a sentence or a paragraph.
  Words are compared lower-cased without surrounding punctuation, and list markers (``3.``)
  are treated as equal, so "1. Buy milk 2. Buy milk 3. Buy milk" is a loop while a numbered
  list of different items is not. Counters are equal too ("Day 1: I walked. Day 2: I walked.":
  a number after the same word, counting up by one), other numbers are not.

What must not fire: numbered lists and tables (cells and rows differ), code (repeated lines
are normal there: inside fenced code and in markdown tables far more copies are needed), and
a song's chorus that comes back after a verse (only back-to-back copies count). A large unit
(12+ words, a paragraph) counts with two copies only when a third copy was started and the
reply ends inside it: the loop went on until it was cut.

The hot path is ``find_loop``; most replies leave after a split and a trigram check.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import pairwise

from .compiled import loop_gate as _loop_gate
from .loop_words import PUNCT as _PUNCT
from .loop_words import TOKEN as _TOKEN
from .loop_words import labelled_numbers as _labelled_numbers
from .loop_words import periods_of as _periods_of
from .loop_words import spans_of as _spans_of
from .loop_words import stripped as _stripped

#: Characters that legitimately come in long runs (rules, separators, indentation art).
_RULE_CHARS = frozenset("-=_*#~.+|/\\:<>^─━═│┃▁▔█░▒▓ ")
_HAS_LIST_MARKER = re.compile(r"\d[.)]\s")
_MARKER_TOKEN = re.compile(r"\(?\d{1,3}[.)]")  # a whole token that is a list marker (at most 5 characters)
#: Every ASCII token that _MARKER_TOKEN matches whole, mapped to the folded marker "#." (4,440 of them).
_ASCII_MARKERS: dict[str, str] = dict.fromkeys(
    (
        f"{paren}{number:0{width}d}{end}"
        for paren in ("", "(")
        for width in (1, 2, 3)
        for number in range(10**width)
        for end in ".)"
    ),
    "#.",
)
_CHAR_PERIODIC = re.compile(r"(.{1,30}?)\1{2,}", re.DOTALL)
_WS_RUN = re.compile(r"(?:[ \t\r\f\v]*\n){20,}|\s{200,}")
_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.MULTILINE)
_COUNTER_HINT = re.compile(r"[a-z] \d")  # a word then a number: a counter ("day 2") may tell copies apart

_MIN_LONG_TOKEN = 10
# ASCII text's shape: b"x" for a character of a token, b" " for whitespace (what str.split splits on).
_SHAPE = bytes(32 if chr(c).isspace() else 120 for c in range(256))
# A token of at least _MIN_LONG_TOKEN characters in the shape (a literal prefix: the regex engine scans fast).
_LONG_RUN = re.compile(re.escape(b"x" * _MIN_LONG_TOKEN) + b"x*")
# What _char_run_counts accepts, in an ASCII token, needs 16+ characters, unless it is one character
# 10+ times that is not a letter, a digit or a rule character ("!!!!!!!!!!"). So a text whose long
# tokens are all shorter than 16 can only hold one if such a character comes 10 times in a row.
_LONG_UNIT_SHAPE = b"x" * 16
_LOOPING_PUNCT = bytes(c for c in range(33, 127) if not chr(c).isalnum() and chr(c) not in _RULE_CHARS)
_PUNCT_SHAPE = bytes(112 if c in _LOOPING_PUNCT else 46 for c in range(256))  # b"p" for those, b"." else
_PUNCT_RUN = b"p" * 10

PROSE, CODE, TABLE = 0, 1, 2

#: The gate over every reply, compiled (``diagnosis.compiled``); None on the pure path.
_prefilter = _loop_gate.prefilter if _loop_gate is not None else None


@dataclass(frozen=True, slots=True)
class LoopHit:
    """Where a reply repeats itself.

    ``period`` is the length of one copy of ``unit`` in ``period_unit`` ("words" or "chars");
    ``repeats`` counts the full copies back to back; ``start``/``end`` are character offsets
    of the whole repeated region (a trailing partial copy included).
    """

    unit: str
    period: int
    period_unit: str
    repeats: int
    start: int
    end: int
    level: str  # "character" | "word" | "phrase" | "sentence" | "paragraph" | "whitespace"


def find_loop(text: str | None) -> LoopHit | None:
    """The most extensive repetition in ``text``, or None."""
    if not text or len(text) < 10:
        return None
    pre = _prefilter(text) if _prefilter is not None else None  # (compiled: None for text that is not ASCII)
    count, could, listed, suspects, spaced = pre if pre is not None else prefilter(text)
    if not count or (not suspects and not spaced and (count < 6 or not could)):
        return None  # (most replies)
    low = text.lower()
    best: LoopHit | None = None
    if suspects:
        best = _char_loop(text, suspects)
    if spaced:
        best = _better(best, _whitespace_loop(text))
    if count >= 6 and could:
        words = low.split()
        gate = _fold_markers(low, words) if listed else words
        if not listed and _HAS_LIST_MARKER.search(low) is not None:
            gate = _fold_markers(low, words)
        # A loop with a counter ("Day 1: I walked. Day 2: I walked.") passes the gate on the words
        # around the counter; a unit of one word and its counter ("Step 1: Stir. Step 2: Stir.") does not.
        counted = len(low) == len(text) and _COUNTER_HINT.search(low) is not None
        best = _better(best, _word_loop(text, gate, _counter_positions(low) if counted else None))
    return best


def prefilter(text: str) -> tuple[int, bool, bool, set[str], bool]:
    """What ``find_loop`` reads before it looks for a loop: (number of words, could repeat (the
    trigram gate of :func:`_could_repeat`, list markers folded when ``listed``), listed (a "2." or
    "2)" and a list marker in the text), the long-token suspects (:func:`_suspects`), spaced (5
    newlines, 10 spaces or 5 tabs in a row)).

    The Python twin of ``diagnosis._loop_gate.prefilter`` (which answers None for text that is
    not ASCII: this answers then). Compiled, ``find_loop`` takes 2.8 us per bench reply against
    13 us here (tests/bench/bench_scans.py): one pass over the bytes instead of a word object
    per word and a tuple per trigram.
    """
    low = text.lower()
    # The gate folds list markers only when a "2." suggests a numbered list ("1. Milk 2. Milk");
    # _word_loop folds them whenever there is one.
    listed = ("2." in low or "2)" in low) and _HAS_LIST_MARKER.search(low) is not None
    words = low.split()
    could = _could_repeat(_fold_markers(low, words) if listed else words)
    spaced = "\n\n\n\n\n" in text or " " * 10 in text or "\t\t\t\t\t" in text
    return len(words), could, listed, _suspects(low, words), spaced


def _suspects(low: str, words: list[str] | None) -> set[str]:
    """Long tokens made of few distinct characters, as a repeated unit is ("photosynthesis" is not).

    Empty when no token can hold a run that :func:`_char_run_counts` accepts (ASCII text).
    (List markers are folded later; that only touches short tokens, so it cannot change this.)
    """
    if low.isascii():  # find the long tokens in the text's shape (a C-level scan) instead of word by word
        raw = low.encode("ascii")
        shape = raw.translate(_SHAPE)
        if _LONG_RUN.pattern[:_MIN_LONG_TOKEN] not in shape:
            return set()  # no token is long enough (the common case)
        if _LONG_UNIT_SHAPE not in shape and _PUNCT_RUN not in raw.translate(_PUNCT_SHAPE):
            return set()  # long words ("photosynthesis"), none of which can hold a loop
        long_words = [low[m.start() : m.end()] for m in _LONG_RUN.finditer(shape)]
    else:
        assert words is not None
        long_words = [w for w in words if len(w) >= _MIN_LONG_TOKEN]
    return {w for w in long_words if len(set(w)) * 2 <= len(w)}


def _fold_markers(low: str, words: list[str]) -> list[str]:
    r"""``words`` (of ``low``) with every list marker ("3.", "(12)") made the same token "#.".

    Same as replacing ``(?<!\S)\(?\d{1,3}[.)](?!\S)`` by "#." in the text and splitting it again: a
    marker is a whole token (whitespace or the text's edge on both sides), so it can be done per word.
    """
    if low.isascii():  # every ASCII marker is in the table: one dictionary look-up per word
        return list(map(_ASCII_MARKERS.get, words, words))
    return ["#." if len(w) <= 5 and _MARKER_TOKEN.fullmatch(w) else w for w in words]


def _counter_positions(low: str) -> list[int]:
    """Offsets in ``low`` of the numbers that are counters: a number after the same word every
    time, going up by one from each to the next ("day 1 ... day 2 ... day 3"), three times or more.

    Copies that differ only by their counter then compare equal ("Day 1: I walked. Day 2: I
    walked."), while numbers that change otherwise still tell copies apart ("Day 1: walk 20
    minutes. Day 2: walk 25 minutes": the minutes do not count up by one; "1 x 1 = 1, 1 x 2 = 2":
    the products follow no word).
    """
    seen: dict[str, list[tuple[int, int]]] = {}
    for word, number, at in _labelled_numbers(low):
        seen.setdefault(word, []).append((number, at))
    found: list[int] = []
    for series in seen.values():
        if len(series) >= 3 and all(b[0] == a[0] + 1 for a, b in pairwise(series)):
            found.extend(at for _, at in series)
    return found


def _better(a: LoopHit | None, b: LoopHit | None) -> LoopHit | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if (b.end - b.start) > (a.end - a.start) else a


def _could_repeat(words: list[str]) -> bool:
    """Cheap necessary condition for a word loop: some word trigram comes back at least twice.

    Every loop ``_word_loop`` accepts repeats trigrams of lower-cased words with list markers
    folded ("1. Milk 2. Milk 3. Milk"), so this gate loses next to nothing; it lets some
    clean texts through, which only costs time.
    """
    return len(words) - 2 - len(set(zip(words, words[1:], words[2:]))) >= 2


# --------------------------------------------------------------------------- zones


def _code_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced code blocks (an unclosed fence runs to the end)."""
    if "```" not in text and "~~~" not in text:
        return []
    ranges: list[tuple[int, int]] = []
    opened: int | None = None
    fence = ""
    for match in _FENCE.finditer(text):
        if opened is None:
            opened, fence = match.start(), match.group(1)
        elif match.group(1) == fence:
            ranges.append((opened, match.end()))
            opened = None
    if opened is not None:
        ranges.append((opened, len(text)))
    return ranges


def _zone_at(pos: int, code: list[tuple[int, int]], text: str) -> int:
    for start, end in code:
        if start <= pos < end:
            return CODE
    line_start = text.rfind("\n", 0, pos) + 1
    if text[line_start : pos + 1].lstrip().startswith("|"):
        return TABLE
    return PROSE


# --------------------------------------------------------------------------- characters


def _char_loop(text: str, suspects: set[str]) -> LoopHit | None:
    """Runs inside whitespace-free tokens (``suspects`` are lower-cased)."""
    best: LoopHit | None = None
    code: list[tuple[int, int]] | None = None
    for word in suspects:
        for match in _CHAR_PERIODIC.finditer(word):
            unit = match.group(1)
            copies = (match.end() - match.start()) // len(unit)
            if not _char_run_counts(unit, copies, strict=False):
                continue
            if code is None:
                code = _code_ranges(text)
            for where in re.finditer(re.escape(match.group()), text, re.IGNORECASE):
                strict = _zone_at(where.start(), code, text) != PROSE
                if strict and not _char_run_counts(unit, copies, strict=True):
                    continue
                found = text[where.start() : where.start() + len(unit)]
                hit = LoopHit(found, len(unit), "chars", copies, where.start(), where.end(), "character")
                best = _better(best, hit)
                break
    return best


def _char_run_counts(unit: str, copies: int, *, strict: bool) -> bool:
    """Whether ``copies`` of ``unit`` back to back are degenerate rather than normal text."""
    total = copies * len(unit)
    if strict:  # inside code or a table: only very long runs
        return (total >= 64 and not set(unit) <= _RULE_CHARS) or total >= 200
    if set(unit) <= _RULE_CHARS:
        return total >= 100
    if len(unit) == 1:
        if unit.isdigit():
            return copies >= 32  # zero padding, hashes and big numbers come in long runs
        return copies >= (16 if unit.isalpha() and unit.isascii() else 10)
    return copies >= 4 and total >= 16


def _whitespace_loop(text: str) -> LoopHit | None:
    match = _WS_RUN.search(text)
    if match is None:
        return None
    run = match.group()
    lines = run.count("\n")
    if lines >= 20:
        return LoopHit("\n", 1, "chars", lines, match.start(), match.end(), "whitespace")
    return LoopHit(run[0], 1, "chars", len(run), match.start(), match.end(), "whitespace")


# --------------------------------------------------------------------------- words


def _word_loop(text: str, words: list[str], counters: list[int] | None = None) -> LoopHit | None:
    """Back-to-back copies of a unit of words (compared lower-cased, punctuation, list markers
    and counters aside).

    ``words`` is ``text`` lower-cased, list markers folded (see :func:`_fold_markers`), split;
    ``counters`` the offsets of counter numbers in it (see :func:`_counter_positions`).
    """
    toks = _stripped(words)
    spans = _spans_of(text)
    if len(spans) != len(toks):  # lower-casing changed the words (exotic scripts): use the text as is
        toks = [m.group().strip(_PUNCT) or m.group() for m in _TOKEN.finditer(text)]
    if counters and len(spans) == len(toks):
        starts = [start for start, _ in spans]
        for at in counters:
            toks[bisect_right(starts, at) - 1] = "#"
    code = _code_ranges(text)
    zones = [_zone_at(start, code, text) for start, _ in spans] if code or "|" in text else None
    n = len(toks)
    best: tuple[int, int, int, int] | None = None  # (region tokens, -period, start, run)
    for period in _periods_of(toks):
        for start, run in _runs(toks, period):
            if not _word_run_counts(toks, zones, start, run, period):
                continue
            key = (run + period, -period, start, run)
            if best is None or key[:2] > best[:2]:
                best = key
        if best is not None and best[0] == n and -best[1] <= period:
            break  # the whole reply is one loop: a longer period cannot explain more of it
    if best is None:
        return None
    _, neg_period, start, run = best
    period = -neg_period
    unit = text[spans[start][0] : spans[start + period - 1][1]]
    between = text[spans[start + period - 1][1] : spans[start + period][0]]
    region_start = spans[start][0]
    region_end = spans[start + run + period - 1][1]
    level = _level(period, unit, between)
    return LoopHit(unit, period, "words", run // period + 1, region_start, region_end, level)


def _runs(toks: list[str], period: int) -> list[tuple[int, int]]:
    """Maximal stretches where each word equals the one ``period`` words later: (start, length)."""
    out: list[tuple[int, int]] = []
    n = len(toks)
    i = 0
    while i + period < n:
        if toks[i] != toks[i + period]:
            i += 1
            continue
        j = i + 1
        while j + period < n and toks[j] == toks[j + period]:
            j += 1
        if j - i >= period:
            out.append((i, j - i))
        i = j
    return out


def _word_run_counts(toks: list[str], zones: list[int] | None, start: int, run: int, period: int) -> bool:
    """Whether a stretch of ``run // period + 1`` copies is degenerate, by unit size and zone."""
    copies = run // period + 1
    zone = max(zones[start : start + run + period]) if zones is not None else PROSE
    unit = toks[start : start + period]
    if zone != PROSE:
        return copies >= (16 if period == 1 else 8)
    if all(t.isdigit() for t in unit):
        return copies * period >= 16  # numeric data (matrices, counts) repeats legitimately
    if period == 1:
        word = unit[0]
        if not any(c.isalnum() for c in word):
            return copies >= (20 if set(word) <= _RULE_CHARS else 10)
        return copies >= 6
    if period <= 4:
        return copies >= 4
    if copies >= 3:
        return True
    # Two whole copies of a long unit, then a third started and cut off by the end of the reply.
    return period >= 12 and run > period and start + run + period == len(toks)


def _level(period: int, unit: str, between: str) -> str:
    """How to name the unit: ``between`` is the text separating its first two copies."""
    if period == 1:
        return "word"
    sentences = len(re.findall(r"[.!?](?:\s|$)", unit + " "))
    if period > 40 or "\n\n" in unit or "\n\n" in between or sentences >= 3:
        return "paragraph"
    if sentences or "\n" in unit or "\n" in between:
        return "sentence"
    return "phrase"
