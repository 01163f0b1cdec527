"""``Finding``: one thing wrong with one call, with the evidence quoted from its text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnosis of one call.

    ``evidence`` is a short human sentence that quotes the text (quotes trimmed to about 80
    characters). ``span`` is a pair of character offsets into the reply (``None`` when the
    finding is not about a place in the reply). ``detail`` carries the numbers behind it,
    e.g. ``loop``: unit, period, repeats, start; ``truncation``: completion_tokens, max_tokens;
    ``template_mismatch``: detected, trained.
    """

    kind: str
    evidence: str
    span: tuple[int, int] | None = None
    detail: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
