"""A page of calls as the platform sent it, for ``export``: the JSONL line of each call and
the call's fields, without building a validated ``LogEntry`` per call.

An export of 100k calls spent ~2 s of CPU in pydantic (parse and validate every call, then
serialize each one back to JSON) before a byte reached the file. Here a page is parsed once
with orjson and each call is checked to be *canonical*: exactly ``LogEntry``'s fields, in
its order, each of the exact JSON type its annotation allows (``str``/``int``/``null``; the
messages a list of ``{"role", "content"}``). For such a call pydantic would accept every
value as it is and write it back field for field, so orjson's bytes for it are the bytes
``LogEntry``'s serializer writes (tests/api_client/blahdev/test_wire_logs.py holds that over
strings of every kind): the line is cut out of one ``orjson.dumps`` of the page. A page
with anything else in it (a missing or extra field, a number where a string belongs, a
float, JSON orjson refuses) is validated by pydantic as before, every call of it, and its
lines are pydantic's: the file is byte for byte what it was, whatever the platform sends.

``WireEntry`` is not a call type: it is a call *as blah.dev sent it*, for the export alone
(the JSONL ``line`` to write, the fields by ``LogEntry``'s names for the archive's insert,
the messages as the archive's JSON text). Everything that reads a call reads the product's
``common.records.Call`` (``api_client.blahdev.records``); this fast path is kept for its
measured saving (~2 s of CPU per 100k calls exported, above), and
tests/api_client/blahdev/test_wire_logs.py holds its bytes equal to pydantic's.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from typing import Any, NamedTuple

import orjson

from api_client.blahdev.shapes import ChatMessage, LogEntry, LogPage

__all__ = ["FIELDS", "WireEntry", "WirePage", "canonical_entries", "wire_page", "wire_page_parser"]

FIELDS: tuple[str, ...] = tuple(LogEntry.model_fields)
"""``LogEntry``'s fields in its order: the keys (and their order) of a canonical call."""

_MESSAGE_KEYS = tuple(ChatMessage.model_fields)
_NONE = type(None)
_MESSAGES = object()
"""Marks the ``messages`` field in ``_KINDS`` (checked item by item)."""


WireEntry = NamedTuple("WireEntry", [(name, Any) for name in (*FIELDS, "line", "messages_json")])  # type: ignore[misc]  # fields named at run time
"""A call's fields by ``LogEntry``'s names (messages as sent: dicts of ``role`` and
``content``; ``ChatMessage`` on the general path), its JSONL line
(newline excluded) and its messages as the archive stores them (``[{"role", "content"}]``
JSON text, None without messages): one ``orjson.dumps`` of the messages as sent, so the
archive's fill builds no dict per message."""


def _kinds_of(annotation: Any) -> frozenset[type] | object | None:
    """The JSON types a field of this annotation takes without conversion, or None when
    the field is not one this fast path knows (the whole fast path then stays off)."""
    if annotation in (str, int):
        return frozenset({annotation})
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = set(typing.get_args(annotation))
        if _NONE in args:
            rest = args - {_NONE}
            if rest <= {str, int} and len(rest) == 1:
                return frozenset({*rest, _NONE})
            if rest == {list[ChatMessage]}:
                return _MESSAGES
    return None


def _field_kinds() -> tuple[Any, ...] | None:
    kinds = tuple(_kinds_of(info.annotation) for info in LogEntry.model_fields.values())
    ok = (
        all(k is not None for k in kinds)
        and FIELDS[:1] == ("id",)
        and _MESSAGE_KEYS == ("role", "content")
        and kinds.count(_MESSAGES) == 1
    )
    return kinds if ok else None


_KINDS = _field_kinds()
_MESSAGES_AT = FIELDS.index("messages") if "messages" in FIELDS else 0


_new = tuple.__new__
_MESSAGE_SIGNATURES = frozenset({(str, str), (str, _NONE)})


def _canonical_column(kinds: Any, types_seen: set[type]) -> bool:
    """Every value of one field (its set of types) is of a type ``kinds`` allows."""
    if kinds is _MESSAGES:
        return types_seen <= {list, _NONE}
    return types_seen <= kinds


def canonical_entries(logs: Any) -> list[WireEntry] | None:
    """The calls of a decoded page as ``WireEntry`` when every one is canonical (see the
    module's docstring), each with its line; None when any is not.

    Checked a page at a time, in C-level passes (``map``/``set``/``zip`` over the calls,
    no Python per call): every call is a dict with exactly ``FIELDS`` in order, each
    field's column holds only the JSON types its annotation allows (a field's kinds do not
    depend on the others', so one type set per column says what a type signature per call
    said, in a third of the time), and so is every message (a dict of exactly ``role``,
    ``content``: str and str or null)."""
    if _KINDS is None or type(logs) is not list:
        return None
    if not logs:
        return []
    if set(map(type, logs)) != {dict} or set(map(tuple, logs)) != {FIELDS}:
        return None
    columns = list(zip(*map(dict.values, logs)))
    if not all(map(_canonical_column, _KINDS, map(set, map(map, repeat(type), columns)))):
        return None
    messages = columns[_MESSAGES_AT]
    items = list(chain.from_iterable(m for m in messages if m is not None))
    if items and (
        set(map(type, items)) != {dict}
        or set(map(tuple, items)) != {_MESSAGE_KEYS}
        or not set(map(tuple, map(map, repeat(type), map(dict.values, items)))) <= _MESSAGE_SIGNATURES
    ):
        return None
    # One dumps for the page; ``},{"id":`` can only be the seam between two calls (a quote
    # inside a string is escaped, and only a call's object starts with "id").
    dumps = orjson.dumps
    lines = dumps(logs)[1:-1].replace(b'},{"id":', b'}\n{"id":').split(b"\n")
    if len(lines) != len(logs):
        return None
    # Canonical messages: their JSON is what ``messages_json`` writes for them.
    as_json = [None if m is None else dumps(m).decode() for m in messages]
    return list(map(_new, repeat(WireEntry), zip(*columns, lines, as_json)))


def messages_json(messages: Sequence[Any] | None) -> str | None:
    """Messages (anything with ``role`` and ``content``) as the archive stores them."""
    if messages is None:
        return None
    return orjson.dumps([{"role": m.role, "content": m.content} for m in messages]).decode()


def _from_entry(entry: LogEntry) -> WireEntry:
    """A validated call as a ``WireEntry`` with pydantic's line (the general path)."""
    return WireEntry._make(
        [
            *(getattr(entry, name) for name in FIELDS),
            entry.__pydantic_serializer__.to_json(entry),
            messages_json(entry.messages),
        ]
    )


@dataclass(frozen=True, slots=True)
class WirePage:
    """A page of ``GET /models/{id}/logs``: its calls (newest first, as sent) and cursors."""

    logs: list[WireEntry]
    next_since: int | None = None
    next_before: int | None = None


def wire_page(page: LogPage) -> WirePage:
    return WirePage([_from_entry(e) for e in page.logs], page.next_since, page.next_before)


def _cursor(value: Any) -> bool:
    return value is None or type(value) is int


class _WirePageParser:
    """``HttpCore``'s parser for a page as ``WirePage``: ``from_json`` takes the fast path
    on a canonical page, else validates the bytes with pydantic (whose ValidationError
    sends the body down the general path, ``__call__``, which says what is wrong)."""

    def __call__(self, data: Any) -> WirePage:
        return wire_page(LogPage.from_decoded(data))

    @staticmethod
    def from_json(body: bytes) -> WirePage:
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            data = None
        if (
            type(data) is dict
            and data.get("stats") is None
            and _cursor(data.get("next_since"))
            and _cursor(data.get("next_before"))
        ):
            entries = canonical_entries(data.get("logs", []))
            if entries is not None:
                return WirePage(entries, data.get("next_since"), data.get("next_before"))
        return wire_page(LogPage.model_validate_json(body))


wire_page_parser = _WirePageParser()


def page_lines(entries: Sequence[WireEntry]) -> bytes:
    """The JSONL lines of these calls, in this order, as one buffer."""
    if not entries:
        return b""
    lines = [entry.line for entry in entries]  # type: ignore[attr-defined]  # fields made from FIELDS at import
    return b"\n".join(lines) + b"\n"
