"""Badges of one call: the finding kinds ``diagnosis.classify`` reports, computed once per
entry at ingest (and stored in the archive with it).

While ``diagnosis`` is not importable, a minimal fallback marks what needs no judgement:
``error`` (the call failed), ``empty`` (an empty or whitespace reply) and ``truncation``
(the platform says the token limit ended the reply).

Badges of a call whose prompt or reply is longer than ``BADGE_TEXT_CAP`` characters are
computed on a cut copy (the reply's start, the prompt's start and end): classifying costs
time in proportion to the text (seconds for a 1 MB reply) and the tail must not stall on one
pathological call. The Inspector analyses the call itself.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from common.records import Call

__all__ = ["BADGE_TEXT_CAP", "BadgesFn", "capped", "diagnosis_available", "fallback_badges", "make_badges_fn"]

BadgesFn = Callable[["Call"], tuple[str, ...]]

BADGE_TEXT_CAP = 32_000


def capped(entry: Call, cap: int = BADGE_TEXT_CAP) -> Call:
    """The entry with its reply cut to ``cap`` characters and its prompt to its first and
    last ``cap // 2`` (unchanged when both are shorter)."""
    prompt, response = entry.prompt, entry.response
    long_prompt = prompt is not None and len(prompt) > cap
    long_reply = response is not None and len(response) > cap
    if not (long_prompt or long_reply):
        return entry
    update: dict[str, str] = {}
    if long_prompt and prompt is not None:
        update["prompt"] = prompt[: cap // 2] + prompt[-(cap // 2) :]
    if long_reply and response is not None:
        update["response"] = response[:cap]
    return entry.replace(**update)


@lru_cache(maxsize=1)
def _classify() -> Callable[..., list[Any]] | None:
    try:
        from diagnosis import classify as classify_fn
    except ImportError:
        try:
            from diagnosis.classifier import classify as classify_fn
        except ImportError:
            return None
    return classify_fn


def diagnosis_available() -> bool:
    """True when ``diagnosis.classify`` can be used (else the fallback badges are shown).
    Looks for the module without importing it: the Logs screen asks before its first paint,
    and the diagnosis package is only needed once a call has to be classified."""
    try:
        package = importlib.util.find_spec("diagnosis")  # a top-level name: nothing is imported
        if package is None or package.submodule_search_locations is None:
            return False
        # find_spec("diagnosis.classifier") would import the package (and so all of diagnosis):
        # look in its directory instead.
        found = importlib.machinery.PathFinder.find_spec(
            "diagnosis.classifier", list(package.submodule_search_locations)
        )
        return found is not None
    except (ImportError, ValueError):
        return False


def fallback_badges(entry: Call) -> tuple[str, ...]:
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
    if not diagnosis_available():
        return fallback_badges

    def badges(entry: Call) -> tuple[str, ...]:
        classify_fn = _classify()  # imported on the first call that needs it, then cached
        if classify_fn is None:
            return fallback_badges(entry)
        try:
            findings = classify_fn(capped(entry), trained_template=trained_template)
        except Exception:
            return fallback_badges(entry)
        seen: dict[str, None] = {}
        for finding in findings:
            seen.setdefault(str(getattr(finding, "kind", finding)), None)
        return tuple(seen)

    return badges
