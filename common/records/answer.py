"""A bake-off answer: one model's answer to one sample of a bake-off (a comparison or a
criterion run), with what the judge made of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from common.records.call import Call

__all__ = ["BakeoffAnswer", "answer_call"]


@dataclass(frozen=True, slots=True)
class BakeoffAnswer:
    """One candidate's answer to one sample. A value the queue did not send is ``None``."""

    model: str | None
    """The model that answered (the candidate arm, or the baseline's model); ``None``: not given."""
    text: str | None = None
    """The answer; ``None``: none given."""
    outcome: str | None = None
    """win, loss, tie, failed (a comparison); pass, fail (a criterion); unparsed."""
    human_verdict: str | None = None
    truncated: bool | None = None
    """Cut at the run's token cap; ``None``: the queue does not say."""
    latency_ms: int | None = None
    cost_micros: int | None = None
    orderings: Mapping[str, str | None] | None = None
    """The judge's reading with the baseline shown first (``ab``) and the candidate first (``ba``)."""
    assertions: tuple[bool, ...] | None = None
    similarity: str | None = None
    """A screening run's reading: matched, differed, unparsed."""


def answer_call(
    call_id: str,
    answer: BakeoffAnswer,
    *,
    source: str,
    prompt: str | None,
    max_tokens: int | None,
    created_at: int | None,
) -> Call:
    """A bake-off answer read as one call (what the Inspector and ``classify`` take): its text
    the reply, ``finish_reason`` "length" when it was cut at the cap (``None`` when the queue
    does not say: never guessed), ``created_at`` the run's (``None``: not given)."""
    return Call(
        id=call_id,
        model_id=answer.model,
        source=source,
        created_at=created_at,
        prompt=prompt,
        response=answer.text,
        latency_ms=answer.latency_ms,
        max_tokens=max_tokens,
        finish_reason="length" if answer.truncated is True else None,
    )
