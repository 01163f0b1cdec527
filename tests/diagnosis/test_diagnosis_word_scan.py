"""The grouping features' compiled word look-ups (diagnosis/_word_scan.c) give the answers of
their Python twins: the looked-up keywords that are words of a lower-cased ASCII text, and the
word-start prefixes that start one of its words; and the features are the old searches' with the
compiled pass and without it (fuzzed texts of keywords, prefixes, near misses and separators)."""

from __future__ import annotations

import random

import pytest

from diagnosis import features, features_scan as fs
from tests.diagnosis.test_diagnosis_stream import word_soup
from tests.support.diagnosis_reference import reference_text_features

scanner = pytest.importorskip("diagnosis._word_scan", reason="the compiled scan is not built (pip install -e .)")

PIECES = [p.decode() for p in fs.WORD_START_PREFIXES] + sorted(w.decode() for w in fs.LOOKED_UP_WORDS)[::3] + [
    "x", "_", "9", "s", "sum_", "_sum", "2sum", "summ", "ma", "th", "json2", "c", "++", " ", "\t", "\n", "-", ".",
    "'", ";", "(", "```", "?",
]


def fuzzed(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) + (rng.choice([" ", "", ", ", "\n"]) if rng.random() < 0.7 else "")
                   for _ in range(rng.randint(0, 16)))


def test_the_compiled_scan_finds_what_the_python_look_ups_find() -> None:
    rng = random.Random(41)
    hits = 0
    for _ in range(20_000):
        folded = fuzzed(rng).lower()
        words, started = fs.scan_words(folded)
        assert words == fs.looked_up_words(folded), folded
        assert started == {p for p in fs.WORD_START_PREFIXES if fs._starts_a_word(folded, (p.decode(),))}, folded
        hits += bool(words) and bool(started)
    assert hits > 5000
    assert fs.scan_words("é math") is None  # not ASCII: the case-insensitive patterns read it


def test_features_are_the_old_searches_with_and_without_the_compiled_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = word_soup(random.Random(43), 4000) + [fuzzed(random.Random(44)) for _ in range(2000)]
    features.text_features.cache_clear()
    compiled = [features.text_features(t) for t in texts]
    assert compiled == [reference_text_features(t) for t in texts]
    monkeypatch.setattr(features, "scan_words", None)
    features.text_features.cache_clear()
    assert [features.text_features(t) for t in texts] == compiled
    features.text_features.cache_clear()
