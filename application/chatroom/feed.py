"""The chatroom as data: every message once, in order, and what the room knows about loops.

Pure (no Textual, no IO) so the ordering, dedupe and loop-rate arithmetic are unit-testable.

Polling follows the same rule as the logs tail (CONTRACT.md): ``since`` keeps messages with
``created_at > since`` and several messages can share one millisecond, so the next request
asks for ``since = newest - 1`` (overlapping the bound by one millisecond) and drops the ids
it already holds.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from api_client.blahdev.records import call_from_chatroom_message
from api_client.blahdev.shapes import ChatroomMessage
from common.format import DASH
from diagnosis import classify
from diagnosis.kinds import LOOP

__all__ = [
    "ChatFeed",
    "LoopVerdict",
    "MuteEvidence",
    "loop_verdict",
    "mute_evidence",
]


class ChatFeed:
    """Messages of the room, oldest first, each id once.

    ``add`` returns the messages that were new and whether they all went after the ones
    already held (the common case: the view can append) or one landed earlier (the view
    must redraw). At most ``max_messages`` are kept; the oldest are dropped first.
    """

    def __init__(self, max_messages: int = 2000) -> None:
        self._max = max_messages
        self._messages: list[ChatroomMessage] = []
        self._keys: list[tuple[int, str]] = []
        self._ids: OrderedDict[str, None] = OrderedDict()
        self.page_was_full = False

    def __len__(self) -> int:
        return len(self._messages)

    @property
    def messages(self) -> Sequence[ChatroomMessage]:
        return self._messages

    @property
    def newest_ms(self) -> int | None:
        return self._keys[-1][0] if self._keys else None

    def since_param(self) -> int | None:
        """The ``since`` of the next poll: one millisecond before the newest message held."""
        newest = self.newest_ms
        return None if newest is None else newest - 1

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._ids

    def get(self, message_id: str) -> ChatroomMessage | None:
        for message in reversed(self._messages):
            if message.id == message_id:
                return message
        return None

    def add(self, messages: Iterable[ChatroomMessage]) -> tuple[list[ChatroomMessage], bool]:
        """Insert the messages not held yet. Returns (new messages oldest first, appended_only)."""
        new = sorted(
            (m for m in {m.id: m for m in messages}.values() if m.id not in self._ids),
            key=lambda m: (m.created_at, m.id),
        )
        appended_only = True
        for message in new:
            key = (message.created_at, message.id)
            if self._keys and key < self._keys[-1]:
                appended_only = False
                index = bisect.bisect_right(self._keys, key)
                self._keys.insert(index, key)
                self._messages.insert(index, message)
            else:
                self._keys.append(key)
                self._messages.append(message)
            self._ids[message.id] = None
        overflow = len(self._messages) - self._max
        if overflow > 0:
            appended_only = False
            for dropped in self._messages[:overflow]:
                self._ids.pop(dropped.id, None)
            del self._messages[:overflow]
            del self._keys[:overflow]
        return new, appended_only

    def by_model(self, model_id: str) -> list[ChatroomMessage]:
        return [m for m in self._messages if m.model_id == model_id]

    def model_ids(self) -> list[str]:
        """Every model that has spoken, in order of first appearance."""
        seen: dict[str, None] = {}
        for message in self._messages:
            if message.model_id:
                seen.setdefault(message.model_id, None)
        return list(seen)


# --------------------------------------------------------------------------- loops


@dataclass(frozen=True)
class LoopVerdict:
    """Why a message is marked as looping: the diagnosis loop detector's finding on its text.
    ``evidence`` is the detector's sentence (it quotes the model: sanitise before showing)."""

    evidence: str
    span: tuple[int, int] | None = None


def loop_verdict(message: ChatroomMessage) -> LoopVerdict | None:
    """Does this model message repeat itself (``diagnosis.classify``'s ``loop`` kind)?
    Human messages are never judged."""
    if message.author_kind == "human" or not message.model_id or not message.content:
        return None
    for finding in classify(call_from_chatroom_message(message)):
        if finding.kind == LOOP:
            return LoopVerdict(finding.evidence, finding.span)
    return None


@dataclass(frozen=True)
class MuteEvidence:
    """What the mute confirmation shows: the model's recent loop rate in the room and one
    looping message quoted. ``examined`` is 0 when the room holds nothing from the model."""

    model_id: str
    examined: int
    looping: int
    example: ChatroomMessage | None
    example_evidence: str | None

    @property
    def rate(self) -> float | None:
        return self.looping / self.examined if self.examined else None

    def summary(self) -> str:
        if not self.examined:
            return "no recent chatroom messages from this model to judge by"
        rate = self.rate
        percent = f"{100 * rate:.0f}%" if rate is not None else DASH
        noun = "message" if self.examined == 1 else "messages"
        return f"loops in {self.looping} of its last {self.examined} chatroom {noun} ({percent})"


def mute_evidence(model_id: str, messages: Sequence[ChatroomMessage], *, window: int = 20) -> MuteEvidence:
    """Loop rate over the model's last ``window`` messages among ``messages`` (oldest first)."""
    own = [m for m in messages if m.model_id == model_id and m.author_kind != "human"][-window:]
    looping = 0
    example: ChatroomMessage | None = None
    example_evidence: str | None = None
    for message in own:
        verdict = loop_verdict(message)
        if verdict is not None:
            looping += 1
            example, example_evidence = message, verdict.evidence
    return MuteEvidence(model_id, len(own), looping, example, example_evidence)
