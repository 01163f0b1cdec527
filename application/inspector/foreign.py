"""A call from another platform, shown in the same Inspector as a blah.dev call.

"Nouns, not platforms": a Blobfish rollout step is a call too (prompt, reply, tokens,
findings, where it came from). A ``CallSource`` hands the Inspector such calls by id, already
read as the product's ``Call`` (``common.records``: so every panel and ``classify`` work unchanged), with what only the
other platform knows: where it came from, findings beyond ``classify`` (a tool-call loop),
and how to step to the next one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from common.records import Call

__all__ = ["CallSource", "ForeignCall", "OrderedIds", "StepsById"]

Step = TypeVar("Step")


@dataclass(frozen=True)
class ForeignCall:
    entry: Call
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


class OrderedIds:
    """The ids a source hands the Inspector, in the order ``n``/``p`` step through them."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.ids = list(ids)
        self._position = {call_id: k for k, call_id in enumerate(self.ids)}

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._position

    def position(self, call_id: str) -> int:
        """0-based place of a known id (KeyError for an unknown one)."""
        return self._position[call_id]

    def neighbours(self, call_id: str) -> tuple[str | None, str | None]:
        """(previous id, next id); ``None`` at either end, both for an unknown id."""
        k = self._position.get(call_id)
        if k is None:
            return (None, None)
        return (self.ids[k - 1] if k > 0 else None, self.ids[k + 1] if k + 1 < len(self.ids) else None)


class StepsById(Generic[Step]):
    """A source's steps by id, in their order: ``step`` finds one, ``neighbours`` walks them,
    ``place`` says where one stands ("3 of 12"). The rollout and benchmark-task sources share it."""

    def __init__(self, ids: Iterable[str], steps: Iterable[Step]) -> None:
        self.ids = list(ids)
        self._by_id = dict(zip(self.ids, steps, strict=True))
        self._order = OrderedIds(self.ids)

    def step(self, call_id: str) -> Step | None:
        return self._by_id.get(call_id)

    def neighbours(self, call_id: str) -> tuple[str | None, str | None]:
        return self._order.neighbours(call_id)

    def place(self, call_id: str) -> str:
        """``k of n`` for a known id (KeyError for an unknown one)."""
        return f"{self._order.position(call_id) + 1} of {len(self.ids)}"
