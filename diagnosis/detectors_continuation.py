"""The continuation detector: a reply that carries on the prompt instead of answering it (the
user's next turn, the next few-shot example, the next item of a numbered series, other speakers'
lines, the rest of the user's sentence)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from common.chat_markers import NEXT_USER_TURN_PATTERN
from common.records import ChatTurn

from . import kinds
from .finding import Finding
from .text import last_line, quote, trim, user_text

__all__ = ["detect_continuation"]

# --------------------------------------------------------------------------- continuation

# The user's next turn in a reply: a line starting "User:" / "Human:" (optionally "## User:"), or a
# template token that opens a user turn. Searched as three patterns, each of which the regex
# engine can scan for quickly (a literal or a character class first), and the leftmost start of
# the three taken: the same start as one search for
#   (?:^|\n)[ \t]*(?:#{1,3}[ \t]*)?(?:user|human)[ \t]*:|<\|im_start\|>[ \t]*user|<\|start_header_id\|>user|
#   <start_of_turn>user|<\|user\|>|\[INST\]|### Instruction:    (case-insensitive)
# but about 3x faster on a reply with a colon and no turn (code, "Note:", ...).
_TURN_LINE = r"[ \t]*(?:#{1,3}[ \t]*)?(?:user|human)[ \t]*:"
_NEXT_TURN_AT_START = re.compile(_TURN_LINE, re.IGNORECASE)  # .match: a turn opening the reply
_NEXT_TURN_LINE = re.compile(r"\n" + _TURN_LINE, re.IGNORECASE)  # the match starts at the "\n"
_NEXT_TURN_TOKEN = re.compile(NEXT_USER_TURN_PATTERN, re.IGNORECASE)
_ASKS_FOR_DIALOGUE = re.compile(
    r"\b(?:dialogue|dialog|conversation between|script|transcript|interview|role-?play|chat log|screenplay)\b",
    re.IGNORECASE,
)


def _asks_for_dialogue(said: str) -> bool:
    if said.isascii():  # case-insensitive matching is plain ASCII case folding: rule it out cheaply
        low = said.lower()
        if not (
            "dialog" in low
            or "conversation between" in low
            or "script" in low
            or "interview" in low
            or "role" in low
            or "chat log" in low
            or "screenplay" in low
        ):  # each alternative of _ASKS_FOR_DIALOGUE contains one of these
            return False
    return _ASKS_FOR_DIALOGUE.search(said) is not None


class _LineStarts:
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

_FEW_SHOT_LABEL = _LineStarts(
    r"[ \t]*(Q|Question|Input|Text|Review|Sentence|Problem|English|Word|Example)[ \t]*\d*[ \t]*:"
)
_ASKS_TO_COMPLETE = re.compile(r"\b(?:complete|continue|finish|fill in)\b", re.IGNORECASE)
#: A user's line ending in one of these is a sentence left hanging ("My favourite colour is").
_CONNECTORS = frozenset(
    {
        "is",
        "are",
        "was",
        "were",
        "am",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "the",
        "a",
        "an",
        "of",
        "to",
        "and",
        "or",
        "but",
        "nor",
        "so",
        "yet",
        "that",
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "when",
        "while",
        "because",
        "as",
        "than",
        "then",
        "if",
        "until",
        "unless",
        "like",
        "with",
        "without",
        "for",
        "in",
        "on",
        "at",
        "by",
        "from",
        "into",
        "onto",
        "about",
        "my",
        "your",
        "his",
        "her",
        "its",
        "our",
        "their",
        "i",
        "we",
        "he",
        "she",
        "they",
        "it",
        "this",
        "these",
        "those",
        "very",
    }
)
#: A reply that opens with one of these (lower-case) starts mid-sentence: it carries on something.
_MID_SENTENCE_OPENERS = frozenset(["and", "or", "but", "nor", "which", "whose", "whereas", "because", "while"])
_SENTENCE_END = frozenset(".!?:;)]}\"'”’…")


def detect_continuation(
    reply: str,
    prompt: str | None,
    messages: Sequence[ChatTurn] | None,
    detected: str | None,
    trained: str | None,
    *,
    source: str | None = None,
) -> Finding | None:
    """The reply carries on the prompt instead of answering it.

    ``source`` is where the call came from ("chatroom": the prompt is a transcript of speakers).
    """
    if ":" in reply or "<" in reply or "[" in reply or "#" in reply:
        found = (
            _next_turn(reply, prompt, messages)
            or _few_shot(reply, prompt, messages)
            or _other_speakers(reply, prompt, messages, source)
        )
        if found is not None:
            return found
    series = _series_of(prompt, messages)
    if series:
        found = _next_in_series(reply, series)
        if found is not None:
            return found
    first = reply.lstrip()[:1]
    if not first or not (first.islower() or first in ",;"):
        return None
    # A completion prompt to a completion (or unknown) model is meant to be completed.
    if detected in (None, "none") and trained in (None, "none"):
        return None
    return _extends_sentence(reply, prompt, messages)


def _next_turn(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
    at = _next_turn_at(reply)
    if at is None:
        return None
    if _asks_for_dialogue(user_text(prompt, messages)):
        return None
    start = at + (1 if reply[at] == "\n" else 0)
    while start < len(reply) and reply[start] in " \t":
        start += 1
    turn = reply[start : start + 80]
    evidence = f"The reply goes on to write the user's next turn at character {start}: {quote(turn)}."
    return Finding(kinds.CONTINUATION, evidence, (start, min(len(reply), start + len(turn))), {"how": "next_user_turn"})


def _next_turn_at(reply: str) -> int | None:
    """Where the leftmost next-turn match starts (at the "\\n" before a "User:" line), or None."""
    starts = []
    # A "User:" line needs "user" or "human" in some case. For ASCII text, case-insensitive regex
    # matching is plain ASCII case folding, so lower() and `in` (much cheaper) can rule it out.
    if reply.isascii():
        low = reply.lower()
        named = "user" in low or "human" in low
    else:
        named = True
    if named and _NEXT_TURN_AT_START.match(reply) is not None:
        return 0
    if named and "\n" in reply:
        line = _NEXT_TURN_LINE.search(reply)
        if line is not None:
            starts.append(line.start())
    if "<" in reply or "[" in reply or "###" in reply:
        token = _NEXT_TURN_TOKEN.search(reply)
        if token is not None:
            starts.append(token.start())
    return min(starts) if starts else None


def _few_shot(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
    source = user_text(prompt, messages) if messages else (prompt or "")
    if source.count(":") < 2:
        return None  # a label must come back at least twice, each with its colon
    counts: dict[str, int] = {}
    for match in _FEW_SHOT_LABEL.finditer(source):
        counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    labels = [label for label, n in counts.items() if n >= 2]
    if not labels:
        return None
    again = re.compile(rf"^[ \t]*(?:{'|'.join(map(re.escape, labels))})[ \t]*\d*[ \t]*:", re.MULTILINE)
    new_example = again.search(reply)
    if new_example is None:
        return None
    start = new_example.start() + len(new_example.group()) - len(new_example.group().lstrip())
    evidence = (
        f"The prompt is a few-shot pattern ({', '.join(repr(f'{label}:') for label in labels)} examples) and the reply "
        f"writes a new example at character {start}: {quote(reply[start : start + 80])}."
    )
    return Finding(kinds.CONTINUATION, evidence, (start, min(len(reply), start + 80)), {"how": "few_shot"})


# --------------------------------------------------------------------------- the next item of a series

_SERIES_ITEM = _LineStarts(r"[ \t>*#-]*([A-Za-z][A-Za-z \t]{0,30}?)[ \t]*#?(\d{1,3})[ \t]*[:.)]")
_ASKS_FOR_NEXT = re.compile(r"\b(?:next|complete|continue|finish|fill in|more)\b", re.IGNORECASE)

#: (label, N, the pattern of a numbered item of that label opening a line or a sentence: ``_numbered`` picks
#: item N+1) for each series in a user text.
Series = tuple[tuple[str, int, re.Pattern[str]], ...]


def _series_of(prompt: str | None, messages: Sequence[ChatTurn] | None) -> Series:
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
        if _numbered(following, said, number + 1) is None:
            out.append((label, number, item))
    return tuple(out)


def _series_items(said: str) -> list[tuple[str, int]]:
    """(label as written, N) of each line of ``said`` that opens as item N of a series, in order.

    Plain ``re`` since issue 39 (diagnosis/_text_scan.c read the lines in C, with a gate that let
    most prompts skip reading their user turn): the detector costs ~1.5-2 us more per distinct
    call here, which the report can afford (tests/bench/bench_scans.py). A gate in ``re``
    (``[A-Za-z \t#][0-9]{1,3}[ \t]*[:.)]``) took 9 us per bench prompt, more than it saves."""
    return [(match.group(1), int(match.group(2))) for match in _SERIES_ITEM.finditer(said)]


@lru_cache(maxsize=4096)
def _item_patterns(label: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A numbered item of a series named anywhere, and one opening a line or a sentence, the
    number captured (``_numbered`` picks item N+1). One pair per label, not per (label, N):
    prompts numbered "Case 1:" ... "Case 50000:" compiled two patterns for each new N (a
    pure-Python report of 50,000 such calls compiled 1,890, ~1.3 s of its 7.6 s of CPU)."""
    words = r"[ \t]+".join(map(re.escape, label.split()))
    following = rf"(?<![A-Za-z]){words}[ \t]*#?(\d+)(?!\d)"
    item = re.compile(rf"(?:^|(?<=[.!?] )|(?<=[.!?]\t)){following}[ \t]*[:.)]", re.IGNORECASE | re.MULTILINE)
    return re.compile(following, re.IGNORECASE), item


def _numbered(pattern: re.Pattern[str], text: str, number: int) -> re.Match[str] | None:
    """The first match of ``pattern`` (from ``_item_patterns``) whose number is ``number``
    (leading zeros allowed), as a pattern with that number written in would find it: a label
    has no digits, so matches of other numbers never overlap the one wanted."""
    wanted = str(number)
    for found in pattern.finditer(text):
        if found.group(1).lstrip("0") == wanted:
            return found
    return None


def _next_in_series(reply: str, series: Series) -> Finding | None:
    """The prompt is item N of a numbered series ("Quiz question 1: ...?") and the reply writes item
    N+1 ("Quiz question 2: ...") instead of stopping after the answer. The item must open a line
    or a sentence of the reply ("see chapter 2." does not)."""
    for label, number, item in series:
        found = _numbered(item, reply, number + 1)
        if found is None:
            continue
        start = found.start()
        evidence = (
            f"The prompt is item {number} of a numbered series ({quote(label, 30)}) and the reply goes on to write "
            f"item {number + 1} at character {start} instead of stopping: {quote(reply[start : start + 80])}."
        )
        return Finding(kinds.CONTINUATION, evidence, (start, min(len(reply), start + 80)), {"how": "next_in_series"})
    return None


# --------------------------------------------------------------------------- other speakers' turns

#: A line that opens with a speaker's name and a colon ("Alice: ...", "Dr Who: ..."): one or two capitalised words.
_SPEAKER_LINE = _LineStarts(r"[ \t]*([A-Z][\w.'-]{0,24}(?: [A-Z][\w.'-]{0,24})?)[ \t]*:[ \t]*\S")
#: Labels that are no one in a room: roles (``_next_turn`` reads user turns) and everyday headings.
_NOT_SPEAKERS = frozenset(
    {
        "user",
        "human",
        "assistant",
        "system",
        "ai",
        "bot",
        "model",
        "note",
        "notes",
        "answer",
        "question",
        "q",
        "a",
        "example",
        "input",
        "output",
        "summary",
        "tip",
        "warning",
        "step",
        "source",
        "ps",
        "edit",
        "update",
    }
)


def _other_speakers(
    reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None, source: str | None
) -> Finding | None:
    """The prompt is a transcript of speakers ("Alice: ...") and the reply writes their turns.

    A transcript is a chatroom prompt, or three or more speaker lines in which someone speaks
    twice (a form, "Name: John / Age: 30", is not one). A name that opens the reply may be the
    model's own, so the finding needs a speaker line after the first line, or two of them; a
    prompt that asks for a dialogue or a script is answered by writing one.
    """
    first = _SPEAKER_LINE.search(reply)
    if first is None:
        return None
    said = user_text(prompt, messages)
    spoken: dict[str, int] = {}
    for match in _SPEAKER_LINE.finditer(said):
        name = match.group(1).lower()
        if name not in _NOT_SPEAKERS:
            spoken[name] = spoken.get(name, 0) + 1
    if not spoken:
        return None
    if source != "chatroom" and (sum(spoken.values()) < 3 or max(spoken.values()) < 2):
        return None
    turns = [m for m in _SPEAKER_LINE.finditer(reply, first.start()) if m.group(1).lower() in spoken]
    if not turns:
        return None
    opens_reply = not reply[: turns[0].start()].strip()
    if opens_reply and len(turns) < 2:
        return None
    if _asks_for_dialogue(said):
        return None
    turn = turns[1] if opens_reply else turns[0]
    start = turn.start()
    while start < len(reply) and reply[start].isspace():
        start += 1
    shown = reply[start : start + 80]
    evidence = (
        f"The prompt is a conversation and the reply goes on to write {turn.group(1)}'s turn at character {start}: "
        f"{quote(shown)}."
    )
    return Finding(kinds.CONTINUATION, evidence, (start, start + len(shown)), {"how": "other_speaker"})


def _extends_sentence(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
    said = user_text(prompt, messages).strip()
    line = last_line(said)
    text = reply.lstrip()
    offset = len(reply) - len(text)
    head = text.split(None, 1)[0].strip(",;:") if text.split() else ""
    if text[:1] in ",;" or head in _MID_SENTENCE_OPENERS:
        evidence = f"The reply starts mid-sentence, carrying on from the prompt instead of answering: {quote(text)}."
        return Finding(
            kinds.CONTINUATION,
            evidence,
            (offset, offset + min(len(text), 60)),
            {"how": "starts_mid_sentence", "user_last_line": trim(line, 80)},
        )
    if not line or line[-1] in _SENTENCE_END or "?" in line or _ASKS_TO_COMPLETE.search(said):
        return None
    words = line.split()
    if not words or words[-1].lower() not in _CONNECTORS:
        return None  # a statement that happens to lack a full stop, not a sentence left hanging
    if len(reply.split()) <= 3 and reply.rstrip()[-1:] in ".!":
        return None  # a bare fill-in of the blank ("paris.") answers it
    evidence = (
        f"The reply carries on the user's unfinished sentence {quote(line[-50:], 50)} instead of answering: "
        f"{quote(text)}."
    )
    return Finding(
        kinds.CONTINUATION,
        evidence,
        (offset, offset + min(len(text), 60)),
        {"how": "extends_sentence", "user_last_line": trim(line, 80)},
    )
