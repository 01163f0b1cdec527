"""A call from another platform, shown in the same Inspector as a blah.dev call.

"Nouns, not platforms": a Blobfish rollout step is a call too (prompt, reply, tokens,
findings, where it came from). A ``CallSource`` hands the Inspector such calls by id, already
read as a ``LogEntry`` (so every panel and ``classify`` work unchanged), with what only the
other platform knows: where it came from, findings beyond ``classify`` (a tool-call loop),
and how to step to the next one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from api_client.models import LogEntry

__all__ = ["CallSource", "ForeignCall"]


@dataclass(frozen=True)
class ForeignCall:
    entry: LogEntry
    platform: str
    origin: tuple[tuple[str, str], ...] = ()
    """(label, value) lines for "Where it came from", in order."""
    findings: tuple[Any, ...] = ()
    """``diagnosis.Finding``s to list after the ones ``classify`` finds on the entry."""
    notes: tuple[str, ...] = field(default=())
    """Plain sentences shown under the origin (e.g. replay repeats no tool call)."""
    classify: bool = True
    """False: there is no reply to diagnose (a step that only called tools); only
    ``findings`` are listed."""


class CallSource(Protocol):
    platform: str
    noun: str
    """What one call is called here ("step"): "no next step"."""

    def call(self, call_id: str) -> ForeignCall | None: ...

    def neighbours(self, call_id: str) -> tuple[str | None, str | None]:
        """(previous id, next id); ``None`` at either end."""
        ...
