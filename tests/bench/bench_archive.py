"""Benchmark: the local archive at a million rows.

Run: ``.venv/bin/python tests/bench/bench_archive.py [--rows N] [--sim-calls N] [--data natural] [--json PATH]``.
``--data natural`` measures on ``natural_text.NaturalCalls`` (distinct prompts and replies of a
24,000-word Zipf vocabulary, real lengths: issue 42) instead of ``Synthetic`` (4,000 prompts
repeated), so the compression and the index see honest text.
Prints a table and writes JSON (default ``bench_archive.json`` in the current directory).

Measures
- ingest into the archive, entries/s: synthetic ~1 KB calls (600-char prompt, 400-char
  reply, Zipf-distributed words so the full-text index sees a natural vocabulary), batches
  of 5000, with the text index built inline and deferred (then the deferred indexing on its
  own); and from the simulator end to end (HTTP pages of 500 -> ``ArchiveSync.backfill``);
- at N rows: opening the file (an integrity probe; the full check for comparison), ``count`` and a
  100-row ``window`` at the first and at deep offsets, unfiltered and filtered (the first
  filtered call resolves the filter; later ones reuse it), a tail-like append, inserts
  that land inside the list (renumbering), and text search next to ``grep -c`` over the
  same rows exported as JSONL;
- the archive's size on disk and the process's peak RSS.
Times are wall-clock medians of a few runs on this machine; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import orjson

from api_client.archives.archive import Archive, LogFilter
from api_client.blahdev.shapes import LogEntry

BATCH = 5000
SOURCES = ("eval", "eval", "eval", "chatroom", "chat", "test")


def make_pool(rng: random.Random, n: int, chars: int, vocab: list[str], weights: list[float]) -> list[str]:
    pool = []
    for _ in range(n):
        words = rng.choices(vocab, weights, k=chars // 5)
        text = " ".join(words)
        while len(text) < chars:
            text += " " + rng.choices(vocab, weights)[0]
        pool.append(text[:chars])
    return pool


class Synthetic:
    """Deterministic ~1 KB calls: entry ``i`` is the same on every run."""

    def __init__(self, seed: int = 1) -> None:
        rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        vocab = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 10))) for _ in range(30_000)]
        vocab[:6] = ["the", "model", "answer", "question", "please", "explain"]
        vocab[5000] = "zanzibar"  # a rare word, for search
        weights = [1.0 / (k + 1) for k in range(len(vocab))]
        self.prompts = make_pool(rng, 4000, 600, vocab, weights)
        self.replies = make_pool(rng, 4000, 400, vocab, weights)
        self.t0 = 1_700_000_000_000

    def entry(self, i: int) -> LogEntry:
        failed = i % 10 == 3
        return LogEntry.model_construct(
            id=f"log_{i:09d}",
            model_id="bench-model",
            source=SOURCES[i % len(SOURCES)],
            created_at=self.t0 + i // 3,  # three calls per millisecond
            prompt=f"case {i} " + self.prompts[(i * 7919) % 4000],
            messages=None,
            response=None if failed else self.replies[(i * 104729) % 4000],
            error="upstream timeout" if failed else None,
            latency_ms=80 + i % 900,
            max_tokens=256,
            prompt_tokens=150,
            completion_tokens=None if failed else 100,
            finish_reason="error" if failed else ("length" if i % 20 == 7 else "stop"),
            eval_id=None,
            run_id=None,
            result_id=None,
            message_id=None,
        )

    def batches(self, start: int, stop: int) -> Iterator[list[LogEntry]]:
        for lo in range(start, stop, BATCH):
            yield [self.entry(i) for i in range(lo, min(stop, lo + BATCH))]


class Natural:
    """``natural_text.NaturalCalls`` with ``Synthetic``'s interface (``entry(i)``, ``batches``)."""

    def __init__(self, seed: int = 42) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from natural_text import NaturalCalls

        self.calls = NaturalCalls(seed)

    def entry(self, i: int) -> LogEntry:
        return LogEntry.model_validate(self.calls.call(i))

    def batches(self, start: int, stop: int) -> Iterator[list[LogEntry]]:
        return self.calls.batches(start, stop, BATCH)


DATA_SETS = ("synthetic", "natural")


def make_generator(data: str) -> Synthetic | Natural:
    """The calls of the data set ``data`` (one of ``DATA_SETS``)."""
    return Natural() if data == "natural" else Synthetic()


def badges(entry: LogEntry) -> list[str]:
    out = []
    if entry.error is not None:
        out.append("error")
    if entry.finish_reason == "length":
        out.append("truncation")
    return out


def timed(fn: Callable[[], Any], repeat: int = 5) -> tuple[float, float, Any]:
    """Median wall and CPU time (ms) of ``repeat`` calls, and the last result. CPU time
    is this process's: on a busy machine it shows the cost without the waiting."""
    walls, cpus = [], []
    result = None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        walls.append((time.perf_counter() - t) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    return statistics.median(walls), statistics.median(cpus), result


def ingest(
    archive: Archive, gen: Synthetic | Natural, start: int, stop: int, *, index_text: bool
) -> tuple[float, float]:
    """Entries/s of ``add`` alone by wall and by CPU time (building the entries is not
    counted)."""
    wall = cpu = 0.0
    for batch in gen.batches(start, stop):
        t, c = time.perf_counter(), time.process_time()
        archive.add(batch, badges, index_text=index_text)
        wall += time.perf_counter() - t
        cpu += time.process_time() - c
    return (stop - start) / wall, (stop - start) / cpu


def rate_text(wall: float, cpu: float) -> str:
    return f"{wall:,.0f}/s (cpu {cpu:,.0f}/s)"


def sim_ingest(calls: int) -> dict[str, Any]:
    from api_client.archives.sync import ArchiveSync
    from api_client.blahdev.client import BlahClient
    from simulator.server import SimulatorServer

    with SimulatorServer(seed=7, live=False) as sim:
        sim.world.add_log_burst(calls, same_ms=False)
        model = sim.person_model_id
        total = sim.world.logs.count(model)

        async def run() -> tuple[float, int]:
            with Archive.create_temporary() as archive:
                async with BlahClient(sim.base_url) as client:
                    t = time.perf_counter()
                    await ArchiveSync(client, archive, model).backfill()
                    return time.perf_counter() - t, archive.count()

        spent, stored = asyncio.run(run())
    return {"entries": total, "stored": stored, "seconds": round(spent, 2), "entries_per_s": round(stored / spent)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--inline-rows", type=int, default=100_000, help="rows for the inline-index ingest run")
    parser.add_argument("--sim-calls", type=int, default=20_000, help="calls added to the simulator (0: skip)")
    parser.add_argument("--json", default="bench_archive.json")
    parser.add_argument("--skip-worst", action="store_true", help="skip the worst-case insert in the middle")
    parser.add_argument("--data", choices=DATA_SETS, default="synthetic")
    args = parser.parse_args()
    n = args.rows
    out: dict[str, Any] = {"rows": n, "data": args.data, "python": platform.python_version(), "cpus": os.cpu_count()}
    rows: list[tuple[str, str]] = []
    gen = make_generator(args.data)
    work = Path(tempfile.mkdtemp(prefix="bench-archive-"))

    out["loadavg_start"] = os.getloadavg()
    with Archive(work / "inline.sqlite3") as a:
        rate, cpu_rate = ingest(a, gen, 0, args.inline_rows, index_text=True)
    out["ingest_inline_index_per_s"] = round(rate)
    out["ingest_inline_index_per_cpu_s"] = round(cpu_rate)
    rows.append((f"ingest, text indexed inline ({args.inline_rows:,} x ~1 KB)", rate_text(rate, cpu_rate)))

    path = work / "big.sqlite3"
    with Archive(path) as a:
        rate, cpu_rate = ingest(a, gen, 0, n, index_text=False)
        t, c = time.perf_counter(), time.process_time()
        indexed = a.index_pending()
        index_rate = indexed / (time.perf_counter() - t)
        index_cpu_rate = indexed / (time.process_time() - c)
    out["ingest_deferred_index_per_s"] = round(rate)
    out["ingest_deferred_index_per_cpu_s"] = round(cpu_rate)
    out["index_pending_per_s"] = round(index_rate)
    out["index_pending_per_cpu_s"] = round(index_cpu_rate)
    rows.append((f"ingest, text index deferred ({n:,} x ~1 KB)", rate_text(rate, cpu_rate)))
    rows.append(("  then index_pending", rate_text(index_rate, index_cpu_rate)))

    t, c = time.perf_counter(), time.process_time()
    a = Archive(path)
    out["open_ms"] = round((time.perf_counter() - t) * 1000, 1)
    out["open_cpu_ms"] = round((time.process_time() - c) * 1000, 1)
    rows.append(
        (f"open the {n:,}-row archive (integrity probe)", f"{out['open_ms']:,.1f} ms (cpu {out['open_cpu_ms']:,.1f})")
    )
    t = time.perf_counter()
    problem = a.verify()
    out["verify_full_s"] = round(time.perf_counter() - t, 1)
    rows.append(
        ("  full quick_check (Archive.verify), for comparison", f"{out['verify_full_s']} s ({problem or 'ok'})")
    )

    def measure(label: str, key: str, fn: Callable[[], Any], repeat: int = 5) -> Any:
        ms, cpu_ms, result = timed(fn, repeat)
        out[key] = round(ms, 3)
        out[key.replace("_ms", "_cpu_ms")] = round(cpu_ms, 3)
        rows.append((label, f"{ms:,.2f} ms (cpu {cpu_ms:,.2f})"))
        return result

    everything = LogFilter()
    total = measure("count (all)", "count_all_ms", lambda: a.count(everything))
    measure("window 100 @ offset 0", "window_first_ms", lambda: a.window(everything, 0, 100))
    measure(f"window 100 @ offset {total // 2:,}", "window_mid_ms", lambda: a.window(everything, total // 2, 100))
    measure(f"window 100 @ offset {total - 100:,}", "window_deep_ms", lambda: a.window(everything, total - 100, 100))
    for name, flt in [
        ("source=chat", LogFilter(source="chat")),
        ("errors_only", LogFilter(errors_only=True)),
        ("badge=truncation", LogFilter(badge="truncation")),
    ]:
        key = name.split("=")[-1]
        kept = measure(
            f"count {name}, first (resolves the filter)", f"count_{key}_first_ms", lambda f=flt: a.count(f), 1
        )
        measure(f"count {name}, again", f"count_{key}_again_ms", lambda f=flt: a.count(f))
        measure(
            f"window 100 {name} @ deep offset {kept - 100:,}",
            f"window_{key}_deep_ms",
            lambda f=flt, k=kept: a.window(f, k - 100, 100),
        )
        out[f"rows_{key}"] = kept

    chat = LogFilter(source="chat")
    next_id = [n]

    def append_tail() -> int:
        batch = [gen.entry(next_id[0] + j) for j in range(50)]
        next_id[0] += 50
        a.add(batch, badges)
        return a.count(chat) + len(a.window(chat, a.count(chat) - 100, 100))

    measure("tail append of 50 + filtered count/window", "tail_append_ms", append_tail)

    def middle(at: int) -> Callable[[], None]:
        def insert() -> None:
            e = gen.entry(at)
            a.add([e.model_copy(update={"id": f"late_{at}_{time.perf_counter_ns()}"})], badges)

        return insert

    measure("insert inside the list, near the newest end", "insert_near_end_ms", middle(n - 30), 3)
    if not args.skip_worst:
        measure("insert in the very middle (worst case: renumbers half)", "insert_middle_ms", middle(n // 2), 1)

    for word in ("zanzibar", "model"):
        result = measure(
            f"search '{word}', first (count + first 1000 ids)", f"search_{word}_first_ms", lambda w=word: a.search(w), 1
        )
        out[f"search_{word}_count"] = result.count
        measure(f"search '{word}', again", f"search_{word}_again_ms", lambda w=word: a.search(w))
        measure(
            f"window 100 of text filter '{word}' @ deep offset",
            f"window_text_{word}_ms",
            lambda w=word, k=result.count: a.window(LogFilter(text=w), max(0, k - 100), 100),
        )
    jsonl = work / "all.jsonl"
    t = time.perf_counter()
    with open(jsonl, "wb") as fh:
        fh.writelines(orjson.dumps(e.model_dump(mode="json")) + b"\n" for e in a.iter_all())
    stored = a.count()
    out["export_jsonl_s"] = round(time.perf_counter() - t, 1)
    rows.append(("export all rows as JSONL (iter_all)", f"{out['export_jsonl_s']} s"))
    for word in ("zanzibar", "model"):
        ms, _, res = timed(
            lambda w=word: subprocess.run(["grep", "-cw", w, str(jsonl)], capture_output=True, text=True, check=False),
            3,
        )
        out[f"grep_{word}_ms"] = round(ms, 1)
        out[f"grep_{word}_count"] = int(res.stdout.strip() or 0)
        rows.append((f"grep -cw '{word}' over the JSONL (for comparison)", f"{ms:,.1f} ms"))
    out["jsonl_mb"] = round(jsonl.stat().st_size / 1e6, 1)
    a.close()
    size = sum(p.stat().st_size for p in work.glob("big.sqlite3*"))
    out["archive_mb"] = round(size / 1e6, 1)
    rows.append(("archive size on disk", f"{out['archive_mb']:,.1f} MB (JSONL {out['jsonl_mb']:,.1f} MB)"))
    out["archive_bytes_per_call"] = round(size / stored)
    out["jsonl_bytes_per_call"] = round(jsonl.stat().st_size / stored)
    rows.append(
        (
            "  bytes a call on disk: archive / JSONL",
            (
                f"{out['archive_bytes_per_call']:,} / {out['jsonl_bytes_per_call']:,} B "
                f"({size / jsonl.stat().st_size:.2f}x)"
            ),
        )
    )
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    rows.append(("peak RSS of this process", f"{out['peak_rss_mb']:,.1f} MB"))

    if args.sim_calls:
        sim = sim_ingest(args.sim_calls)
        out["simulator"] = sim
        rows.append(
            (f"from the simulator ({sim['entries']:,} calls, HTTP + backfill)", f"{sim['entries_per_s']:,} entries/s")
        )

    out["loadavg_end"] = os.getloadavg()
    for f in work.iterdir():
        f.unlink()
    work.rmdir()
    width = max(len(r[0]) for r in rows)
    print(
        f"archive benchmark, {n:,} rows ({args.data} calls), Python {out['python']}, {out['cpus']} CPUs, "
        f"load average {out['loadavg_start'][0]:.1f} -> {out['loadavg_end'][0]:.1f}"
    )
    for label, value in rows:
        print(f"  {label:<{width}}  {value:>22}")
    Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    print(f"JSON written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
