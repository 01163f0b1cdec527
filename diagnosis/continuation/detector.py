"""The continuation detector: a reply that carries on the prompt instead of answering it (the
user's next turn, the next few-shot example, the next item of a numbered series, other speakers'
lines, the rest of the user's sentence). Each reading lives in its own module of this package;
this one decides the order they are tried in and what rules them out cheaply."""

from __future__ import annotations

from collections.abc import Sequence

from common.records import ChatTurn

from ..finding import Finding
from .sentence import extends_sentence
from .series import next_in_series, series_of
from .speakers import other_speakers
from .turns import few_shot, next_turn

__all__ = ["detect_continuation"]


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
            next_turn(reply, prompt, messages)
            or few_shot(reply, prompt, messages)
            or other_speakers(reply, prompt, messages, source)
        )
        if found is not None:
            return found
    series = series_of(prompt, messages)
    if series:
        found = next_in_series(reply, series)
        if found is not None:
            return found
    first = reply.lstrip()[:1]
    if not first or not (first.islower() or first in ",;"):
        return None
    # A completion prompt to a completion (or unknown) model is meant to be completed.
    if detected in (None, "none") and trained in (None, "none"):
        return None
    return extends_sentence(reply, prompt, messages)
