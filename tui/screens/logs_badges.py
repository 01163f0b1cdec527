"""Badges of one call: the finding kinds ``diagnosis.classify`` reports, computed once per
entry at ingest (and stored in the archive with it).

While ``diagnosis`` is not importable, a minimal fallback marks what needs no judgement:
``error`` (the call failed), ``empty`` (an empty or whitespace reply) and ``truncation``
(the platform says the token limit ended the reply).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from api_client.models import LogEntry

__all__ = ["BadgesFn", "diagnosis_available", "fallback_badges", "make_badges_fn"]

BadgesFn = Callable[[LogEntry], tuple[str, ...]]


@lru_cache(maxsize=1)
def _classify() -> Callable[..., list[Any]] | None:
    try:
        from diagnosis import classify as classify_fn  # type: ignore[attr-defined]
    except ImportError:
        try:
            from diagnosis.classify import classify as classify_fn
        except ImportError:
            return None
    return classify_fn  # type: ignore[no-any-return]


def diagnosis_available() -> bool:
    """True when ``diagnosis.classify`` can be used (else the fallback badges are shown)."""
    return _classify() is not None


def fallback_badges(entry: LogEntry) -> tuple[str, ...]:
    """error / empty / truncation from the entry's own fields (no heuristics)."""
    if entry.error is not None and not entry.response:
        return ("error",)
    kinds: list[str] = []
    if entry.response is not None and not entry.response.strip():
        kinds.append("empty")
    if entry.finish_reason == "length":
        kinds.append("truncation")
    return tuple(kinds)


def make_badges_fn(trained_template: str | None) -> BadgesFn:
    """A function giving the finding kinds of one entry (diagnosis when present, else fallback)."""
    classify_fn = _classify()
    if classify_fn is None:
        return fallback_badges

    def badges(entry: LogEntry) -> tuple[str, ...]:
        try:
            findings = classify_fn(entry, trained_template=trained_template)
        except Exception:  # a detector bug must not stop the tail; show what is certain
            return fallback_badges(entry)
        seen: dict[str, None] = {}
        for finding in findings:
            seen.setdefault(str(getattr(finding, "kind", finding)), None)
        return tuple(seen)

    return badges
