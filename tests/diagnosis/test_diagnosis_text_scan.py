"""The detectors' compiled text scans (diagnosis/_text_scan.c) give the answers of their Python
twins, on fuzzed texts made of the very markers, words and characters each scan looks for, near
misses of them, and unicode whitespace: the user's turn in a templated prompt, the refusal
prefilters, the loop detector's long-token gate and the lines of a numbered series; and the
findings of ``classify`` are the same with the compiled scans as with the twins."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from diagnosis import classifier, detectors_continuation, detectors_refusal, loop, text
from diagnosis.classifier import classify

scan = pytest.importorskip("diagnosis._text_scan", reason="the compiled scans are not built (pip install -e .)")
if not hasattr(scan, "speaker_line"):
    pytest.skip("built from older sources (pip install -e .)", allow_module_level=True)

SPACES = [" ", " ", "\n", "\t", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\xa0", "\u2003", "\u3000", "\x85", ""]


def _soup(rng: random.Random, pieces: list[str], count: int) -> str:
    return "".join(rng.choice(pieces) + rng.choice(SPACES) for _ in range(rng.randint(0, count)))


TURN_PIECES = [
    "<|im_start|>user", "<|im_start|>", "<|im_start|>assistant", "<|im_end|>", "<|start_header_id|>user<|end_header_id|>",
    "<|start_header_id|>", "<|eot_id|>", "<start_of_turn>user", "<start_of_turn>", "<end_of_turn>", "<|user|>",
    "<|end|>", "<|assistant|>", "</s>", "[INST]", "[/INST]", "### Instruction:", "### Response:", "### Input:",
    "USER:", "ASSISTANT:", "user", "User", "<<SYS>>", "<</SYS>>", "<|im_start|", "[INST", "### Instruction",
    "USER", "hello", "Case 12: what is 2+2?", "é", "日本", "#", "[", "<", "x",
]


def test_user_turn_is_the_python_search() -> None:
    rng = random.Random(60)
    turns = 0
    for _ in range(20_000):
        prompt = _soup(rng, TURN_PIECES, 14)
        got = scan.user_turn(prompt)
        assert got == text.user_turn_py(prompt), prompt
        turns += got != prompt
    assert turns > 10_000
    assert scan.user_turn("") == ""


HINT_PIECES = [
    "n't", "n’t", "N'T", "not", " not ", "NOT", "cannot", "CanNot", "sorry", "Sorry", "unable", "declin", "decline",
    "refus", "Refuse", "afraid", "as an ai", "As An AI", "against my", "apolog", "Apologise", "n t", "decli", "refu",
    "as an a", "against", "sorr", "can", "I", "i'm", "word", "words and more words", "É", "ß", "x" * 37, ".", "'",
]
FILLER = ["word", "Words", "and", "more", "text", "x" * 37, ".", ",", "'", "n", "t", "no", "É"]


def test_refusal_hints_are_the_python_prefilters() -> None:
    rng = random.Random(61)
    seen = set()
    for _ in range(20_000):
        rate = rng.choice([0.5, 0.05, 0.01])  # sparse hints: some replies hold one at only one end
        reply = "".join((rng.choice(HINT_PIECES) if rng.random() < rate else rng.choice(FILLER)) + rng.choice(SPACES)
                        for _ in range(rng.randint(0, rng.choice([4, 30, 120]))))
        if rng.random() < 0.5:
            reply = reply.encode("ascii", "ignore").decode()
        got = scan.refusal_hints(reply)
        assert got == detectors_refusal.refusal_hints_py(reply), reply
        seen.add(got)
    assert seen == {-1, 0, 1, 2, 3}


def test_refusal_hints_at_the_edges_of_the_windows() -> None:
    for length in range(200, 560):
        for at in (0, 100, 115, 118, 119, 120, 121, 200, 236, 237, 238, 239, 240, length - 400, length - 401,
                   length - 5, length - 4, length - 3):
            if at < 0:
                continue
            reply = ("x" * at + "n't" + "y" * length)[:length]
            assert scan.refusal_hints(reply) == detectors_refusal.refusal_hints_py(reply), (length, at)


LOOP_PIECES = ["a" * 9, "a" * 10, "ab" * 5, "ab" * 8, "abcab" * 3, "abcdefghij", "photosynthesis", "!" * 9, "!" * 10,
               "?!" * 6, "-" * 12, "=" * 20, "haha", "hahahahahahahaha", "x", "1.", "....", "~" * 10, "$" * 10,
               "''''''''''", "aaaaaaaaaaaaaaaaaaaa"]


def test_suspects_are_the_python_long_tokens() -> None:
    rng = random.Random(62)
    found = 0
    for _ in range(20_000):
        pieces = rng.sample(LOOP_PIECES, 6)
        low = "".join(rng.choice(pieces) + (rng.choice(SPACES[:10]) if rng.random() < 0.6 else "")
                      for _ in range(rng.randint(0, 12))).lower()
        got = scan.suspects(low)
        if not low.isascii():
            assert got is None
            continue
        assert got == loop._suspects(low, None), low
        found += bool(got)
    assert found > 3000


SERIES_PIECES = ["Case", "case", "Quiz question", "Q", "Problem", "Step", "a", "A" * 30, "A" * 31, "Ab" * 16, " ", "\t",
                 "  ", "#", "1", "12", "123", "1234", "0", ":", ".", ")", "-", ">", "*", "**", "\n", "\n", "é", "x y",
                 "3.", "7)", "#4:", "1 :", "ok", "\r"]


def test_series_items_are_the_python_matches() -> None:
    rng = random.Random(63)
    found = 0
    for _ in range(30_000):
        if rng.random() < 0.5:
            said = "".join(rng.choice(SERIES_PIECES) for _ in range(rng.randint(0, 24)))
        else:  # lines shaped as items, each part sometimes off by one (label length, digits, blanks, ending)
            said = "\n".join(
                rng.choice(["", " ", "> ", "- ", "**", "\t#", "1"]) + rng.choice(["Case", "Quiz question", "Q", "a b"])
                + rng.choice(["", "x" * 26, "y" * 27, " z" * 14]) + rng.choice(["", " ", "\t ", "  "])
                + rng.choice(["", "#", "# "]) + rng.choice(["1", "42", "999", "1000", "", "x"])
                + rng.choice(["", " ", "\t"]) + rng.choice([":", ".", ")", "", ";", " more"]) + rng.choice(["", " text"])
                for _ in range(rng.randint(1, 4))
            )
        got = scan.series_items(said)
        if not said.isascii():
            assert got is None
            continue
        assert got == detectors_continuation.series_items_py(said), said
        found += bool(got)
    assert found > 3000


def test_the_series_gate_is_the_python_one_and_lets_every_series_through() -> None:
    rng = random.Random(64)
    opened = 0
    for _ in range(20_000):
        lines = [rng.choice(SERIES_PIECES[:-5]) + rng.choice(["1", "12", "123", "1234", "x", ""])
                 + rng.choice(["", " ", "\t"]) + rng.choice([":", ".", ")", "?", ""]) + rng.choice(["", " ok", "\n"])
                 for _ in range(rng.randint(0, 5))]
        prompt = rng.choice(["", "<|im_start|>user\n", "[INST] ", "<|im_start|>system\nQ1: x<|im_end|><|im_start|>user\n"])
        prompt += rng.choice([" ", "\n", ""]).join(lines) + rng.choice(["", "<|im_end|>", " [/INST]", "é"])
        gate = scan.series_gate(prompt)
        assert gate == detectors_continuation.series_gate_py(prompt), prompt
        if not gate:
            assert detectors_continuation._series_in(text.user_turn_py(prompt)) == (), prompt
        opened += gate
    assert 5000 < opened < 15000


SPEAKER_PIECES = ["Alice", "Dr Who", "A", "B" * 24, "C" * 25, "Mr. O'Neil-Smith", "x", "bob", "Q", " ", "\t", ":", ": ",
                  ":\n", ": hi", "\n", "\n", "2", "_", "é", "Ann Lee", "Ann lee", "ANN  LEE", "Z" + "z" * 23 + " Y"]


def test_speaker_line_is_the_python_search() -> None:
    rng = random.Random(65)
    found = 0
    for _ in range(30_000):
        reply = "".join(rng.choice(SPEAKER_PIECES) for _ in range(rng.randint(0, 12)))
        got = scan.speaker_line(reply)
        assert got == detectors_continuation.speaker_line_py(reply), reply
        found += got and reply.isascii()
    assert 1500 < found < 25000


def test_classify_finds_the_same_with_the_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import bench_diagnosis

    calls = bench_diagnosis.make_calls(3000, seed=5, distinct=True)
    calls += bench_diagnosis.make_calls(300, seed=6, distinct=True, start=1)  # "Case 1:" ...: series items
    compiled = [classify(c, trained_template="chatml") for c in calls]
    assert {f.kind for found in compiled for f in found} >= {"loop", "truncation", "refusal", "empty"}
    monkeypatch.setattr(text, "_user_turn", text.user_turn_py)
    monkeypatch.setattr(text, "_last_said", (None, None, ""))
    monkeypatch.setattr(detectors_refusal, "_refusal_hints", lambda reply: -1)
    monkeypatch.setattr(loop, "_long_suspects", None)
    monkeypatch.setattr(detectors_continuation, "_series_items", detectors_continuation.series_items_py)
    monkeypatch.setattr(detectors_continuation, "_series_gate", None)
    monkeypatch.setattr(detectors_continuation, "_speaker_line", lambda reply: True)
    detectors_continuation._series_in_prompt.cache_clear()
    assert [classify(c, trained_template="chatml") for c in calls] == compiled
    assert classifier.classify is classify
