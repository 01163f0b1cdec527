"""Benchmark: diagnosis on DISTINCT prompts (the fair figure), the repeated-prompt figure beside it,
and the whole pipeline over a 1M-call archive.

Run: ``.venv/bin/python tests/bench/bench_diagnosis.py [--archive-calls N] [--runs R] [--json PATH]``.
Prints a table, each row with the goal it is held to, and writes JSON (default
``tests/bench/results/bench_diagnosis.json``, git-ignored).

The calls are a fixed mix built here (not the simulator): a ChatML prompt of ~600 characters
(a system line plus a question or instruction) and a reply of ~400 characters; 85% are clean
answers (lists, prose, code), the rest loops, cut-offs, leaks, refusals and empty replies, in
roughly the proportions a struggling small model shows. Eval prompts come back call after call,
so a run of the same 6 questions would only measure the caches in ``diagnosis.features``: the
headline rows prefix each question with "Case i:" so every call's text is distinct (as an
archive of real traffic mostly is); the "repeated" rows keep the 6 questions as they are. Every
reply is distinct too (a number and a word or two vary inside it; only empty replies repeat), in
every row: the same kinds, in the same proportions, as when 10 replies repeated.

Goals: classify and summarize >= 20,000 calls/s per core (CPU time, distinct prompts); the
whole diagnosis of an archive of 1M distinct calls (bulk read, classify, features, groups,
report, rendered) < 20 s wall on this 2-core machine, peak RSS < 1 GB (the main process plus
every worker, summed). The archive is built once in a private temporary folder that is removed
at the end (``--archive-cache DIR`` keeps it there for the next run instead). Each archive run is
a fresh process (cold caches); min and median of ``--runs`` are reported with the load average,
since the machine may be shared, and the CPU seconds of every process per call (what load disturbs
least: 20 s on two free cores is 40 us per call). ``--baseline-code DIR`` (a checkout of the
project, e.g. main before a change) runs that code's diagnosis alternately with this one's, on
the same archive and in the same minutes, and prints its rows beside them.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
if os.environ.get("BENCH_DIAGNOSIS_CODE"):  # the baseline's checkout: its code, this file's harness
    sys.path.insert(0, os.environ["BENCH_DIAGNOSIS_CODE"])

from api_client.blahdev.shapes import LogEntry
from diagnosis import classify, summarize

SYSTEM = (
    "You are a helpful assistant for a community evals platform. Answer clearly and briefly, in plain English, "
    "and stop when the answer is complete. If the question is about code, give one code block. If it is about "
    "maths, show the working. Never make up facts; say when you do not know something."
)
QUESTIONS = [
    "Explain how photosynthesis works in plants and why it matters for the oxygen we breathe on Earth today.",
    (
        "Summarise the following paragraph in two sentences: The town council met on Monday evening to discuss the "
        "repair of the old stone bridge, which has been closed since the spring floods damaged its foundations."
    ),
    "Write a Python function that returns the n-th Fibonacci number using iteration rather than recursion.",
    "Translate into French: The weather is lovely today and we are going to walk along the river after lunch.",
    "What is 17 multiplied by 23? Show the working step by step and give the final answer on its own line.",
    "List five tips for sleeping better, each with a one-line explanation of why it helps most people.",
]
PADDING = (
    " Please be accurate, do not repeat yourself, and keep the formatting simple and readable for everyone."
    " The person asking is preparing notes for a study group and will check every answer against a textbook."
)
#: Replies, each made distinct per call (``reply_for``): a number and a word or two vary inside the
#: text, as real replies differ, so no cache keyed by the reply text can flatter the figures (the
#: calls once had only 10 distinct replies). The failure kinds' mix is unchanged by the variation.
NAMES = ("Lily", "Tom", "Aisha", "Mateo", "Yuki", "Olga", "Ravi", "Grace", "Omar", "Nina", "Felix", "Zara")
ANIMALS = ("dog", "cat", "fox", "horse", "rabbit", "goat", "duck", "deer", "owl", "pony", "lamb")
PLACES = (
    ("Paris", "Germany", "Berlin"),
    ("Madrid", "Italy", "Rome"),
    ("Lisbon", "Austria", "Vienna"),
    ("Oslo", "Sweden", "Stockholm"),
    ("Dublin", "Poland", "Warsaw"),
    ("Athens", "Norway", "Oslo"),
)
TOPICS = ("kings and rights", "taxes and bread", "churches and land", "votes and laws", "armies and borders")


def _fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def answer_for(i: int) -> str:
    """A clean answer (list, prose, code, working), distinct per call."""
    k = i % 4
    word = ANIMALS[(i // 4) % len(ANIMALS)]
    n = 10 + (i // 4) % 80
    if k == 0:
        return (
            "Photosynthesis is the process plants use to turn light into chemical energy. Inside the leaves, "
            "chlorophyll absorbs sunlight, which powers reactions that combine carbon dioxide from the air with "
            f"water from the soil. The result is glucose, which the plant uses to grow, and oxygen, which it "
            f"releases. About {n} percent of the oxygen in our atmosphere comes from this process (note {i}), so "
            f"it matters for every {word} that breathes."
        )
    if k == 1:
        return (
            f"1. Keep a regular schedule, so your body clock knows when to rest.\n2. Avoid screens for {n} "
            "minutes before bed.\n3. Keep the bedroom cool and dark.\n4. Skip caffeine after lunch, since it "
            f"lingers for hours.\n5. Get some daylight in the morning (walk the {word}), which sets your rhythm "
            f"for night {i}."
        )
    if k == 2:
        return (
            "```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
            f"    return a\n```\nThis runs in linear time and constant memory, and fib({n}) returns {_fib(n)} as "
            f"expected (run {i})."
        )
    a, b = 11 + (i // 4) % 89, 13 + (i // 356) % 87
    return (
        f"{a} x {b} = {a} x {b - b % 10} + {a} x {b % 10} = {a * (b - b % 10)} + {a * (b % 10)} = {a * b}. So the "
        f"answer is {a * b}. You can check it by dividing {a * b} by {b}, which gives {a} again, so the "
        f"multiplication is right and nothing was carried wrongly along the way (check {i})."
    )


def failure_for(i: int) -> tuple[str, str]:
    """A failing reply and its finish reason: a loop cut off, a cut-off, a leak with the next turn,
    a refusal, an empty reply, a reply that carries on the prompt; distinct per call (but empty)."""
    k = i % 6
    name = NAMES[(i // 6) % len(NAMES)]
    animal = ANIMALS[(i // 6) % len(ANIMALS)]
    if k == 0:
        return (f"{name} went to the park {i}. She saw a {animal}. " * 10, "length")
    if k == 1:
        return (
            (
                f"The French Revolution began in {1700 + i % 300} and changed how {i} people thought about "
                f"{TOPICS[(i // 6) % len(TOPICS)]}, and then it"
            ),
            "length",
        )
    if k == 2:
        city, country, capital = PLACES[(i // 6) % len(PLACES)]
        return (
            (
                f"{city}.<|im_end|>\n<|im_start|>user\nWhat about {country}, question {i}?<|im_end|>\n"
                f"<|im_start|>assistant\n{capital}."
            ),
            "stop",
        )
    if k == 3:
        return (f"I'm sorry, but I can't help with that request, {name} (ticket {i}).", "stop")
    if k == 4:
        return ("", "stop")
    return (f"and then the {animal} went to sleep under the big tree in garden {i}.", "stop")


def chatml(user: str) -> str:
    return (
        f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{user}{PADDING}<|im_end|>\n<|im_start|>assistant\n"
    )


CALLS_PER_S_GOAL = 20_000
ARCHIVE_SECONDS_GOAL = 20.0
ARCHIVE_RSS_GOAL_MB = 1024


def make_calls(n: int, seed: int = 1, *, distinct: bool = False, start: int = 0) -> list[LogEntry]:
    """``n`` calls; ``distinct``: each question prefixed "Case i:" so no two texts are the same."""
    rng = random.Random(seed + start)
    out: list[LogEntry] = []
    for i in range(start, start + n):
        question = QUESTIONS[i % len(QUESTIONS)]
        if distinct:
            question = f"Case {i}: {question}"
        if rng.random() < 0.85:
            reply, finish = answer_for(i), "stop"
        else:
            reply, finish = failure_for(i)
        out.append(
            LogEntry(
                id=f"log-{i}",
                model_id="bench",
                source="eval" if i % 4 else "chatroom",
                created_at=1_760_000_000_000 + i * 37,
                prompt=chatml(question),
                response=reply,
                finish_reason=finish,
                max_tokens=128,
                completion_tokens=128 if finish == "length" else 90,
                eval_id=f"eval-{i % 12}",
            )
        )
    return out


def bench_classify(calls: list[LogEntry], repeat: int = 7) -> dict[str, float]:
    """Best of ``repeat`` passes; CPU time of this process (the machine may be shared) and wall time."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        for entry in calls:
            classify(entry, trained_template="chatml")
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    size = sum(len(c.prompt or "") + len(c.response or "") for c in calls) / len(calls)
    return {
        "calls": len(calls),
        "mean_call_bytes": round(size),
        "cpu_seconds": best_cpu,
        "wall_seconds": best_wall,
        "calls_per_s": len(calls) / best_cpu,
        "calls_per_s_wall": len(calls) / best_wall,
    }


def bench_summarize(n: int, *, distinct: bool) -> dict[str, float]:
    calls = make_calls(n, seed=2, distinct=distinct)
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.perf_counter(), time.process_time()
    summary = summarize(calls, trained_template="chatml")
    cpu_s, wall_s = time.process_time() - cpu, time.perf_counter() - wall
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert summary.calls_examined == n
    return {
        "calls": n,
        "cpu_seconds": cpu_s,
        "wall_seconds": wall_s,
        "calls_per_s": n / cpu_s,
        "max_rss_growth_mb": (rss_after - rss_before) / 1024,
    }


def bench_digest_loop(n: int, repeat: int = 5) -> dict[str, float]:
    """CPU per call of the archive diagnosis's per-call loop alone (``CallDigest.add_many`` over
    rows as the bulk read gives them), in this process, best of ``repeat`` with every cache of
    the diagnosis emptied before each pass: steadier on a shared machine than the whole run
    (no reading, no pool, no start-up), so a change to the detectors or features shows above
    the noise. ``n`` distinct calls from the middle of the mix (call numbers from 500,000)."""
    import api_client.archives.bulk as bulk
    from api_client.archives.schema import LOG_COLUMNS
    from application.diagnosis.whole import CallDigest

    rows = [tuple(getattr(e, c) for c in LOG_COLUMNS) for e in make_calls(n, seed=3, distinct=True, start=500_000)]
    to_call = getattr(bulk, "call_from_bulk_row", None) or bulk.entry_from_bulk_row  # (a baseline's code may lack it)
    best = float("inf")
    for _ in range(repeat):
        for name, module in list(sys.modules.items()):
            if name.startswith(("diagnosis", "application.diagnosis")):
                for value in list(vars(module).values()):
                    if hasattr(value, "cache_clear"):
                        value.cache_clear()
        gc.collect()
        cpu = time.process_time()
        digest = CallDigest("chatml")
        digest.add_many(map(to_call, rows))
        best = min(best, time.process_time() - cpu)
    return {"calls": n, "cpu_seconds": best, "us_per_call": best / n * 1e6, "failing": digest.builder.failing}


# --------------------------------------------------------------------------- the whole archive


def build_archive(path: Path, calls: int, batch: int = 20_000) -> None:
    """An archive of ``calls`` distinct calls, oldest first (the live tail's order: no renumbering)."""
    from api_client.archives.archive import Archive

    archive = Archive(path)
    try:
        for start in range(0, calls, batch):
            archive.add(make_calls(min(batch, calls - start), seed=3, distinct=True, start=start), index_text=False)
    finally:
        archive.close()


def run_archive_once(path: Path, workers: int, code: Path | None = None) -> dict[str, float]:
    """One cold diagnosis of the whole archive in a fresh process: wall seconds and peak RSS.
    ``code``: a checkout of the project whose code runs instead of this one's (the baseline)."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
        env["BENCH_DIAGNOSIS_CODE"] = str(code)
    args = [sys.executable, __file__, "--_diagnose", str(path), "--_workers", str(workers)]
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=code if code is not None else Path(__file__).resolve().parents[2],
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _diagnose_child(path: str, workers: int) -> int:
    """The measured part (in its own process): read, classify, group, summarise, render."""
    from application.diagnosis.whole import diagnose_archive
    from diagnosis import render_json, render_markdown

    gc.disable()  # as `blah-tui report --offline` digests (cli/blah/report/local.py)
    wall, cpu = time.perf_counter(), time.process_time()
    whole, span = diagnose_archive(
        path, model="bench", trained_template="chatml", template_source="config", workers=workers
    )
    markdown = render_markdown(whole.report)
    render_json(whole.report)
    seconds = time.perf_counter() - wall
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = kids.ru_utime + kids.ru_stime
    print(
        json.dumps(
            {
                "calls": whole.calls,
                "held": span.calls,
                "wall_seconds": seconds,
                "main_cpu_seconds": time.process_time() - cpu,
                "workers": whole.workers,
                "main_peak_rss_mb": own,
                # RUSAGE_CHILDREN's ru_maxrss is the biggest worker's peak: every worker is counted at it.
                "workers_peak_rss_mb": children * (whole.workers if whole.workers > 1 else 0),
                "peak_rss_mb": own + children * (whole.workers if whole.workers > 1 else 0),
                # CPU seconds of every process: on a shared machine the wall time measures the others too;
                # CPU / cores is what the work needs on idle cores.
                "workers_cpu_seconds": workers_cpu,
                "total_cpu_seconds": time.process_time() - cpu + workers_cpu,
                "kept_calls": whole.kept_calls,
                "failing_calls": whole.report.summary.failing_calls,
                "markdown_chars": len(markdown),
                "scan_path": _scan_path(),
            }
        )
    )
    return 0


def _scan_path() -> str:
    """Which path diagnosis's scans took in this process (``blah-tui --version`` says the same)."""
    try:
        from diagnosis.compiled import describe_scan_path
    except ImportError:  # a baseline's code from before issue 39
        return "(before diagnosis.compiled)"
    return describe_scan_path()


def _sample_stats(samples: list[dict[str, Any]]) -> dict[str, Any]:
    walls = [s["wall_seconds"] for s in samples]
    rss = [s["peak_rss_mb"] for s in samples]
    cpu = [s.get("total_cpu_seconds", float("nan")) for s in samples]
    calls = samples[0]["calls"] or 1
    return {
        "runs": samples,
        "wall_min": min(walls),
        "wall_median": statistics.median(walls),
        "cpu_min": min(cpu),
        "cpu_median": statistics.median(cpu),
        "cpu_us_per_call_min": min(cpu) / calls * 1e6,
        "cpu_us_per_call_median": statistics.median(cpu) / calls * 1e6,
        "peak_rss_max_mb": max(rss),
        "peak_rss_median_mb": statistics.median(rss),
        "load_averages": [s["load_average"] for s in samples],
    }


def bench_archive(
    calls: int, runs: int, cache: Path | None, workers_list: list[int], baseline: Path | None = None
) -> dict[str, object]:
    """``baseline``: another checkout (e.g. the main branch before a change), run alternately
    with this one so that both see the same machine load."""
    folder = cache if cache is not None else Path(tempfile.mkdtemp(prefix="bench-diagnosis-"))
    try:
        path = folder / f"distinct-{calls}.sqlite3"
        built = None
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            build_archive(path, calls)
            built = time.perf_counter() - started
        out: dict[str, object] = {
            "calls": calls,
            "build_seconds": built,
            "by_workers": {},
            "baseline_code": str(baseline) if baseline is not None else None,
            "baseline_by_workers": {},
        }
        for workers in workers_list:
            samples: list[dict[str, Any]] = []
            before: list[dict[str, Any]] = []
            for run in range(runs):
                order = ((None, samples), (baseline, before)) if baseline is not None else ((None, samples),)
                for code, into in order if run % 2 == 0 else order[::-1]:  # who goes first alternates too
                    load = os.getloadavg()[0]
                    sample = run_archive_once(path, workers, code)
                    sample["load_average"] = load
                    into.append(sample)
            out["by_workers"][str(workers)] = _sample_stats(samples)  # type: ignore[index]
            if before:
                out["baseline_by_workers"][str(workers)] = _sample_stats(before)  # type: ignore[index]
        return out
    finally:
        if cache is None:
            shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classify-calls", type=int, default=10_000)
    parser.add_argument("--summarize-calls", type=int, default=200_000)
    parser.add_argument("--archive-calls", type=int, default=1_000_000, help="0: skip the archive rows")
    parser.add_argument("--runs", type=int, default=3, help="cold runs of the archive diagnosis (min and median)")
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 1], help="process counts to measure")
    parser.add_argument("--archive-cache", type=Path, help="keep the built archive in this folder (default: removed)")
    parser.add_argument(
        "--baseline-code",
        type=Path,
        help="a checkout of the project (e.g. main before a change) run alternately as the baseline",
    )
    parser.add_argument("--skip-rates", action="store_true", help="only the archive rows")
    parser.add_argument(
        "--digest-calls",
        type=int,
        default=20_000,
        help="calls of the per-call loop measured alone, in this process (0: skip)",
    )
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "bench_diagnosis.json"))
    parser.add_argument("--_diagnose", help=argparse.SUPPRESS)
    parser.add_argument("--_workers", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._diagnose:
        return _diagnose_child(args._diagnose, args._workers)

    load_start = os.getloadavg()[0]
    rows = []
    stats: dict[str, Any] = {}
    goal = f"goal >= {CALLS_PER_S_GOAL:,} calls/s/core"
    if not args.skip_rates:
        classify_stats = bench_classify(make_calls(args.classify_calls, distinct=True))
        classify_repeated = bench_classify(make_calls(args.classify_calls))
        summarize_stats = bench_summarize(args.summarize_calls, distinct=True)
        summarize_repeated = bench_summarize(args.summarize_calls, distinct=False)
        stats = {
            "classify": classify_stats,
            "classify_repeated": classify_repeated,
            "summarize": summarize_stats,
            "summarize_repeated": summarize_repeated,
            "summarize_1m_seconds": summarize_stats["cpu_seconds"] / summarize_stats["calls"] * 1_000_000,
            "summarize_1m_extrapolated": summarize_stats["calls"] < 1_000_000,
        }
        rows += [
            (
                "classify, distinct prompts",
                f"{classify_stats['calls']} calls of ~{classify_stats['mean_call_bytes']} B",
                f"{classify_stats['calls_per_s']:,.0f} calls/s CPU",
                goal,
                _met(classify_stats["calls_per_s"] >= CALLS_PER_S_GOAL),
            ),
            (
                "classify, 6 repeated prompts",
                "(caches hit)",
                f"{classify_repeated['calls_per_s']:,.0f} calls/s CPU",
                "for comparison",
                "",
            ),
            (
                "summarize, distinct prompts",
                f"{summarize_stats['calls']} calls",
                (
                    f"{summarize_stats['calls_per_s']:,.0f} calls/s CPU "
                    f"(RSS +{summarize_stats['max_rss_growth_mb']:.0f} MB)"
                ),
                goal,
                _met(summarize_stats["calls_per_s"] >= CALLS_PER_S_GOAL),
            ),
            (
                "summarize, 6 repeated prompts",
                f"{summarize_repeated['calls']} calls",
                f"{summarize_repeated['calls_per_s']:,.0f} calls/s CPU",
                "for comparison",
                "",
            ),
        ]
    if args.digest_calls:
        loop = stats["digest_loop"] = bench_digest_loop(args.digest_calls)
        rows.append(
            (
                "per-call loop alone, one process",
                f"{loop['calls']:,} distinct calls, rows in memory",
                f"{loop['us_per_call']:.1f} us CPU per call (best of 5)",
                "for comparison (no reading, no pool)",
                "",
            )
        )
    archive = (
        bench_archive(args.archive_calls, args.runs, args.archive_cache, args.workers, args.baseline_code)
        if args.archive_calls
        else None
    )
    if archive is not None:
        for label, table in (("", archive["by_workers"]), ("baseline: ", archive["baseline_by_workers"])):
            for workers, got in table.items():  # type: ignore[union-attr]
                rows.append(
                    (
                        f"{label}report of the whole archive, {workers} process{'es' if workers != '1' else ''}",
                        f"{archive['calls']:,} distinct calls",
                        (
                            f"{got['wall_min']:.1f} s min / {got['wall_median']:.1f} s median wall; "
                            "CPU (every process) "
                            f"{got['cpu_min']:.0f} s min / {got['cpu_median']:.0f} s median = "
                            f"{got['cpu_us_per_call_min']:.0f} / {got['cpu_us_per_call_median']:.0f} us per call; "
                            "peak RSS "
                            f"{got['peak_rss_max_mb']:.0f} MB "
                            f"(load {', '.join(f'{x:.1f}' for x in got['load_averages'])})"
                        ),
                        (
                            f"goal < {ARCHIVE_SECONDS_GOAL:.0f} s wall, < {ARCHIVE_RSS_GOAL_MB} MB "
                            f"(<= {ARCHIVE_SECONDS_GOAL * 2 / 1_000_000 * 1e6:.0f} us CPU per call on 2 free cores)"
                        ),
                        _met(
                            got["wall_median"] < ARCHIVE_SECONDS_GOAL and got["peak_rss_max_mb"] < ARCHIVE_RSS_GOAL_MB
                        ),
                    )
                )
    width = [max(len(r[i]) for r in rows) for i in range(5)]
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {load_start:.2f} at the start"
    )
    for row in rows:
        print("  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(
        json.dumps(
            {
                "load_average": load_start,
                "load_average_end": os.getloadavg()[0],
                "goals": {
                    "calls_per_s_per_core": CALLS_PER_S_GOAL,
                    "archive_seconds": ARCHIVE_SECONDS_GOAL,
                    "archive_peak_rss_mb": ARCHIVE_RSS_GOAL_MB,
                },
                **stats,
                "archive": archive,
            },
            indent=2,
        )
    )
    print(f"wrote {args.json}")
    return 0


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


if __name__ == "__main__":
    raise SystemExit(main())
