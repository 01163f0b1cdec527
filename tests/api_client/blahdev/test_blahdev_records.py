"""blah.dev's wire shapes read as the product's ``Call`` in one place (``api_client.blahdev.records``):
every field kept, a field the platform left out None."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from api_client.blahdev.records import call_from_chatroom_message, call_from_log_entry, call_page, parse_call
from api_client.blahdev.shapes import ChatMessage, ChatroomMessage, LogEntry, LogPage, LogStats
from common.records import CALL_FIELDS, Call, ChatTurn


def test_every_field_of_a_log_entry_is_kept_under_the_same_name() -> None:
    entry = LogEntry(
        id="log_1",
        model_id="m",
        source="eval",
        created_at=1_700_000_000_000,
        prompt="p",
        messages=[ChatMessage(role="system", content=None), ChatMessage(role="user", content="hi")],
        response="r",
        error="e",
        latency_ms=7,
        max_tokens=64,
        prompt_tokens=3,
        completion_tokens=4,
        finish_reason="length",
        eval_id="ev",
        run_id="run",
        result_id="res",
        message_id="msg",
    )
    call = call_from_log_entry(entry)
    assert type(call) is Call
    assert call.messages == (ChatTurn("system", None), ChatTurn("user", "hi"))
    assert all(getattr(call, name) == getattr(entry, name) for name in CALL_FIELDS if name != "messages")
    assert tuple(LogEntry.model_fields) == CALL_FIELDS  # the archive's columns, the dump's keys: one order


def test_what_blah_dev_left_out_stays_none() -> None:
    call = parse_call({"id": "log_2", "created_at": 5})
    assert call == Call("log_2", created_at=5)
    assert call.messages is None and call.latency_ms is None and call.finish_reason is None


def test_a_call_without_its_time_is_refused_not_given_a_zero() -> None:
    with pytest.raises(ValidationError):
        parse_call({"id": "log_3"})


def test_a_page_keeps_its_order_cursors_and_totals() -> None:
    page = LogPage(
        logs=[LogEntry(id="b", created_at=2), LogEntry(id="a", created_at=1)], next_before=1, stats=LogStats(total=2)
    )
    calls = call_page(page)
    assert [c.id for c in calls.logs] == ["b", "a"] and all(type(c) is Call for c in calls.logs)
    assert (calls.next_since, calls.next_before, calls.stats) == (None, 1, LogStats(total=2))


def test_a_chatroom_message_reads_as_a_reply() -> None:
    message = ChatroomMessage(id="msg_1", created_at=9, author_kind="model", model_id="m", content="la la la")
    assert call_from_chatroom_message(message) == Call(
        "msg_1", model_id="m", source="chatroom", created_at=9, response="la la la", message_id="msg_1"
    )
    logged = ChatroomMessage(id="msg_2", created_at=9, log_id="log_9", content=None)
    assert call_from_chatroom_message(logged).id == "log_9" and call_from_chatroom_message(logged).model_id is None
