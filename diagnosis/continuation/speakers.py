"""The continuation detector's reading of a reply that writes other speakers' turns of the
transcript the prompt is ("Alice: ...", "Bob: ...")."""

from __future__ import annotations

from collections.abc import Sequence

from common.records import ChatTurn

from .. import kinds
from ..finding import Finding
from ..text import quote, user_text
from .lines import SPEAKER_LINE
from .turns import asks_for_dialogue

__all__ = ["other_speakers"]

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


def other_speakers(
    reply: str, prompt: str | None, messages: Sequence[ChatTurn] | None, source: str | None
) -> Finding | None:
    """The prompt is a transcript of speakers ("Alice: ...") and the reply writes their turns.

    A transcript is a chatroom prompt, or three or more speaker lines in which someone speaks
    twice (a form, "Name: John / Age: 30", is not one). A name that opens the reply may be the
    model's own, so the finding needs a speaker line after the first line, or two of them; a
    prompt that asks for a dialogue or a script is answered by writing one.
    """
    first = SPEAKER_LINE.search(reply)
    if first is None:
        return None
    said = user_text(prompt, messages)
    spoken: dict[str, int] = {}
    for match in SPEAKER_LINE.finditer(said):
        name = match.group(1).lower()
        if name not in _NOT_SPEAKERS:
            spoken[name] = spoken.get(name, 0) + 1
    if not spoken:
        return None
    if source != "chatroom" and (sum(spoken.values()) < 3 or max(spoken.values()) < 2):
        return None
    turns = [m for m in SPEAKER_LINE.finditer(reply, first.start()) if m.group(1).lower() in spoken]
    if not turns:
        return None
    opens_reply = not reply[: turns[0].start()].strip()
    if opens_reply and len(turns) < 2:
        return None
    if asks_for_dialogue(said):
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
