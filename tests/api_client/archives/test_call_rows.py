"""The archive's one row type is the product's ``Call``: a stored row is a ``Call`` by position
(``base.call_from_row``), for one call read back (``find``), every call in bulk (diagnosis's
``read_range``) and the newest ones (``newest_entries``) alike."""

from __future__ import annotations

from api_client.archives.archive import Archive
from api_client.archives.base import call_from_row
from api_client.archives.bulk import DIAGNOSIS_COLUMNS, archive_span, call_from_bulk_row, newest_entries, read_range
from api_client.archives.schema import LOG_COLUMNS
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import ChatMessage, LogEntry
from common.records import CALL_FIELDS, Call, ChatTurn


def test_the_archives_columns_are_calls_fields_in_order() -> None:
    assert LOG_COLUMNS == CALL_FIELDS


def test_a_row_with_and_without_chat_turns_is_the_call_that_was_stored() -> None:
    plain = LogEntry(id="a", created_at=1, prompt="p", response="r", latency_ms=3)
    chat = LogEntry(
        id="b",
        created_at=2,
        messages=[ChatMessage(role="user", content="hi"), ChatMessage(role="assistant", content=None)],
    )
    archive = Archive.create_temporary()
    try:
        archive.add([plain, chat])
        assert archive.find("a") == call_from_log_entry(plain)
        assert archive.find("b") == call_from_log_entry(chat)
        assert archive.get("b").messages == (ChatTurn("user", "hi"), ChatTurn("assistant", None))
        assert newest_entries(archive.path, 10) == [call_from_log_entry(chat), call_from_log_entry(plain)]
        span = archive_span(archive.path)
        assert span.first_ord is not None and span.last_ord is not None
        (rows,) = list(read_range(archive.path, span.first_ord, span.last_ord))
        bulk = [call_from_bulk_row(row) for row in rows]
        assert all(type(c) is Call for c in bulk) and [c.id for c in bulk] == ["a", "b"]
        # diagnosis's rows leave out what it does not read: those fields say "not given"
        assert bulk[0] == call_from_log_entry(plain).replace(latency_ms=None)
        assert all(getattr(c, n) is None for c in bulk for n in CALL_FIELDS if n not in DIAGNOSIS_COLUMNS)
    finally:
        archive.close()


def test_call_from_row_builds_the_call_by_position() -> None:
    row = ("id1", "m", "eval", 5, "p", None, "r", None, 10, 64, 2, 3, "stop", "ev", "run", "res", "msg")
    assert call_from_row(row) == Call(*row)
    chat = row[:5] + ('[{"role": "user", "content": "x"}]',) + row[6:]
    assert call_from_row(chat).messages == (ChatTurn("user", "x"),)
