"""Build a training set from the diagnosis suggestions and send it (no Textual).

The examples are the failing prompts the suggestions quote (only suggestions that call for
data: a prompt-format or endpoint problem is not fixed by training), each with the reply the
person wrote for it. A prompt without a reply is either left out or kept with an empty reply;
the caller says which and must ask before uploading empty replies (an empty reply teaches
the model to answer with nothing).

One JSONL line per example, the shape of ``diagnosis.to_jsonl``::

    {"messages": [{"role": "user", "content": ...}, {"role": "assistant", "content": REPLY}],
     "source_log_id": ..., "target": ...}

:func:`send_training_set` asks the platform for an upload ticket, checks the size against the
ticket's ``max_bytes`` BEFORE sending a byte, uploads with progress and reads the set back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from api_client.blahdev.shapes import TrainingSet, UploadTicket
from api_client.errors import BadRequestError, BlahError
from diagnosis.suggest import ADD_DATA, Suggestion

__all__ = [
    "BuiltSet",
    "DraftExample",
    "TooLargeError",
    "UploadResult",
    "build_jsonl",
    "draft_examples",
    "find_set",
    "safe_filename",
    "send_training_set",
    "size_problem",
]

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class DraftExample:
    """One failing prompt to answer: the turns before the reply and what to aim for."""

    log_id: str
    prompt: str  # the user's words, verbatim (for display)
    turns: tuple[tuple[str, str], ...]  # (role, content) before the reply, verbatim
    target: str  # the behaviour to write toward (described by the suggestion)
    model_reply: str | None  # what the model said (context only)


@dataclass(frozen=True, slots=True)
class BuiltSet:
    data: bytes
    examples: int  # lines in ``data``
    empty_replies: int  # of those, examples whose reply is empty
    left_out: int  # prompts left out because they had no reply

    @property
    def size_bytes(self) -> int:
        return len(self.data)


@dataclass(frozen=True, slots=True)
class UploadResult:
    training_set: TrainingSet | None  # as the platform lists it after the upload (None: not found)
    ticket: UploadTicket
    sent_bytes: int


class TooLargeError(Exception):
    """The set is larger than the platform accepts; nothing was sent."""

    def __init__(self, size: int, limit: int | None, *, by: str) -> None:
        limit_text = f"{limit:,} bytes" if limit is not None else "its limit"
        super().__init__(f"the set is {size:,} bytes; the {by} allows at most {limit_text}: nothing was sent")
        self.size = size
        self.limit = limit
        self.by = by


def draft_examples(suggestions: Iterable[Suggestion]) -> list[DraftExample]:
    """The prompts to answer, once each (by their exact turns), from the suggestions that call
    for training data."""
    out: list[DraftExample] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for suggestion in suggestions:
        if suggestion.action != ADD_DATA:
            continue
        for quote in suggestion.prompts:
            turns = quote.messages or (("user", quote.prompt),)
            if turns in seen:  # the same call, or the same prompt sent again: answer it once
                continue
            seen.add(turns)
            out.append(DraftExample(quote.log_id, quote.prompt, turns, suggestion.target, quote.reply))
    return out


def build_jsonl(
    examples: Iterable[DraftExample], replies: Mapping[str, str], *, leave_out_unanswered: bool
) -> BuiltSet:
    """The JSONL bytes; a reply that is only whitespace counts as no reply."""
    lines: list[str] = []
    empty = left_out = 0
    for example in examples:
        reply = replies.get(example.log_id, "")
        if not reply.strip():
            if leave_out_unanswered:
                left_out += 1
                continue
            empty += 1
            reply = ""
        turns = [{"role": role, "content": content} for role, content in example.turns]
        turns.append({"role": "assistant", "content": reply})
        record = {"messages": turns, "source_log_id": example.log_id, "target": example.target}
        lines.append(json.dumps(record, ensure_ascii=False))
    data = ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")
    return BuiltSet(data, len(lines), empty, left_out)


def size_problem(size: int, max_bytes: int | None) -> str | None:
    """Why ``size`` cannot be sent under ``max_bytes`` (None when it can, or no limit is given)."""
    if max_bytes is not None and size > max_bytes:
        return f"the set is {size:,} bytes; the upload allows at most {max_bytes:,}"
    return None


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def safe_filename(name: str) -> str:
    """``my set!`` -> ``my-set.jsonl``: a plain file name derived from the set's name."""
    stem = _UNSAFE_NAME.sub("-", name.strip()).strip("-.") or "training-set"
    return f"{stem[:80]}.jsonl"


class _Client(Protocol):
    """The client methods this module uses (``api_client.blahdev.client.BlahClient`` has them)."""

    async def request_upload(self, name: str, filename: str, size_bytes: int) -> UploadTicket: ...
    async def upload_training_set(
        self, ticket: UploadTicket, data: bytes, *, progress: Progress | None = None
    ) -> None: ...
    async def get_training_set(self, training_set_id: str) -> TrainingSet: ...
    async def list_training_sets(self) -> list[TrainingSet]: ...


async def send_training_set(
    client: _Client,
    name: str,
    data: bytes,
    *,
    filename: str | None = None,
    progress: Progress | None = None,
    on_ticket: Callable[[UploadTicket], None] | None = None,
) -> UploadResult:
    """Request a ticket, check the size, upload, then read the set back from the list.

    Raises ``TooLargeError`` (nothing sent) when the platform refuses the size at the ticket
    (413) or the ticket's ``max_bytes`` is smaller than the data; other client errors as they
    come (``OutcomeUnknownError`` for a timed-out upload: check the set's status).
    """
    try:
        ticket = await client.request_upload(name, filename or safe_filename(name), len(data))
    except BadRequestError as error:
        if error.status == 413:
            raise TooLargeError(len(data), None, by="platform") from None
        raise
    if on_ticket is not None:
        on_ticket(ticket)
    if size_problem(len(data), ticket.max_bytes) is not None:
        raise TooLargeError(len(data), ticket.max_bytes, by="upload ticket")
    await client.upload_training_set(ticket, data, progress=progress)
    return UploadResult(await find_set(client, ticket, name), ticket, len(data))


async def find_set(client: _Client, ticket: UploadTicket, name: str) -> TrainingSet | None:
    """The set as the platform lists it now (by the ticket's id, else by name)."""
    try:
        sets = await client.list_training_sets()
    except BlahError:
        sets = []
    if ticket.training_set_id is not None:
        listed = next((s for s in sets if s.id == ticket.training_set_id), None)
        if listed is not None:
            return listed
        try:
            return await client.get_training_set(ticket.training_set_id)
        except BlahError:
            return None
    named = [s for s in sets if s.name == name]
    return named[0] if named else None
