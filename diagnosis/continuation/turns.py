"""The continuation detector's readings of a reply that writes the conversation's next turn:
the user's next turn ("User: ..." or a template token) or the next example of a few-shot prompt;
and the one exception they share, a prompt that asks for a dialogue."""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.chat_markers import NEXT_USER_TURN_PATTERN
from common.records import ChatTurn

from .. import kinds
from ..finding import Finding
from ..text import quote, user_text
from .lines import FEW_SHOT_LABEL

__all__ = ["asks_for_dialogue", "few_shot", "next_turn"]

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


def asks_for_dialogue(said: str) -> bool:
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


def next_turn(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
    at = _next_turn_at(reply)
    if at is None:
        return None
    if asks_for_dialogue(user_text(prompt, messages)):
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


def few_shot(reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None) -> Finding | None:
    source = user_text(prompt, messages) if messages else (prompt or "")
    if source.count(":") < 2:
        return None  # a label must come back at least twice, each with its colon
    counts: dict[str, int] = {}
    for match in FEW_SHOT_LABEL.finditer(source):
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
