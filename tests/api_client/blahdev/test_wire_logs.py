"""``wire_logs``: a page's JSONL lines cut from the platform's JSON are the bytes the
validated ``LogEntry`` serializer writes, for canonical calls of any text, and any page that
is not canonical goes through pydantic as before (same lines, same refusals)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_client.blahdev.shapes import LogEntry, LogPage
from api_client.blahdev.wire_logs import FIELDS, canonical_entries, messages_json, wire_page_parser
from api_client.errors import InvalidResponseError  # noqa: F401  (the general path's error)

NASTY = [
    "",
    "plain",
    'quote " and backslash \\',
    "\x00\x01\x1b[31m\x7f\x9b",
    "\t\n\r\b\f",
    "\u2028\u2029",
    "é ß 漢字 🙂 \U0001f9ea",
    '},{"id":"log_x","model_id":null}',
    "</script><!--",
    "\ud7ff\ue000\uffff",
]


def call(i: int, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict.fromkeys(FIELDS)
    base.update(
        id=f"log_{i:07d}",
        model_id="m",
        source="test",
        created_at=1_700_000_000_000 - i,
        prompt=NASTY[i % len(NASTY)],
        messages=[{"role": "user", "content": NASTY[(i + 3) % len(NASTY)]}],
        response=NASTY[(i + 5) % len(NASTY)],
        latency_ms=i,
        max_tokens=64,
        finish_reason="stop",
    )
    base.update(over)
    return base


def pydantic_lines(body: bytes) -> list[bytes]:
    """What export wrote before: each validated entry through LogEntry's serializer."""
    return [LogEntry.__pydantic_serializer__.to_json(e) for e in LogPage.model_validate_json(body).logs]


def page_body(logs: list[Any], **extra: Any) -> bytes:
    return orjson.dumps({"logs": logs, "next_since": 1, "next_before": 2, **extra})


def test_canonical_calls_take_the_fast_path_and_keep_pydantics_bytes() -> None:
    logs = [call(i) for i in range(40)]
    assert canonical_entries(logs) is not None  # the fast path, not pydantic
    page = wire_page_parser.from_json(page_body(logs))
    assert [e.line for e in page.logs] == pydantic_lines(page_body(logs))
    assert [e.id for e in page.logs] == [c["id"] for c in logs]
    # what the archive stores: the messages' JSON as ``messages_json`` writes it from models
    assert [e.messages_json for e in page.logs] == [
        messages_json(e.messages) for e in LogPage.model_validate_json(page_body(logs)).logs
    ]


text = st.one_of(st.none(), st.text(max_size=40))
ints = st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1))
message = st.builds(lambda role, content: {"role": role, "content": content}, st.text(max_size=8), text)
messages = st.one_of(st.none(), st.lists(message, max_size=3))


@st.composite
def wire_calls(draw: st.DrawFn) -> dict[str, Any]:
    kinds = {"id": st.text(min_size=1, max_size=12), "created_at": st.integers(0, 2**53), "messages": messages}
    out: dict[str, Any] = {}
    for name in FIELDS:
        ann = str(LogEntry.model_fields[name].annotation)
        out[name] = draw(kinds.get(name, ints if "int" in ann else text))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(wire_calls(), max_size=6))
def test_any_canonical_page_is_written_as_pydantic_writes_it(logs: list[dict[str, Any]]) -> None:
    body = page_body(logs)
    assert canonical_entries(orjson.loads(body)["logs"]) is not None
    fast = wire_page_parser.from_json(body).logs
    assert [e.line for e in fast] == pydantic_lines(body)
    models = LogPage.model_validate_json(body).logs  # what the archive stores, field for field
    assert [e.messages_json for e in fast] == [messages_json(m.messages) for m in models]
    assert [[getattr(e, f) for f in FIELDS if f != "messages"] for e in fast] == [
        [getattr(m, f) for f in FIELDS if f != "messages"] for m in models
    ]


@pytest.mark.parametrize(
    "odd",
    [
        {"latency_ms": "57"},  # a number as a string: pydantic converts it
        {"latency_ms": 57.0},  # a float: pydantic converts it
        {"max_tokens": True},  # a boolean where an int belongs
        {"messages": [{"role": "user", "content": "hi", "name": "x"}]},  # an extra key in a message
        {"messages": [{"content": "hi", "role": "user"}]},  # keys in another order
        {"unknown_field": 1},  # a field the client does not know (ignored by pydantic)
    ],
)
def test_a_page_that_is_not_canonical_is_validated_and_written_as_before(odd: dict[str, Any]) -> None:
    logs = [call(0), call(1, **odd), call(2)]
    assert canonical_entries(logs) is None
    body = page_body(logs)
    assert [e.line for e in wire_page_parser.from_json(body).logs] == pydantic_lines(body)


@pytest.mark.parametrize(
    "messages", [[{"role": "user", "content": 3}], [["user", "hi"]], ["hi"], [{"role": 1, "content": "x"}]]
)
def test_messages_the_fast_path_does_not_know_leave_the_page_to_pydantic(messages: list[Any]) -> None:
    assert canonical_entries([call(0), call(1, messages=messages)]) is None


def test_missing_fields_and_reordered_keys_come_out_in_the_models_order() -> None:
    sparse = {"created_at": 5, "id": "log_1", "prompt": "p"}
    body = page_body([sparse])
    lines = [e.line for e in wire_page_parser.from_json(body).logs]
    assert lines == pydantic_lines(body)
    assert list(orjson.loads(lines[0])) == list(FIELDS)


def test_a_page_pydantic_refuses_is_refused_the_same_way() -> None:
    from pydantic import ValidationError

    for body in (page_body([{"id": "x"}]), b"<html>oops</html>", page_body([call(0)], next_before="soon")):
        with pytest.raises(ValidationError):
            LogPage.model_validate_json(body)
        with pytest.raises(ValidationError):  # the general path then says what is wrong
            wire_page_parser.from_json(body)
