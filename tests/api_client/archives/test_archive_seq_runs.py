"""The archive's kept map of seq runs (``seq_runs``): after every kind of write it is the map the
ord index gives; a search that uses it answers exactly as one that reads every match's row;
a map a writer did not keep is never used, and is made again."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from api_client.archives import archive as archive_module
from api_client.archives import readers, seq_runs
from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.shapes import LogEntry

WORDS = {"alpha": 1, "beta": 3, "gamma": 7}  # in every row, every third, every seventh


def entry(i: int, at: int) -> LogEntry:
    words = " ".join(w for w, every in WORDS.items() if i % every == 0)
    return LogEntry(id=f"log_{i:04d}", created_at=at, prompt=f"{words} row{i}", response="ok")


def kept(archive: Archive) -> list[seq_runs.Run] | None:
    conn = archive._conn
    lo, hi = (conn.execute(f"SELECT {agg}(ord) FROM logs").fetchone()[0] for agg in ("min", "max"))
    return seq_runs.valid_runs(conn, None if lo is None else (lo, hi))


def from_index(archive: Archive) -> list[seq_runs.Run] | None:
    conn = archive._conn
    lo, hi = (conn.execute(f"SELECT {agg}(ord) FROM logs").fetchone()[0] for agg in ("min", "max"))
    return [] if lo is None else seq_runs.scan(conn, lo, hi)


def answers(archive: Archive) -> list[object]:
    out: list[object] = []
    for word in (*WORDS, "alpha beta", "row7"):
        flt = LogFilter(text=word)
        n = archive.count(flt)
        out += [archive.search(word, limit=None), archive.search(word, limit=5), n]
        out += [archive.window(flt, 0, 7), archive.window(flt, max(0, n - 9), 9), archive.position("log_0021", flt)]
    return out


def without_map(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    with monkeypatch.context() as m:
        m.setattr(seq_runs, "valid_runs", lambda conn, bounds: None)
        return answers(archive)


def write_every_way(archive: Archive, rnd: random.Random) -> None:
    """The live tail, a newest-first backfill, inserts in the middle, a bulk load in no time
    order, batches encoded ahead: each kind a few times, in a random order."""
    n = 0

    def fresh(k: int, times: list[int]) -> list[LogEntry]:
        nonlocal n
        batch = [entry(n + j, t) for j, t in zip(range(k), times, strict=True)]
        n += k
        return batch

    for _ in range(12):
        kind = rnd.choice(["tail", "backfill", "middle", "bulk", "encoded"])
        k = rnd.randint(1, 9)
        if kind == "tail":
            archive.add(fresh(k, [100_000 + n * 10 + j for j in range(k)]))
        elif kind == "backfill":
            archive.add(fresh(k, [50_000 - n * 10 - j for j in range(k)]))
        elif kind == "middle":
            archive.add(fresh(k, [rnd.randint(40_000, 110_000) for _ in range(k)]))
        elif kind == "bulk":
            archive.add(fresh(k, [rnd.randint(0, 200_000) for _ in range(k)]), number=False)
            if rnd.random() < 0.5:
                archive.number_pending()
        else:
            archive.add_encoded(archive.encode(fresh(k, [200_000 + n * 10 + j for j in range(k)])))
        if kind != "bulk":
            assert kept(archive) == from_index(archive), kind
    archive.number_pending()


@pytest.mark.parametrize("seed", range(8))
def test_the_kept_runs_are_the_ord_index_s_after_every_kind_of_write(tmp_path: Path, seed: int) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        write_every_way(archive, random.Random(seed))
        assert kept(archive) == from_index(archive)
        assert kept(archive)


@pytest.mark.parametrize("seed", range(4))
def test_searches_placed_by_the_kept_runs_answer_as_reading_every_row(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        write_every_way(archive, random.Random(seed))
        assert kept(archive) is not None
        assert answers(archive) == without_map(archive, monkeypatch)


def test_a_rare_word_s_search_reads_only_the_rows_it_answers_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Archive(tmp_path / "a.sqlite3") as archive:
        for lo in range(0, 600, 100):  # newest first, as an export stores them: a run per batch
            archive.add([entry(i, 10_000 - i) for i in range(lo, lo + 100)])
        read: list[int] = []
        real = readers.ParallelReaders._read

        def counted(self: readers.ParallelReaders, keys: list[int], *args: object, **kw: object) -> object:
            read.append(len(keys))
            return real(self, keys, *args, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(readers.ParallelReaders, "_read", counted)
        monkeypatch.setattr(archive_module, "search_array_below", lambda limit, rows: 5000)  # as at 1M rows
        result = archive.search("gamma", limit=10)
        assert result.count == 86
        assert result.ids == [f"log_{i:04d}" for i in range(595, 525, -7)]
        assert read == [10]


def test_a_map_a_writer_did_not_keep_is_not_used_and_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.sqlite3"
    with Archive(path) as archive:
        archive.add([entry(i, 1000 + i) for i in range(40)])
        with monkeypatch.context() as m:  # an older blah-tui: stores rows, keeps no map
            m.setattr(seq_runs, "note", lambda *args: None)
            archive.add([entry(i, 500 - i) for i in range(40, 60)])
        assert kept(archive) is None  # the map describes the archive before that write
        assert answers(archive) == without_map(archive, monkeypatch)
        archive.add([entry(60, 5000)])  # the next write makes it again
        assert kept(archive) == from_index(archive) == [(-20, -1, 61), (0, 39, 1), (40, 40, 21)]
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM meta WHERE key = ?", (seq_runs.KEY,))  # an archive from before the map
    conn.commit()
    conn.close()
    with Archive(path) as archive:  # made once when opened
        assert kept(archive) == from_index(archive)
