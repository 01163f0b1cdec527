"""The refusal detector: a reply that declines the task, at its start or as its last sentence."""

from __future__ import annotations

import re

from . import kinds
from .finding import Finding
from .text import quote

# --------------------------------------------------------------------------- refusal

_NEG = (
    r"(?:can(?:'t|not| not)|won't|will not|am (?:not able|unable)|'m (?:not able|unable)|am not (?:allowed|permitted))"
)
_I = r"(?:i|we)\s*"  # "I can't" and "I'm unable" (no space before the apostrophe)
_TASK = (
    r"(?:help(?! but\b)|assist|provide|comply|do|fulfil+|answer|write|create|generate|complete|"
    r"share|support|engage|give|produce|offer|discuss|participate|continue|translate|summari[sz]e|tell|"
    r"classify|solve|make|respond|talk|go along)"
)
_REFUSAL_PATTERN = "|".join(
    (
        rf"\b(?:i'm|im|i am)\s+(?:so\s+|very\s+|really\s+|truly\s+)?sorry\b[^.!?\n]{{0,60}}?\b{_I}{_NEG}",
        rf"\bsorry,?\s+(?:but\s+)?{_I}{_NEG}",
        rf"\bas an ai(?: language model| assistant| model)?\b[^.!?\n]{{0,40}}?\b{_I}{_NEG}",
        rf"\b{_I}{_NEG}\s+(?:to\s+)?(?:really\s+)?{_TASK}\b",
        r"\bi\s+(?:must|have to|need to)\s+(?:respectfully\s+|politely\s+)?(?:decline|refuse)\b",
        r"\bi\s+(?:respectfully\s+)?(?:decline|refuse)\s+to\b",
        rf"\bi'm afraid\s+(?:that\s+)?i\s+{_NEG}",
        rf"\b(?:unfortunately|sadly),?\s+i\s+{_NEG}",
        r"\bthat(?:'s| is) not something i (?:can|will|am able to)\b",
        r"\bi'm not (?:comfortable|going to)\s+(?:help|assist|provid|writ|answer|do)",
        r"\bi(?:'d| would) rather not\b",
        r"\bagainst my (?:guidelines|policy|policies|rules|programming|principles)\b",
    )
)
_REFUSAL = re.compile(_REFUSAL_PATTERN)  # searched on lower-cased text
_REFUSAL_ANY_CASE = re.compile(_REFUSAL_PATTERN, re.IGNORECASE)  # when lower-casing changes lengths


_REFUSAL_HEAD = 240  # refusals open the reply; later "I can't..." inside an answer is not one
# After a capability disclaimer, a real answer: "..., but here is what I know".
_BUT_ANSWERS = re.compile(
    r"\b(?:but|however|that said|instead)\b[^.!?\n]{0,40}?\b(?:here(?:'s| is| are)|i can|i could|below)\b|"
    r"^\s*(?:here(?:'s| is| are)|however)\b",
    re.IGNORECASE | re.MULTILINE,
)


#: A refusal after a long opening (the model restates the request, then declines): only the plain
#: forms, with the request as their object ("I can't help with that", "I must decline this request").
_LATE_REFUSAL = re.compile(
    "|".join(
        (
            rf"\b(?:i'm|im|i am)\s+(?:so\s+|very\s+|really\s+|truly\s+)?sorry\b[^.!?\n]{{0,60}}?\b{_I}{_NEG}",
            rf"\bsorry,?\s+(?:but\s+)?{_I}{_NEG}",
            rf"\bi\s+apologi[sz]e,?\s+(?:but\s+)?{_I}{_NEG}",
            r"\bi\s+(?:must|have to|need to)\s+(?:respectfully\s+|politely\s+)?(?:decline|refuse)\b",
            r"\bi\s+(?:respectfully\s+)?(?:decline|refuse)\s+to\b",
            rf"\b{_I}{_NEG}\s+(?:to\s+)?{_TASK}\s+(?:you\s+)?(?:with\s+|on\s+)?(?:that|this|it|your request|such)\b",
            r"\bagainst my (?:guidelines|policy|policies|rules|programming|principles)\b",
        )
    ),
    re.IGNORECASE,
)
_LATE_WINDOW = 400  # characters at the end of the reply where a late refusal is looked for
_LATE_AFTER = 120  # at most this much may follow the refusing sentence: it ends the reply


def detect_refusal(reply: str) -> Finding | None:
    """The reply declines the task. Refusals open the reply, or, after a long opening, end it.

    A disclaimer followed by an actual answer ("I can't browse, but here is...") is not one, nor
    is "I can't ..." in the middle of an answer, nor a character's words inside quotation marks.
    """
    found = _refusal_at_start(reply)
    if found is None and len(reply) > _REFUSAL_HEAD:
        found = _refusal_at_end(reply)
    return found


def _head_hinted(low: str) -> bool:
    """The lower-cased opening could hold a refusal: every opening pattern contains one of these.

    Ten ``in`` tests (this and ``_tail_hinted``, both windows: 2.2 us per bench reply) measured
    against the same multi-pattern search by hyperscan 1.7 us, pyahocorasick 2.3, google-re2 3.7
    and one ``re`` alternation 4.8 (tests/bench/bench_scans.py); compiled in C (diagnosis/
    _text_scan.c until issue 39) 0.8 us: not worth a C module or a dependency."""
    return (
        "n't" in low
        or " not " in low
        or "cannot" in low
        or "sorry" in low
        or "unable" in low
        or "declin" in low
        or "refus" in low
        or "afraid" in low
        or "as an ai" in low
        or "against my" in low
    )


def _tail_hinted(low: str) -> bool:
    """The lower-cased end could hold a late refusal: every late pattern contains one of these."""
    return (
        "n't" in low
        or "cannot" in low
        or " not " in low
        or "sorry" in low
        or "apolog" in low
        or "declin" in low
        or "refus" in low
        or "unable" in low
        or "against my" in low
    )


def _tail_of(reply: str) -> tuple[int, str]:
    offset = max(_REFUSAL_HEAD // 2, len(reply) - _LATE_WINDOW)
    return offset, reply[offset:].replace("’", "'")


def _refusal_at_end(reply: str) -> Finding | None:
    """A plain refusal that starts after the opening read by ``_refusal_at_start`` and ends the reply."""
    offset, tail = _tail_of(reply)
    low = tail.lower()
    if not _tail_hinted(low):
        return None
    match = None
    for candidate in _LATE_REFUSAL.finditer(tail):
        match = candidate  # the last one: it must end the reply
    if match is None:
        return None
    start = offset + match.start()
    end = _sentence_end(reply, offset + match.end())
    if len(reply) - end > _LATE_AFTER or _inside_quotes(reply, start) or _BUT_ANSWERS.search(reply, end):
        return None
    start = (
        max(
            reply.rfind(".", 0, start),
            reply.rfind("\n", 0, start),
            reply.rfind("?", 0, start),
            reply.rfind("!", 0, start),
        )
        + 1
    )
    while start < end and reply[start].isspace():
        start += 1
    evidence = f"The reply declines the task at the end, after {start} characters: {quote(reply[start:end])}."
    return Finding(kinds.REFUSAL, evidence, (start, end), {"phrase": match.group(), "late": True})


def _refusal_at_start(reply: str) -> Finding | None:
    head = reply[:_REFUSAL_HEAD].replace("’", "'")
    low = head.lower()
    if not _head_hinted(low):
        return None
    match = _REFUSAL.search(low) if len(low) == len(head) else _REFUSAL_ANY_CASE.search(head)
    if match is None or _inside_quotes(head, match.start()):
        return None
    after = reply[match.end() : match.end() + 400].replace("’", "'")
    rest = reply[match.end() :].strip()
    if len(rest) >= 80 and _BUT_ANSWERS.search(after):
        return None
    start = max(head.rfind(".", 0, match.start()), head.rfind("\n", 0, match.start())) + 1
    while start < match.start() and head[start].isspace():
        start += 1
    end = _sentence_end(reply, match.end())
    evidence = f"The reply declines the task: {quote(reply[start:end])}."
    return Finding(kinds.REFUSAL, evidence, (start, end), {"phrase": match.group()})


def _inside_quotes(text: str, pos: int) -> bool:
    """True when ``pos`` is inside an open double quotation (a character speaking in a story)."""
    before = text[:pos]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


def _sentence_end(text: str, pos: int) -> int:
    best = len(text)
    for stop in (".", "!", "?", "\n"):
        at = text.find(stop, pos)
        if at != -1 and at + 1 < best:
            best = at + 1
    return best
