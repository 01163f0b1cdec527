"""The local archive: storing, de-duplicating, ordering, filtering, cursor, corruption."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_client.archives import schema as archive_schema
from api_client.archives.archive import (
    Archive,
    ArchiveCorruptError,
    ArchiveVersionError,
    LogFilter,
)
from api_client.blahdev.records import call_from_log_entry
from api_client.blahdev.shapes import ChatMessage, LogEntry


def entry(n: int, at: int, **kw: object) -> LogEntry:
    fields: dict[str, object] = {
        "id": f"log_{n:05d}",
        "model_id": "m1",
        "source": "eval",
        "created_at": at,
        "prompt": f"prompt number {n}",
        "response": f"reply {n}",
    }
    fields.update(kw)
    return LogEntry.model_validate(fields)


def badges(e: LogEntry) -> list[str]:
    out = []
    if e.error is not None:
        out.append("error")
    if e.finish_reason == "length":
        out.append("truncation")
    return out


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[Archive]:
    a = Archive(tmp_path / "a.sqlite3")
    yield a
    a.close()


def ids(rows: list) -> list[str]:
    return [r.id for r in rows]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --------------------------------------------------------------------------- add / dedupe


def test_add_counts_only_new_entries_and_never_stores_twice(archive: Archive) -> None:
    first = [entry(i, 1000 + i) for i in range(5)]
    assert archive.add(first) == 5
    again = [entry(3, 1003), entry(4, 1004), entry(5, 1005), entry(5, 1005)]
    assert archive.add(again) == 1  # 3 and 4 held already; 5 twice in the batch
    assert archive.count() == 6
    assert ids(archive.window(LogFilter(), 0, 100)) == [f"log_{i:05d}" for i in range(6)]


def test_add_new_returns_the_new_entries_in_the_order_given(archive: Archive) -> None:
    archive.add([entry(2, 50)])
    got = archive.add_new([entry(9, 10), entry(2, 50), entry(1, 90)])
    assert [e.id for e in got] == ["log_00009", "log_00001"]


def test_get_round_trips_every_field_including_unicode_and_messages(archive: Archive) -> None:
    original = entry(
        7,
        123,
        prompt="<|im_start|>user\nCafé ☕ 日本語 \x1b[31m\n<|im_end|>",
        messages=[ChatMessage(role="user", content="Café ☕"), ChatMessage(role="system", content=None)],
        response=None,
        error="timeout after 30 s",
        latency_ms=30000,
        max_tokens=64,
        prompt_tokens=12,
        completion_tokens=None,
        finish_reason="error",
        eval_id="ev1",
        run_id="run1",
        result_id=None,
        message_id="msg1",
    )
    archive.add([original])
    assert archive.get("log_00007") == call_from_log_entry(original)  # every field, as the product's Call
    assert archive.find("nope") is None
    with pytest.raises(KeyError):
        archive.get("nope")


# --------------------------------------------------------------------------- ordering


def test_window_is_oldest_first_whatever_order_entries_arrive_in(archive: Archive) -> None:
    archive.add([entry(i, 5000 + i) for i in range(10, 20)])  # the middle first
    archive.add([entry(i, 5000 + i) for i in range(20, 30)])  # newer: appended
    archive.add([entry(i, 5000 + i) for i in range(10)])  # older: prepended
    archive.add([entry(100, 5015), entry(101, 5005)])  # lands inside: renumbered
    want = sorted([(5000 + i, f"log_{i:05d}") for i in range(30)] + [(5015, "log_00100"), (5005, "log_00101")])
    assert ids(archive.window(LogFilter(), 0, 1000)) == [i for _, i in want]
    assert ids(archive.window(LogFilter(), 30, 10)) == [i for _, i in want[30:]]
    assert archive.window(LogFilter(), 32, 10) == []
    assert archive.window(LogFilter(), -1, 10) == []
    assert archive.position("log_00101", LogFilter()) == [i for _, i in want].index("log_00101")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    batches=st.lists(
        st.tuples(
            st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["eval", "chat"])), max_size=25),
            st.booleans(),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_any_sequence_of_batches_gives_the_sorted_deduplicated_list(
    tmp_path_factory: pytest.TempPathFactory, batches: list[tuple[list[tuple[int, str]], bool]]
) -> None:
    """Many ids share a millisecond and batches overlap or land anywhere, some stored
    unnumbered for later: the list must still be exactly the distinct entries in
    (created_at, id) order, and every filter (read between batches, so its cached list
    is patched rather than rebuilt) must agree."""
    chat = LogFilter(source="chat")
    with Archive(tmp_path_factory.mktemp("prop") / "a.sqlite3") as archive:
        held: dict[str, LogEntry] = {}
        waiting: set[str] = set()  # stored unnumbered, not listed yet
        for batch, number in batches:
            entries = [
                entry(n, n // 5 * 7 % 13 + 1000, source=src, error="x" if n % 3 == 0 else None) for n, src in batch
            ]
            new = {e.id for e in entries} - set(held)
            assert archive.add(entries, number=number) == len(new)
            for e in entries:  # the first copy of an id wins, as in the archive
                held.setdefault(e.id, e)
            if not number:
                waiting |= new
            elif new:  # a numbering add places what was waiting too
                waiting.clear()
            listed = sorted(
                (e for e in held.values() if e.source == "chat" and e.id not in waiting),
                key=lambda e: (e.created_at, e.id),
            )
            assert ids(archive.window(chat, 0, 10_000)) == [e.id for e in listed]
            assert archive.count() == len(held) - len(waiting)
        archive.number_pending()
        expected = sorted(held.values(), key=lambda e: (e.created_at, e.id))
        assert archive.count() == len(expected)
        assert ids(archive.window(LogFilter(), 0, 10_000)) == [e.id for e in expected]
        for flt, keep in [
            (LogFilter(source="chat"), lambda e: e.source == "chat"),
            (LogFilter(errors_only=True), lambda e: e.error is not None),
            (LogFilter(since_ms=1006), lambda e: e.created_at > 1006),
        ]:
            want = [e.id for e in expected if keep(e)]
            assert archive.count(flt) == len(want)
            assert ids(archive.window(flt, 0, 10_000)) == want
            if want:
                mid = len(want) // 2
                assert ids(archive.window(flt, mid, 3)) == want[mid : mid + 3]
                assert archive.position(want[mid], flt) == mid


def test_unnumbered_rows_join_the_list_when_numbered(archive: Archive) -> None:
    archive.add([entry(i, 100 + i) for i in range(0, 10, 2)])
    assert archive.add([entry(i, 100 + i) for i in range(1, 10, 2)], number=False) == 5
    assert archive.count() == 5  # not placed yet
    assert archive.position("log_00003") is None
    assert archive.number_pending() == 9  # the five new rows and the four old ones they interleave with
    assert ids(archive.window(LogFilter(), 0, 20)) == [f"log_{i:05d}" for i in range(10)]
    assert archive.number_pending() == 0


def test_filtered_lists_follow_later_inserts(archive: Archive) -> None:
    """A filtered list resolved once must grow with appends and prepends, and be
    right after an insert lands in the middle."""
    flt = LogFilter(source="chat")
    archive.add([entry(i, 100 + i, source="chat" if i % 2 else "eval") for i in range(10, 20)])
    assert archive.count(flt) == 5
    archive.add([entry(i, 100 + i, source="chat") for i in range(20, 23)])  # appended
    archive.add([entry(i, 100 + i, source="chat") for i in range(2)])  # prepended
    assert ids(archive.window(flt, 0, 100)) == [
        "log_00000",
        "log_00001",
        "log_00011",
        "log_00013",
        "log_00015",
        "log_00017",
        "log_00019",
        "log_00020",
        "log_00021",
        "log_00022",
    ]
    archive.add([entry(50, 114, source="chat")])  # between log_00013 and log_00015
    assert ids(archive.window(flt, 3, 3)) == ["log_00013", "log_00050", "log_00015"]


# --------------------------------------------------------------------------- filters


def test_filters_by_source_errors_badge_and_since(archive: Archive) -> None:
    archive.add(
        [
            entry(1, 10, source="eval"),
            entry(2, 20, source="chat", response=None, error="boom"),
            entry(3, 30, source="chat", finish_reason="length"),
            entry(4, 40, source="eval", response=None, error="503", finish_reason="length"),
        ],
        badges,
    )
    assert ids(archive.window(LogFilter(source="chat"))) == ["log_00002", "log_00003"]
    assert ids(archive.window(LogFilter(errors_only=True))) == ["log_00002", "log_00004"]
    assert ids(archive.window(LogFilter(badge="truncation"))) == ["log_00003", "log_00004"]
    assert ids(archive.window(LogFilter(since_ms=20))) == ["log_00003", "log_00004"]
    assert ids(archive.window(LogFilter(source="eval", errors_only=True, badge="truncation"))) == ["log_00004"]
    assert archive.count(LogFilter(source="test")) == 0
    row = archive.window(LogFilter(errors_only=True), 0, 1)[0]
    assert (row.failed, row.badges, row.response_prefix, row.error_prefix) == (True, ("error",), None, "boom")


def test_window_rows_carry_prefixes_not_whole_texts(archive: Archive) -> None:
    archive.add([entry(1, 1, prompt="p" * 5000, response="é" * 1000, latency_ms=12, finish_reason="stop")])
    row = archive.window(LogFilter(), 0, 1)[0]
    assert row.prompt_prefix == "p" * 300 and row.response_prefix == "é" * 300
    assert (row.latency_ms, row.finish_reason, row.source, row.created_at) == (12, "stop", "eval", 1)


def test_recomputed_badges_change_what_the_badge_filter_keeps(archive: Archive) -> None:
    archive.add([entry(i, i, finish_reason="length" if i < 3 else "stop") for i in range(6)], badges)
    flt = LogFilter(badge="truncation")
    assert archive.count(flt) == 3
    changed = archive.recompute_badges(lambda e: ["truncation"] if e.created_at % 2 else [])
    assert changed == 4  # 0 and 2 lose the badge, 3 and 5 gain it; 1 and 4 stay as they were
    assert ids(archive.window(flt)) == ["log_00001", "log_00003", "log_00005"]
    assert archive.badges_of("log_00002") == ()


def test_neighbours_in_the_whole_and_the_filtered_list(archive: Archive) -> None:
    archive.add([entry(i, i, source="chat" if i in (1, 4) else "eval") for i in range(6)])
    assert archive.neighbours("log_00000") == (None, "log_00001")
    assert archive.neighbours("log_00003") == ("log_00002", "log_00004")
    assert archive.neighbours("log_00005") == ("log_00004", None)
    chat = LogFilter(source="chat")
    assert archive.neighbours("log_00004", chat) == ("log_00001", None)
    assert archive.neighbours("log_00003", chat) == ("log_00001", "log_00004")  # not kept itself
    assert archive.neighbours("unknown") == (None, None)


def test_iter_all_yields_full_entries_in_either_order(archive: Archive) -> None:
    archive.add([entry(i, 100 - i, source="chat" if i % 2 else "eval") for i in range(2500)])
    got = [e.created_at for e in archive.iter_all(LogFilter(source="chat"), batch_size=300)]
    assert got == sorted(100 - i for i in range(2500) if i % 2)
    newest = list(archive.iter_all(newest_first=True))
    assert len(newest) == 2500 and newest[0].created_at == 100 and newest[0].prompt == "prompt number 0"


# --------------------------------------------------------------------------- meta / reopen


def test_cursor_history_flag_and_rows_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with Archive(path) as a:
        assert a.get_cursor() is None and not a.history_complete
        assert a.oldest_ms() is None and a.newest_ms() is None
        a.add([entry(1, 500), entry(2, 700)], badges)
        a.set_cursor(700)
        a.history_complete = True
    with Archive(path) as b:
        assert b.get_cursor() == 700
        assert b.history_complete
        assert (b.oldest_ms(), b.newest_ms(), b.count()) == (500, 700, 2)
        assert b.add([entry(2, 700)]) == 0  # still known after reopening
        assert b.add([entry(3, 600)]) == 1
        assert ids(b.window(LogFilter(), 0, 10)) == ["log_00001", "log_00003", "log_00002"]


def test_for_model_names_files_safely_and_keeps_models_apart(tmp_path: Path) -> None:
    hostile = "../../etc/passwd\x00 ☃"
    a = Archive.for_model(tmp_path, "blah.dev", "https://evals.blah.dev/", hostile)
    b = Archive.for_model(tmp_path, "blah.dev", "https://evals.blah.dev", "other")
    c = Archive.for_model(tmp_path, "blah.dev", "HTTPS://Evals.Blah.Dev", hostile)
    try:
        assert a.path.parent == tmp_path / "archives"
        assert a.path.name.startswith("evals.blah.dev__") and "/" not in a.path.name and "\x00" not in a.path.name
        assert a.path != b.path
        assert c.path == a.path  # the same platform and model: the same file
        assert a.model_id == hostile
    finally:
        for x in (a, b, c):
            x.close()


def test_a_second_connection_sees_new_rows(tmp_path: Path) -> None:
    """Two blah-tui processes on one archive: cached lists must notice the other's writes."""
    path = tmp_path / "a.sqlite3"
    with Archive(path) as one, Archive(path) as two:
        one.add([entry(i, i, source="chat") for i in range(3)])
        assert two.count(LogFilter(source="chat")) == 3
        two.add([entry(9, 1, source="chat")])  # lands in the middle for `one`
        assert ids(one.window(LogFilter(source="chat"), 0, 10)) == ["log_00000", "log_00001", "log_00009", "log_00002"]
        assert one.count() == 4


def test_temporary_archive_is_removed_on_close() -> None:
    a = Archive.create_temporary()
    folder = a.path.parent
    a.add([entry(1, 1)])
    assert folder.exists()
    a.close()
    assert not folder.exists()


# --------------------------------------------------------------------------- corruption


def test_garbage_file_raises_corrupt_error_and_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    path.write_bytes(b"this is not a database at all\n" * 200)
    before = sha(path)
    with pytest.raises(ArchiveCorruptError) as info:
        Archive(path)
    assert info.value.path == path
    assert str(path) in str(info.value)
    assert sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite3"]


@pytest.mark.parametrize("full_check", [True, False], ids=["quick_check", "probe"])
def test_damaged_archive_raises_corrupt_error_and_is_left_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, full_check: bool
) -> None:
    """Small files get SQLite's quick_check on open; big ones (here: forced) a probe."""
    if not full_check:
        monkeypatch.setattr(archive_schema, "QUICK_CHECK_MAX_BYTES", 0)
    path = tmp_path / "a.sqlite3"
    with Archive(path) as a:
        a.add([entry(i, i, prompt="x" * 2000) for i in range(300)])
    data = bytearray(path.read_bytes())
    page = 4096
    for at in range(2 * page, len(data), page):  # scribble over every page but the first two
        data[at + 8 : at + 200] = b"\xff" * 192
    path.write_bytes(bytes(data))
    before = sha(path)
    with pytest.raises(ArchiveCorruptError):
        Archive(path)
    assert sha(path) == before


def test_a_sound_archive_opens_with_either_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.sqlite3"
    with Archive(path) as a:
        a.add([entry(i, i) for i in range(50)], badges)
        assert a.verify() is None
    monkeypatch.setattr(archive_schema, "QUICK_CHECK_MAX_BYTES", 0)
    with Archive(path) as b:
        assert b.count() == 50


def test_foreign_sqlite_file_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes(x)")
    conn.commit()
    conn.close()
    before = sha(path)
    with pytest.raises(ArchiveCorruptError):
        Archive(path)
    assert sha(path) == before


def test_newer_schema_is_refused_not_corrupted(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with Archive(path) as a:
        a.set_meta("schema_version", "999")
    with pytest.raises(ArchiveVersionError):
        Archive(path)


def test_quarantine_moves_the_file_aside_and_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    path.write_bytes(b"garbage" * 1000)
    before = sha(path)
    fresh, moved = Archive.quarantine(path)
    try:
        assert moved.name.startswith("a.sqlite3.corrupt-") and sha(moved) == before
        assert fresh.path == path and fresh.count() == 0
        assert fresh.add([entry(1, 1)]) == 1
    finally:
        fresh.close()
    with Archive(path) as again:
        assert again.count() == 1


def test_calls_found_by_a_filter_below_the_stretch_do_not_extend_it(archive: Archive) -> None:
    assert archive.add_sparse([entry(9, 50)]) is None  # nothing held: no stretch, nothing stored
    archive.add([entry(1, 1000), entry(2, 1100)])
    new = archive.add_sparse([entry(3, 200, error="boom"), entry(4, 100, error="boom")])
    assert new is not None and len(new) == 2 and archive.count() == 4
    # the calls between 200 and 1000 were never fetched: the unbroken stretch still starts at 1000
    assert archive.oldest_ms() == 1000 and archive.has_sparse()
    archive.add([entry(5, 600)])
    archive.extend_stretch(600)  # a page of all calls down to 600
    assert archive.oldest_ms() == 600
    archive.add([entry(6, 90)])
    archive.extend_stretch(90)  # below every call held: one stretch again
    assert archive.oldest_ms() == 90 and not archive.has_sparse()
