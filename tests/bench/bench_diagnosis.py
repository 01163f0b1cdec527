"""Benchmark: classify throughput on typical ~1 KB calls, and summarize over many calls.

Run: ``.venv/bin/python tests/bench/bench_diagnosis.py [--summarize-calls N] [--json PATH]``.
Prints a table and writes JSON (default ``tests/bench/results/bench_diagnosis.json``, git-ignored).

The calls are a fixed mix built here (not the simulator): a ChatML prompt of ~600 characters
(a system line plus a question or instruction) and a reply of ~400 characters; 85% are clean
answers (lists, prose, code), the rest loops, cut-offs, leaks, refusals and empty replies, in
roughly the proportions a struggling small model shows. One core: the loop is single-threaded.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from api_client.blahdev.shapes import LogEntry
from diagnosis import classify, summarize

SYSTEM = (
    "You are a helpful assistant for a community evals platform. Answer clearly and briefly, in plain English, "
    "and stop when the answer is complete. If the question is about code, give one code block. If it is about "
    "maths, show the working. Never make up facts; say when you do not know something."
)
QUESTIONS = [
    "Explain how photosynthesis works in plants and why it matters for the oxygen we breathe on Earth today.",
    ("Summarise the following paragraph in two sentences: The town council met on Monday evening to discuss the "
    "repair of the old stone bridge, which has been closed since the spring floods damaged its foundations."),
    "Write a Python function that returns the n-th Fibonacci number using iteration rather than recursion.",
    "Translate into French: The weather is lovely today and we are going to walk along the river after lunch.",
    "What is 17 multiplied by 23? Show the working step by step and give the final answer on its own line.",
    "List five tips for sleeping better, each with a one-line explanation of why it helps most people.",
]
PADDING = (
    " Please be accurate, do not repeat yourself, and keep the formatting simple and readable for everyone."
    " The person asking is preparing notes for a study group and will check every answer against a textbook."
)
ANSWERS = [
    ("Photosynthesis is the process plants use to turn light into chemical energy. Inside the leaves, chlorophyll "
    "absorbs sunlight, which powers reactions that combine carbon dioxide from the air with water from the soil. "
    "The result is glucose, which the plant uses to grow, and oxygen, which it releases. Almost all the oxygen in "
    "our atmosphere comes from this process, so it matters for every animal that breathes."),
    ("1. Keep a regular schedule, so your body clock knows when to rest.\n2. Avoid screens for an hour before bed.\n"
    "3. Keep the bedroom cool and dark.\n4. Skip caffeine after lunch, since it lingers for hours.\n"
    "5. Get some daylight in the morning, which sets your rhythm for the night ahead."),
    ("```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
    "    return a\n```\nThis runs in linear time and constant memory, and fib(10) returns 55 as expected."),
    ("17 x 23 = 17 x 20 + 17 x 3 = 340 + 51 = 391. So the answer is 391. You can check it by dividing 391 by 23, "
    "which gives 17 again, so the multiplication is right and nothing was carried wrongly along the way."),
]
FAILURES = [
    ("Lily went to the park. She saw a dog. " * 10, "length"),
    ("The French Revolution began in 1789 and changed how people thought about kings and rights, and then it", "length"),
    ("Paris.<|im_end|>\n<|im_start|>user\nWhat about Germany?<|im_end|>\n<|im_start|>assistant\nBerlin.", "stop"),
    ("I'm sorry, but I can't help with that request.", "stop"),
    ("", "stop"),
    ("and then the cat went to sleep under the big tree in the garden.", "stop"),
]


def chatml(user: str) -> str:
    return f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{user}{PADDING}<|im_end|>\n<|im_start|>assistant\n"


def make_calls(n: int, seed: int = 1) -> list[LogEntry]:
    rng = random.Random(seed)
    out: list[LogEntry] = []
    for i in range(n):
        question = QUESTIONS[i % len(QUESTIONS)]
        if rng.random() < 0.85:
            reply, finish = ANSWERS[i % len(ANSWERS)], "stop"
        else:
            reply, finish = FAILURES[i % len(FAILURES)]
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


def bench_summarize(n: int) -> dict[str, float]:
    calls = make_calls(n, seed=2)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--classify-calls", type=int, default=10_000)
    parser.add_argument("--summarize-calls", type=int, default=200_000)
    parser.add_argument("--json", default=str(Path(__file__).parent / "results" / "bench_diagnosis.json"))
    args = parser.parse_args(argv)

    classify_stats = bench_classify(make_calls(args.classify_calls))
    summarize_stats = bench_summarize(args.summarize_calls)
    per_call = summarize_stats["cpu_seconds"] / summarize_stats["calls"]
    extrapolated = per_call * 1_000_000
    rows = [
        ("classify", f"{classify_stats['calls']} calls of ~{classify_stats['mean_call_bytes']} B",
         f"{classify_stats['calls_per_s']:,.0f} calls/s CPU ({classify_stats['calls_per_s_wall']:,.0f} wall)",
         "goal >= 20,000 calls/s"),
        ("summarize", f"{summarize_stats['calls']} calls", (f"{summarize_stats['cpu_seconds']:.1f} s CPU "
         f"({summarize_stats['calls_per_s']:,.0f} calls/s)"),
         f"max RSS grew {summarize_stats['max_rss_growth_mb']:.0f} MB (calls themselves built before)"),
        ("summarize 1M", "extrapolated linearly" if summarize_stats["calls"] < 1_000_000 else "measured",
         f"{extrapolated:.0f} s", ""),
    ]
    width = [max(len(r[i]) for r in rows) for i in range(4)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(f"python {platform.python_version()} on {platform.machine()}, load average {load}")
    for row in rows:
        print("  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(
        json.dumps(
            {"load_average": load, "classify": classify_stats, "summarize": summarize_stats, "summarize_1m_seconds": extrapolated,
             "summarize_1m_extrapolated": summarize_stats["calls"] < 1_000_000},
            indent=2,
        )
    )
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
