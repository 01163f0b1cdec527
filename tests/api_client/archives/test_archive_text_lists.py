"""Search-only lists read straight from the FTS index (archive_text.TextView): they must give
exactly what the materialised ordinal array gives (count, windows, positions, neighbours,
oldest first) however the rows were stored: in time order, backfilled, inserted in the
middle, bulk-loaded out of order, indexed late, or written by another process."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_client.archives import lists as archive_lists
from api_client.archives import seq_runs
from api_client.archives import text_lists as archive_text
from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.shapes import LogEntry

# Which rows carry which word: "alpha" is in every row (the common-word case), the others
# in some; "alpha beta" needs both.
WORDS = {
    "alpha": lambda i: True,
    "beta": lambda i: i % 3 == 0,
    "gamma": lambda i: i % 7 == 2,
}
QUERIES = ("alpha", "beta", "gamma", "alpha beta")


def entry(i: int, at: int) -> LogEntry:
    words = " ".join(w for w, keep in WORDS.items() if keep(i))
    return LogEntry(id=f"log_{i:04d}", created_at=at, prompt=f"{words} row{i}", response="ok")


def expected(entries: dict[str, LogEntry], text: str) -> list[str]:
    terms = text.split()
    kept = [e for e in entries.values() if all(t in (e.prompt or "").split() for t in terms)]
    return [e.id for e in sorted(kept, key=lambda e: (e.created_at, e.id))]


@pytest.fixture
def lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small chunks (many runs and chunks in a small archive) and no array for few matches."""
    monkeypatch.setattr(archive_text, "RUN_CHUNK", 8)
    monkeypatch.setattr(archive_text, "ARRAY_BELOW", 0)


@pytest.fixture(params=["kept runs", "runs checked"])
def archive(
    tmp_path: Path, lazy: None, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Archive]:
    """Lists placed by the archive's kept map of seq runs, and by runs checked in the ord index
    (an archive whose map is not valid: ``seq_runs.valid_runs``)."""
    if request.param == "runs checked":
        monkeypatch.setattr(seq_runs, "valid_runs", lambda conn, bounds: None)
    a = Archive(tmp_path / "t.sqlite3")
    yield a
    a.close()


def ids(rows: list) -> list[str]:
    return [r.id for r in rows]


def check(archive: Archive, entries: dict[str, LogEntry], *, every_row: bool = True) -> None:
    """The lazy list equals the oracle and the materialised list (``since_ms`` below every
    row keeps the same rows but takes the ordinal-array path)."""
    for text in QUERIES:
        want = expected(entries, text)
        flt, slow = LogFilter(text=text), LogFilter(text=text, since_ms=-1)
        n = len(want)
        assert archive.count(flt) == n == archive.count(slow)
        for start in sorted({s for s in (0, 1, 3, n // 2 - 2, n // 2, n - 9, n - 3, n - 1, n, n + 4) if s >= 0}):
            for limit in (1, 5, 17, n + 8):
                got = ids(archive.window(flt, start, limit))
                assert got == want[start : start + limit], (text, start, limit)
                assert got == ids(archive.window(slow, start, limit))
        assert archive.search(text, limit=None).ids == want
        assert archive.search(text, limit=7).ids == want[:7]
        sample = list(entries) if every_row else random.Random(n).sample(list(entries), min(25, len(entries)))
        for log_id in sample:
            pos = archive.position(log_id, flt)
            assert pos == (want.index(log_id) if log_id in want else None), (text, log_id)
            assert archive.neighbours(log_id, flt) == archive.neighbours(log_id, slow), (text, log_id)


def test_rows_stored_every_way_are_listed_exactly(archive: Archive) -> None:
    entries: dict[str, LogEntry] = {}

    def add(batch: list[LogEntry], **kw: bool) -> None:
        archive.add(batch, **kw)
        entries.update((e.id, e) for e in batch)

    for lo in range(0, 40, 10):  # the live tail, in time order: one run
        add([entry(i, 5000 + 10 * i) for i in range(lo, lo + 10)])
    check(archive, entries)
    for lo in range(100, 130, 7):  # backfill, newest page first: a run per page, below the rest
        add([entry(i, 5000 - 10 * (i - 99)) for i in range(lo, lo + 7)])
    check(archive, entries)
    add([entry(200, 5055), entry(201, 5056), entry(202, 4805)])  # in the middle: renumbers a side
    check(archive, entries)
    for k in range(6):  # tail and backfill interleaved: short runs
        add([entry(300 + k, 6000 + k)])
        add([entry(400 + k, 3000 - k)])
    check(archive, entries)
    shuffled = [entry(500 + k, 2000 + 97 * k) for k in range(40)]
    random.Random(3).shuffle(shuffled)
    for lo in range(0, 40, 8):  # a bulk load in no time order, placed at the end
        add(shuffled[lo : lo + 8], number=False)
    assert archive.number_pending() > 0
    check(archive, entries)
    add([entry(600 + k, 7000 + k) for k in range(5)], index_text=False)  # indexed at the first search
    check(archive, entries)


def test_search_only_lists_are_never_materialised(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
    archive.add([entry(i, 1000 + i) for i in range(50)])

    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("a search-only list was materialised")

    monkeypatch.setattr(archive_lists, "select_ords", refuse)
    flt = LogFilter(text="alpha")
    assert archive.count(flt) == 50
    assert ids(archive.window(flt, 48, 5)) == ["log_0048", "log_0049"]
    assert archive.position("log_0030", flt) == 30
    assert archive.neighbours("log_0030", flt) == ("log_0029", "log_0031")
    assert archive.search("beta").count == 17
    archive.add([entry(50, 2000)])  # the tail: counted by looking at the new row only
    assert archive.count(flt) == 51


def test_live_appends_and_backfill_update_a_listed_search(archive: Archive) -> None:
    entries = {e.id: e for e in (entry(i, 1000 + i) for i in range(30))}
    archive.add(list(entries.values()))
    flt = LogFilter(text="beta")
    assert ids(archive.window(flt, 0, 100)) == expected(entries, "beta")
    for k in range(4):
        new = [entry(100 + 3 * k + j, 2000 + 3 * k + j) for j in range(3)] + [entry(200 + k, 900 - k)]
        archive.add(new[:3])
        archive.add(new[3:])
        entries.update((e.id, e) for e in new)
        want = expected(entries, "beta")
        assert archive.count(flt) == len(want)
        assert ids(archive.window(flt, len(want) - 4, 4)) == want[-4:]
        assert ids(archive.window(flt, 0, 3)) == want[:3]


def test_another_process_writing_is_seen(tmp_path: Path, lazy: None) -> None:
    path = tmp_path / "shared.sqlite3"
    entries = {e.id: e for e in (entry(i, 1000 + 2 * i) for i in range(40))}
    with Archive(path) as reader, Archive(path) as writer:
        writer.add(list(entries.values()))
        check(reader, entries, every_row=False)
        more = [entry(100 + i, 2000 + i) for i in range(9)] + [entry(200 + i, 500 + i) for i in range(9)]
        writer.add(more[:9])
        writer.add(more[9:])
        writer.add([entry(300, 1001)])  # between two held rows: renumbers
        entries.update((e.id, e) for e in [*more, entry(300, 1001)])
        check(reader, entries, every_row=False)


def test_rows_waiting_to_be_placed_are_not_counted(archive: Archive) -> None:
    archive.add([entry(i, 1000 + i) for i in range(20)])
    flt = LogFilter(text="alpha")
    assert archive.count(flt) == 20
    archive.add([entry(100 + i, 500 + 7 * i) for i in range(5)], number=False)
    assert archive.count(flt) == 20 == archive.count()  # stored, not listed yet
    archive.number_pending()
    assert archive.count(flt) == 25
    assert ids(archive.window(flt, 0, 2)) == ["log_0100", "log_0101"]


def test_rows_far_out_of_time_order_fall_back_to_the_array(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive_text, "MAX_RUNS_PER_CHUNK", 2)
    batch = [entry(i, 1000 + 13 * i) for i in range(60)]
    random.Random(5).shuffle(batch)
    archive.add(batch, number=False)  # seq order is random against time order: runs of ~1 row
    archive.number_pending()
    calls: list[LogFilter] = []
    real = archive._all_ords
    monkeypatch.setattr(archive, "_all_ords", lambda flt: calls.append(flt) or real(flt))
    check(archive, {e.id: e for e in batch})
    assert calls  # the fallback did run (the results above came through it)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.sampled_from(["append", "prepend", "middle", "bulk"]), st.integers(1, 9)),
        min_size=1,
        max_size=7,
    )
)
def test_any_order_of_writes_lists_exactly(tmp_path_factory: pytest.TempPathFactory, lazy: None, ops: list) -> None:
    entries: dict[str, LogEntry] = {}
    lo_t, hi_t, i = 10_000, 10_000, 0
    with Archive(tmp_path_factory.mktemp("h") / "h.sqlite3") as archive:
        for kind, n in ops:
            if kind == "append":
                batch = [entry(i + k, hi_t + 2 * k + 2) for k in range(n)]
                hi_t += 2 * n + 2
            elif kind == "prepend":
                batch = [entry(i + k, lo_t - 2 * k - 2) for k in range(n)]
                lo_t -= 2 * n + 2
            else:  # odd times fall between held rows
                batch = [entry(i + k, lo_t + 1 + (2 * k * 7919) % max(2, hi_t - lo_t)) for k in range(n)]
            i += n
            archive.add(batch, number=kind != "bulk")
            if kind == "bulk":
                archive.number_pending()
            entries.update((e.id, e) for e in batch)
        check(archive, entries, every_row=False)
