"""The continuation detector (``detect_continuation``): a reply that carries on the prompt
instead of answering it. ``detector`` tries the readings in order: ``turns`` (the user's next
turn, a few-shot prompt's next example), ``speakers`` (other speakers of a transcript),
``series`` (the next item of a numbered series), ``sentence`` (the rest of the user's sentence);
``lines`` holds the line-start patterns they read."""

from __future__ import annotations

from .detector import detect_continuation

__all__ = ["detect_continuation"]
