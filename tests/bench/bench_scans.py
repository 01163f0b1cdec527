"""Benchmark: each scan of diagnosis, compiled against its Python twin and against the
well-kept libraries that do the same job (issue 39: hand-written C stays only where a measured
need remains).

Run: ``.venv/bin/python tests/bench/bench_scans.py [--calls N] [--settings]``. CPU time per call
(best of 5 passes, all candidates in one process, one after the other) on the texts of the bench's
distinct calls (``bench_diagnosis.make_calls``: ChatML prompts "Case i: ...", clean answers,
loops, refusals, leaks). The libraries are measured where installed (``pip install
pyahocorasick google-re2 hyperscan``; none is a dependency): only the refusal prefilters and the
user's turn are a multi-pattern search they can do. ``--settings``: the session's settings built
by the plain checks (``application.session.settings.fields``) against the pydantic models, in fresh
processes (the start path's cost).

The 2026-12-07 figures (issue 39, load ~12-20, so read the ratios): in the module docstrings of
``diagnosis.compiled``, ``loop``, ``loop_words``, ``features_scan``, ``text``,
``detectors_refusal`` and ``continuation.series``, and in tests/bench/README.md.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_diagnosis

from diagnosis import features_scan as fs
from diagnosis import loop, loop_words
from diagnosis.compiled import CompiledUnusable, load_compiled
from diagnosis.detectors_refusal import _head_hinted, _tail_hinted, _tail_of
from diagnosis.text import _user_turn, user_text

HEAD_HINTS = ["n't", " not ", "cannot", "sorry", "unable", "declin", "refus", "afraid", "as an ai", "against my"]
TAIL_HINTS = ["n't", "cannot", " not ", "sorry", "apolog", "declin", "refus", "unable", "against my"]


def cpu_us(f: Callable[..., Any], args: Sequence[tuple[Any, ...]], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for a in args:
            f(*a)
        best = min(best, time.process_time() - started)
    return best / max(1, len(args)) * 1e6


def _hints(search_head: Callable[[str], bool], search_tail: Callable[[str], bool]) -> Callable[[str], int]:
    """The refusal prefilters' answer (bit 1: the opening, bit 2: the end) with another search."""

    def hints(reply: str) -> int:
        bits = int(search_head(reply[:240].lower()))
        if len(reply) > 240 and search_tail(_tail_of(reply)[1].lower()):
            bits |= 2
        return bits

    return hints


def refusal_candidates() -> list[tuple[str, Callable[[str], int]]]:
    out: list[tuple[str, Callable[[str], int]]] = [("Python `in` tests (kept)", _hints(_head_hinted, _tail_hinted))]
    head_re = re.compile("|".join(map(re.escape, HEAD_HINTS)))
    tail_re = re.compile("|".join(map(re.escape, TAIL_HINTS)))
    out.append(
        ("one re alternation", _hints(lambda x: head_re.search(x) is not None, lambda x: tail_re.search(x) is not None))
    )
    try:
        import re2  # type: ignore[import-not-found]

        h2, t2 = re2.compile(head_re.pattern), re2.compile(tail_re.pattern)
        out.append(("google-re2", _hints(lambda x: h2.search(x) is not None, lambda x: t2.search(x) is not None)))
    except ImportError:
        pass
    try:
        import ahocorasick  # type: ignore[import-not-found]

        def automaton(words: list[str]) -> Callable[[str], bool]:
            a = ahocorasick.Automaton()
            for w in words:
                a.add_word(w, w)
            a.make_automaton()
            return lambda x: next(a.iter(x), None) is not None

        out.append(("pyahocorasick", _hints(automaton(HEAD_HINTS), automaton(TAIL_HINTS))))
    except ImportError:
        pass
    try:
        import hyperscan  # type: ignore[import-not-found]

        def database(words: list[str]) -> Callable[[str], bool]:
            db = hyperscan.Database()
            db.compile(
                expressions=[re.escape(w).encode() for w in words],
                ids=list(range(len(words))),
                elements=len(words),
                flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(words),
            )

            def search(x: str) -> bool:
                found: list[int] = []
                try:
                    db.scan(x.encode(), match_event_handler=lambda *a: found.append(1) or True)
                except hyperscan.ScanTerminated:
                    pass
                return bool(found)

            return search

        out.append(("hyperscan", _hints(database(HEAD_HINTS), database(TAIL_HINTS))))
    except ImportError:
        pass
    return out


def bench_scans(calls: int) -> list[tuple[str, str, float]]:
    entries = bench_diagnosis.make_calls(calls, seed=3, distinct=True, start=500_000)
    replies = [(e.response,) for e in entries if e.response and len(e.response) >= 10]
    prompts = [(e.prompt,) for e in entries if e.prompt]
    folded = [(user_text(e.prompt)[:1500].lower(),) for e in entries]
    rows: list[tuple[str, str, float]] = []
    try:
        (gate, scanner), _ = load_compiled()
        scanner.configure(fs.LOOKED_UP_WORDS, fs.WORD_START_PREFIXES)
    except CompiledUnusable as why:
        print(f"(compiled scans not usable: {why}; Python only)")
        gate = scanner = None

    # The loop gate over every reply, and find_loop as a whole on each path.
    if gate is not None:
        rows.append(("loop gate (every reply)", "C prefilter", cpu_us(gate.prefilter, replies)))
    rows.append(("loop gate (every reply)", "Python twin", cpu_us(loop.prefilter, replies)))
    names = ("_prefilter", "_periods_of", "_stripped", "_spans_of", "_labelled_numbers")
    chosen = {name: getattr(loop, name) for name in names}
    rows.append(("find_loop (every reply)", "this process's path", cpu_us(loop.find_loop, replies)))
    pure = (
        None,
        loop_words.candidate_periods,
        loop_words.stripped_py,
        loop_words.token_spans_py,
        loop_words.labelled_numbers_py,
    )
    for name, value in zip(names, pure):
        setattr(loop, name, value)
    rows.append(("find_loop (every reply)", "pure Python", cpu_us(loop.find_loop, replies)))
    for name, value in chosen.items():
        setattr(loop, name, value)

    # The word helpers, for the replies that pass the gate.
    passing = [r for (r,) in replies if loop.prefilter(r)[1]]
    words = [r.lower().split() for r in passing]
    toks = [(loop_words.stripped_py(w),) for w in words]
    print(f"({len(passing)} of {len(replies)} replies pass the loop gate)")
    for label, c_call, py_call, args in (
        (
            "candidate periods",
            lambda t: gate.candidate_periods(t, loop_words.MAX_PERIOD),
            loop_words.candidate_periods,
            toks,
        ),
        (
            "strip tokens",
            lambda w: gate.strip_tokens(w, loop_words.PUNCT),
            loop_words.stripped_py,
            [(w,) for w in words],
        ),
        ("token spans", lambda t: gate.token_spans(t), loop_words.token_spans_py, [(r,) for r in passing]),
        (
            "labelled numbers",
            lambda t: gate.labelled_numbers(t),
            loop_words.labelled_numbers_py,
            [(r.lower(),) for r in passing],
        ),
    ):
        if gate is not None:
            rows.append((f"{label} (passing replies)", "C", cpu_us(c_call, args)))
        rows.append((f"{label} (passing replies)", "Python twin", cpu_us(py_call, args)))

    # The grouping features' three tables on every distinct user text.
    def features_c(text: str) -> tuple[str, str, str]:
        found, started = scanner.scan(text)
        return (
            scanner.first(fs.INSTRUCTION_SCAN.spec, text, found, started, "other"),
            scanner.first(fs.OUTPUT_SCAN.spec, text, found, started, "prose"),
            scanner.first(fs.TOPIC_SCAN.spec, text, found, started, "unknown"),
        )

    def features_py(text: str) -> tuple[str, str, str]:
        found = fs.looked_up_words(text)
        return (
            fs.INSTRUCTION_SCAN.first(text, found, "other"),
            fs.OUTPUT_SCAN.first(text, found, "prose"),
            fs.TOPIC_SCAN.first(text, found, "unknown"),
        )

    if scanner is not None:
        rows.append(("features, 3 tables (every text)", "C scan + first", cpu_us(features_c, folded)))
        rows.append(("features: words only", "C scan", cpu_us(scanner.scan, folded)))
    rows.append(("features, 3 tables (every text)", "Python twin", cpu_us(features_py, folded)))
    rows.append(("features: words only", "Python (bytes.translate + set)", cpu_us(fs.looked_up_words, folded)))
    keywords = sorted((w.decode() for w in fs.LOOKED_UP_WORDS), key=len, reverse=True)
    alternation = re.compile(r"\b(?:" + "|".join(map(re.escape, keywords)) + r")\b")
    rows.append(
        (
            "features: words only",
            "one re alternation (findall)",
            cpu_us(lambda text: frozenset(alternation.findall(text)), folded),
        )
    )
    try:
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for word in keywords:
            automaton.add_word(word, word)
        automaton.make_automaton()
        word_chars = set("abcdefghijklmnopqrstuvwxyz0123456789_")

        def whole_words(text: str) -> frozenset[str]:
            return frozenset(
                w
                for end, w in automaton.iter(text)
                if (end + 1 == len(text) or text[end + 1] not in word_chars)
                and (end - len(w) < 0 or text[end - len(w)] not in word_chars)
            )

        rows.append(("features: words only", "pyahocorasick + word-boundary checks", cpu_us(whole_words, folded)))
    except ImportError:
        pass

    # The scans that are plain Python now (diagnosis/_text_scan.c deleted), against the libraries.
    for label, search in refusal_candidates():
        rows.append(("refusal prefilters (every reply)", label, cpu_us(search, replies)))
    starts = "|".join(re.escape(start) for start, _ in __import__("common.chat_markers").chat_markers.USER_TURNS)
    last_marker = re.compile(rf"(?s).*({starts})")
    rows.append(("user's turn (every prompt)", "Python rfind per marker (kept)", cpu_us(_user_turn, prompts)))
    rows.append(
        (
            "user's turn (every prompt)",
            "one re alternation, greedy .* (the marker only)",
            cpu_us(last_marker.match, prompts),
        )
    )
    return rows


def bench_settings(launches: int = 8) -> dict[str, list[float]]:
    """CPU ms of building the session's settings in a fresh process: the plain checks vs pydantic."""
    plain = (
        "import time; c = time.process_time(); from application.session.settings.typed import Settings; "
        "Settings(); print(time.process_time() - c)"
    )
    model = (
        "import time; c = time.process_time(); from application.session.settings.validation import SettingsModel; "
        "SettingsModel(); print(time.process_time() - c)"
    )
    out: dict[str, list[float]] = {"plain checks": [], "pydantic models": []}
    for i in range(launches):
        order = (("plain checks", plain), ("pydantic models", model))
        for label, code in order if i % 2 == 0 else order[::-1]:
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                check=True,
                cwd=Path(__file__).resolve().parents[2],
            )
            out[label].append(float(done.stdout) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--settings", action="store_true", help="also the settings checks against pydantic")
    args = parser.parse_args()
    print("| scan | how | CPU us per call |\n|---|---|---|")
    for scan, how, us in bench_scans(args.calls):
        print(f"| {scan} | {how} | {us:.2f} |")
    if args.settings:
        for label, ms in bench_settings().items():
            print(f"settings, {label}: min {min(ms):.1f} ms, median {statistics.median(ms):.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
