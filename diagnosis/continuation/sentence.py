"""The continuation detector's reading of a reply that carries on the user's own sentence
(it opens mid-sentence, or completes a line left hanging on "is", "the", "because", ...)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.records import ChatTurn

from .. import kinds
from ..finding import Finding
from ..text import last_line, quote, trim, user_text

__all__ = ["extends_sentence"]

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


def extends_sentence(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
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
