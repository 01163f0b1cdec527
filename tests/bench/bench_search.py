"""Benchmark: full-text search over N archived calls vs ``grep`` over the same calls as JSONL.

Also home of ``cached_archive(n)``: the N-row archive the start-up and memory benchmarks
open. It is built once with bulk inserts (text index deferred, then ``index_pending``)
from ``bench_archive.Synthetic`` and cached under ``/tmp/blah-tui-bench/`` with the JSONL
export beside it, so later runs only open it.

Run: ``.venv/bin/python tests/bench/bench_search.py [--rows 1000000] [--json PATH]``.
The search figure is ``Archive.search`` (count + the first 1000 ids), the app's search;
the baseline is the fairest grep a person would run: ``grep -cw WORD`` (whole words, as the
archive's index matches them) over the calls' text fields only (prompt, response, error: one
line per call, built once beside the JSONL), timed as a subprocess. Three words: a common
one, a rare one and one absent from every call; each cold (both sides' files evicted from the
page cache; ours includes opening the archive) and warm (medians of repeats). Goal: >= 10x
grep for any word, cold and warm. The "Logs list" figure is
what the Logs screen asks when a search is typed, on a freshly opened archive: the
filter's count, the newest screenful (128 rows) and the newest 2000 rows for the plot.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import orjson
from bench_archive import DATA_SETS, badges, make_generator, timed
from bench_output import save_json

from api_client.archives.archive import Archive, LogFilter

CACHE = Path(os.environ.get("BLAH_BENCH_CACHE", "/tmp/blah-tui-bench"))
MODEL_ID = "bench-model"
WORDS = ("model", "zanzibar", "xylograph")  # common, rare, absent (Synthetic's vocabulary)
NATURAL_WORDS = ("the", "model", "thu", "shock", "zanzibar", "xylograph")
"""natural_text's: in 1M calls 'the' 946k and 'model' 697k (counts kept), 'thu' 39.8k and
'shock' 13.9k (mid-frequency: counted from the index; 'shock' below the old list threshold),
'zanzibar' 2.0k (rare), 'xylograph' none."""
GOAL_RATIO = 10.0


def _badges_meta() -> str:
    """What the Logs screen expects in ``badges_by`` for a model without a trained template,
    so it does not recompute the badges of the whole archive when it opens it (an archive
    the app filled itself has this; the bench's badges are ``bench_archive.badges``)."""
    from application.logs.badges import diagnosis_available

    return f"{'diagnosis' if diagnosis_available() else 'fallback'}:-"


def _stem(rows: int, data: str) -> str:
    """The cached files' name: the synthetic set keeps the names earlier runs built."""
    return f"archive-{rows}" if data == "synthetic" else f"archive-{data}-{rows}"


def cached_archive(rows: int, *, log: bool = True, data: str = "synthetic") -> Path:
    """Path of an archive of ``rows`` calls of the data set ``data`` (``bench_archive.DATA_SETS``:
    synthetic ~1 KB calls, or natural text), built on first use."""
    CACHE.mkdir(parents=True, exist_ok=True)
    stem = _stem(rows, data)
    path = CACHE / f"{stem}.sqlite3"
    done = CACHE / f"{stem}.done"
    if done.exists() and path.exists():
        return path
    for old in CACHE.glob(f"{stem}.sqlite3*"):
        old.unlink()
    gen = make_generator(data)
    started = time.perf_counter()
    with Archive(path) as archive:
        for batch in gen.batches(0, rows):
            archive.add(batch, badges, index_text=False)
        archive.index_pending()
        archive.set_meta("model_id", MODEL_ID)
        archive.set_meta("badges_by", _badges_meta())
    done.write_text(f"{time.perf_counter() - started:.1f} s\n")
    if log:
        print(f"built {path} ({rows:,} rows) in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return path


def cached_jsonl(rows: int, data: str = "synthetic") -> Path:
    """The same calls exported as JSONL (what ``blah-tui export`` writes), built once."""
    path = CACHE / f"{_stem(rows, data)}.jsonl"
    if path.exists():
        return path
    archive_path = cached_archive(rows, data=data)
    part = path.with_suffix(".part")
    with Archive(archive_path) as archive, open(part, "wb") as fh:
        fh.writelines(orjson.dumps(_call_json(e)) + b"\n" for e in archive.iter_all())
    part.rename(path)
    return path


def _call_json(call: Any) -> dict[str, Any]:
    """A stored call as the platform's JSON (its fields; chat messages as role/content objects)."""
    out = {f.name: getattr(call, f.name) for f in fields(call)}
    if out.get("messages") is not None:
        out["messages"] = [{"role": m.role, "content": m.content} for m in out["messages"]]
    return out


def cached_text_fields(rows: int, data: str = "synthetic") -> Path:
    """One line per call holding only its text fields (prompt, response, error; newlines
    folded), what ``grep -w`` should read to answer the question the index answers."""
    path = CACHE / f"{_stem(rows, data)}.text"
    if path.exists():
        return path
    jsonl = cached_jsonl(rows, data)
    part = path.with_suffix(".textpart")
    with open(jsonl, "rb") as source, open(part, "wb") as sink:
        for line in source:
            call = orjson.loads(line)
            text = " ".join(str(call.get(k) or "") for k in ("prompt", "response", "error"))
            sink.write(text.replace("\n", " ").replace("\r", " ").encode() + b"\n")
    part.rename(path)
    return path


def logs_list_first(archive_path: Path, word: str) -> float:
    """ms for the Logs screen's first reads of a search on a freshly opened archive."""
    with Archive(archive_path) as archive:
        flt = LogFilter(text=word)
        started = time.perf_counter()
        n = archive.count(flt)
        archive.window(flt, max(0, n - 128), 128)
        archive.window(flt, max(0, n - 2000), 2000)
        return (time.perf_counter() - started) * 1000


def evict_from_page_cache(*paths: Path) -> None:
    """Drop the files' pages from the OS page cache (clean pages; no root needed): the next
    read comes from the disk, as the first one after a reboot does. The machine keeps only a
    few GB of cache, so without this whichever file the previous benchmark read last was
    warm and the other cold, and the "first" figures measured that order."""
    for path in paths:
        if path.exists():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def run(rows: int, repeat: int = 3, data: str = "synthetic") -> dict[str, Any]:
    archive_path = cached_archive(rows, data=data)
    jsonl = cached_text_fields(rows, data)
    full_jsonl = cached_jsonl(rows, data)
    archive_files = [archive_path, *(archive_path.with_name(archive_path.name + s) for s in ("-wal", "-shm"))]
    out: dict[str, Any] = {"rows": rows, "data": data, "load_avg_start": os.getloadavg()[0], "words": {}}
    # Opened once first: what an archive from an older blah-tui gets once, at its first open (a
    # schema migration, the map of seq runs), is not any search's figure. (It is done to the
    # cached file in place.)
    started = time.perf_counter()
    with Archive(archive_path):
        pass
    out["first_open_ms"] = round((time.perf_counter() - started) * 1000, 1)
    disk = sum(p.stat().st_size for p in archive_files if p.exists())
    out["archive_bytes_per_call"] = round(disk / rows)
    out["jsonl_bytes_per_call"] = round(full_jsonl.stat().st_size / rows)
    out["archive_to_jsonl"] = round(disk / full_jsonl.stat().st_size, 3)
    for word in NATURAL_WORDS if data == "natural" else WORDS:

        def grep(w: str = word) -> subprocess.CompletedProcess[str]:
            return subprocess.run(["grep", "-cw", w, str(jsonl)], capture_output=True, text=True, check=False)

        def open_and_search(w: str = word) -> Any:
            with Archive(archive_path) as fresh:
                return fresh.search(w)

        # First runs from a cold page cache on both sides (ours includes opening the archive),
        # then repeats against repeats with both files cached.
        evict_from_page_cache(*archive_files, jsonl)
        first_ms, _, _ = timed(open_and_search, 1)
        grep_first_ms, _, _ = timed(grep, 1)
        with Archive(archive_path) as archive:
            again_ms, again_cpu, result = timed(lambda w=word: archive.search(w), repeat)
        grep_ms, _, proc = timed(grep, repeat)
        grep_count = int(proc.stdout.strip() or 0)
        screen_ms = logs_list_first(archive_path, word)
        out["words"][word] = {
            "search_first_ms": round(first_ms, 2),
            "search_ms": round(again_ms, 2),
            "search_cpu_ms": round(again_cpu, 2),
            "search_count": result.count,
            "grep_ms": round(grep_ms, 2),
            "grep_count": grep_count,
            # both count calls whose text fields hold the whole word (grep's word characters
            # and the index's tokenizer differ at the edges: both counts are kept).
            "ratio": round(grep_ms / again_ms, 2) if again_ms else None,
            "grep_first_ms": round(grep_first_ms, 2),
            "ratio_first": round(grep_first_ms / first_ms, 2) if first_ms else None,
            "logs_list_first_ms": round(screen_ms, 2),
            "ratio_logs_list": round(grep_ms / screen_ms, 2) if screen_ms else None,
        }
    out["jsonl_mb"] = round(jsonl.stat().st_size / 1e6, 1)
    out["load_avg_end"] = os.getloadavg()[0]
    out["rows_table"] = []
    for w, v in out["words"].items():
        for label, key, ratio, grep_key, grep_run in (
            (
                "first query from a cold page cache, opening the archive",
                "search_first_ms",
                "ratio_first",
                "grep_first_ms",
                "its first run from a cold page cache",
            ),
            ("repeated", "search_ms", "ratio", "grep_ms", "median of repeats"),
        ):
            out["rows_table"].append(
                {
                    "figure": f"search '{w}' ({v['search_count']:,} hits), {label}, {rows:,} {data} calls",
                    "value": v[key],
                    "unit": "ms",
                    "baseline": f"grep -cw over the calls' text fields ({out['jsonl_mb']:,.0f} MB), {grep_run}",
                    "baseline_value": v[grep_key],
                    "ratio": v[ratio],
                    "goal": f">= {GOAL_RATIO:g}x",
                    "met": bool(v[ratio] and v[ratio] >= GOAL_RATIO),
                }
            )
        out["rows_table"].append(
            {
                "figure": (
                    f"Logs list filtered by '{w}': count + newest 128 + newest 2000 rows, "
                    f"fresh archive, {rows:,} {data} calls"
                ),
                "value": v["logs_list_first_ms"],
                "unit": "ms",
                "baseline": f"grep -cw over the calls' text fields ({out['jsonl_mb']:,.0f} MB), median of repeats",
                "baseline_value": v["grep_ms"],
                "ratio": v["ratio_logs_list"],
                "goal": f">= {GOAL_RATIO:g}x",
                "met": bool(v["ratio_logs_list"] and v["ratio_logs_list"] >= GOAL_RATIO),
            }
        )
    out["rows_table"].append(
        {
            "figure": f"archive on disk per call, {rows:,} {data} calls",
            "value": out["archive_bytes_per_call"],
            "unit": "B",
            "baseline": "the same calls as JSONL (blah-tui export's file), per call",
            "baseline_value": out["jsonl_bytes_per_call"],
            "ratio": out["archive_to_jsonl"],
            "goal": "<= 0.7x the JSONL",
            "met": out["archive_to_jsonl"] <= 0.7,
        }
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--build-only", action="store_true", help="only build the cached archive and JSONL")
    parser.add_argument("--data", choices=DATA_SETS, default="synthetic", help="the calls (bench_archive.DATA_SETS)")
    parser.add_argument("--json", type=Path, default=Path(__file__).parent / "results" / "bench_search.json")
    args = parser.parse_args(argv)
    if args.build_only:
        cached_text_fields(args.rows, args.data)
        return 0
    print(
        f"goal: search >= {GOAL_RATIO:g}x grep -cw over the text fields, for common, mid-frequency (natural), "
        "rare and absent words, cold and warm",
        flush=True,
    )
    out = run(args.rows, data=args.data)
    print(
        f"{args.rows:,} {args.data} calls: archive {out['archive_bytes_per_call']:,} B a call on disk, JSONL "
        f"{out['jsonl_bytes_per_call']:,} B ({out['archive_to_jsonl']}x)"
    )
    for word, v in out["words"].items():
        print(
            f"search {word!r}: first {v['search_first_ms']} ms, again {v['search_ms']} ms ({v['search_count']:,} hits);"
            f" grep -cw first {v['grep_first_ms']} ms, again {v['grep_ms']} ms ({v['grep_count']:,} lines); "
            f"ratio first {v['ratio_first']}x,"
            f" again {v['ratio']}x; Logs list first {v['logs_list_first_ms']} ms ({v['ratio_logs_list']}x)"
        )
    save_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
