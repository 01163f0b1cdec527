"""The loop detector's compiled gate (diagnosis/_loop_gate.c) gives the answers of its Python
twin (``loop.prefilter``): the number of words of ``low.split()`` and whether a word trigram comes
back (list markers folded or not), on fuzzed texts of repeated words, list markers, near-miss markers and
every kind of whitespace ``str.split`` splits on; the periods worth checking in a list of words;
and ``find_loop`` finds the same loops with the compiled gate and periods as without them."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from diagnosis import loop, loop_words
from tests.support.compiled_scans import compiled_modules


@pytest.fixture(name="gate")
def _gate() -> ModuleType:
    return compiled_modules()[0]


WORDS = [
    "no",
    "the",
    "cat",
    "Milk",
    "buy",
    "a",
    "x",
    "1.",
    "(2)",
    "3)",
    "12.",
    "999)",
    "1000.",
    "(1)",
    "2.",
    "(12.",
    "007.",
    "1.)",
    "(3",
    "4",
    "..",
    ").",
    "day",
    "Day 2:",
    "step",
    "ok!",
    "haha",
    "!!!!",
    "photosynthesis",
    "abcdefghijklmnop",
    "abcdefghijklmnoq",
    "12345678",
    "123456789",
    "abcdefgh",
]  # (8-byte chunks)
SPACES = [" ", " ", " ", "\n", "\t", "\x1c", "\x1d", "\x1e", "\x1f", "  ", "\x0b", "\x0c", "\r\n", "\n\n"]


def fuzzed(rng: random.Random) -> str:
    vocab = rng.sample(WORDS, rng.randint(2, 8))  # few words: trigrams come back often
    parts = [rng.choice(SPACES) if rng.random() < 0.2 else ""]
    for _ in range(rng.randint(0, 40)):
        parts += [rng.choice(vocab), rng.choice(SPACES)]
    text = "".join(parts)
    if rng.random() < 0.05:
        text += "é"
    return text


def python_gate(low: str, fold: bool) -> int:
    if not low.isascii():
        return -1
    words = low.split()
    return len(words) * 2 + int(loop._could_repeat(loop._fold_markers(low, words) if fold else words))


def test_the_compiled_gate_answers_what_the_python_gate_answers(gate: ModuleType) -> None:
    rng = random.Random(30)
    passed = 0
    for _ in range(20_000):
        text = fuzzed(rng)
        got = gate.prefilter(text)
        if not text.isascii():
            assert got is None
            continue
        assert got == loop.prefilter(text), text
        passed += got[1]
    assert passed > 2000  # the gate opened often enough to be tested both ways


def _or_python(found: list[tuple[str, int, int]] | None, low: str) -> list[tuple[str, int, int]]:
    return loop_words.labelled_numbers_py(low) if found is None else found  # (None: not ASCII)


def test_find_loop_finds_the_same_loops_with_and_without_the_compiled_gate(
    gate: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import bench_diagnosis

    rng = random.Random(31)
    texts = [fuzzed(rng) for _ in range(5000)]
    texts += [bench_diagnosis.answer_for(i) for i in range(200)] + [
        bench_diagnosis.failure_for(i)[0] for i in range(200)
    ]
    texts += [
        "1. Buy milk 2. Buy milk 3. Buy milk 4. Buy milk",
        "Day 1: I walked. Day 2: I walked. Day 3: I walked.",
        "The answer is no no no no no no no no",
        "Sure. " + "The capital of France is Paris. " * 5,
    ]
    with monkeypatch.context() as compiled_path:  # (whatever path this process runs)
        compiled_path.setattr(loop, "_prefilter", gate.prefilter)
        compiled_path.setattr(loop, "_periods_of", lambda toks: gate.candidate_periods(toks, loop_words.MAX_PERIOD))
        compiled_path.setattr(loop, "_labelled_numbers", lambda low: _or_python(gate.labelled_numbers(low), low))
        compiled_path.setattr(loop, "_stripped", lambda words: gate.strip_tokens(words, loop_words.PUNCT))
        compiled_path.setattr(loop, "_spans_of", lambda text: gate.token_spans(text) or loop_words.token_spans_py(text))
        compiled = [loop.find_loop(t) for t in texts]
    monkeypatch.setattr(loop, "_periods_of", loop_words.candidate_periods)
    monkeypatch.setattr(loop, "_prefilter", None)
    monkeypatch.setattr(loop, "_labelled_numbers", loop_words.labelled_numbers_py)
    monkeypatch.setattr(loop, "_stripped", loop_words.stripped_py)
    monkeypatch.setattr(loop, "_spans_of", loop_words.token_spans_py)
    assert [loop.find_loop(t) for t in texts] == compiled
    assert sum(hit is not None for hit in compiled) > 300


def test_the_compiled_periods_are_the_python_ones(gate: ModuleType) -> None:
    rng = random.Random(32)
    many = 0
    for _ in range(5000):
        vocab = rng.sample(WORDS, rng.randint(1, 12)) + ["é", "日本", "x" * 40]
        toks = [rng.choice(vocab) for _ in range(rng.choice([0, 3, 30, 300, 700]))]
        got = gate.candidate_periods([t.lower() for t in toks], loop_words.MAX_PERIOD)
        assert got == loop_words.candidate_periods([t.lower() for t in toks]), toks
        many += len(got) == 24
    assert many > 500


def test_the_compiled_tokens_and_spans_are_the_python_ones(gate: ModuleType) -> None:
    rng = random.Random(33)
    punct = list(loop_words.PUNCT) + ["«", "“", "’"]
    for _ in range(5000):
        words = [
            "".join(rng.choice(punct + ["a", "b", "é", "1"]) for _ in range(rng.randint(1, 6)))
            for _ in range(rng.randint(0, 20))
        ]
        assert gate.strip_tokens(words, loop_words.PUNCT) == loop_words.stripped_py(words), words
        text = "".join(w + rng.choice(SPACES + ["\xa0", "\u2003", ""]) for w in words)
        spans = gate.token_spans(text)
        if text.isascii():
            assert spans == loop_words.token_spans_py(text), text
        else:
            assert spans is None


def test_the_prefilter_is_the_python_gate_suspects_and_runs(gate: ModuleType) -> None:
    rng = random.Random(34)
    vocab = WORDS + [
        "AAAAAAAAAAAAAAAAAAAA",
        "abababababababab",
        "!!!!!!!!!!!!",
        "?!?!?!?!?!?!",
        "Photosynthesis",
        "2.",
        "2)",
        "\n\n\n\n\n",
        " " * 10,
        "\t" * 5,
        "\t" * 4,
        " " * 9,
        "\n" * 4,
        "X2.",
        "9.\t",
    ]
    seen = set()
    for _ in range(20_000):
        text = "".join(rng.choice(vocab) + rng.choice(SPACES) for _ in range(rng.randint(0, 30)))
        got = gate.prefilter(text)
        if not text.isascii():
            assert got is None
            continue
        low = text.lower()
        listed = ("2." in low or "2)" in low) and loop._HAS_LIST_MARKER.search(low) is not None
        shape = python_gate(low, listed)
        spaced = "\n\n\n\n\n" in text or " " * 10 in text or "\t\t\t\t\t" in text
        assert got == (shape >> 1, bool(shape & 1), listed, loop._suspects(low, None), spaced), text
        seen.add((got[1], got[2], bool(got[3]), got[4]))
    assert len(seen) >= 12


def test_the_compiled_labelled_numbers_are_the_python_ones(gate: ModuleType) -> None:
    rng = random.Random(35)
    pieces = [
        "day",
        "step",
        "x",
        "a_b",
        "2day",
        "day2",
        " ",
        "  ",
        "\t",
        "#",
        "1",
        "12",
        "123",
        "1234",
        "0",
        ".",
        ":",
        "_",
        "é",
        "\n",
        "-",
        "day 1",
        "Day 3",
    ]
    found = 0
    for _ in range(30_000):
        low = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))).lower()
        got = gate.labelled_numbers(low)
        if not low.isascii():
            assert got is None
            continue
        assert got == loop_words.labelled_numbers_py(low), low
        found += bool(got)
    assert found > 2000
