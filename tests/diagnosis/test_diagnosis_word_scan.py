"""The grouping features' compiled word look-ups (diagnosis/_word_scan.c) give the answers of
their Python twins: the looked-up keywords that are words of a lower-cased ASCII text, the
word-start prefixes that start one of its words, and each rule table's first match (its gates and
patterns tried in C); and the features are the old searches' with the compiled pass and without
it (fuzzed texts of keywords, prefixes, the gates' phrases, operators, near misses and separators)."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from diagnosis import features
from diagnosis import features_scan as fs
from tests.diagnosis.test_diagnosis_stream import word_soup
from tests.support.compiled_scans import compiled_modules
from tests.support.diagnosis_reference import reference_text_features


@pytest.fixture(name="scanner")
def _scanner() -> ModuleType:
    return compiled_modules()[1]


PIECES = (
    [p.decode() for p in fs.WORD_START_PREFIXES]
    + sorted(w.decode() for w in fs.LOOKED_UP_WORDS)[::3]
    + [
        "x",
        "_",
        "9",
        "s",
        "sum_",
        "_sum",
        "2sum",
        "summ",
        "ma",
        "th",
        "json2",
        "c",
        "++",
        " ",
        "\t",
        "\n",
        "-",
        ".",
        "'",
        ";",
        "(",
        "```",
        "?",
    ]
)


def fuzzed(rng: random.Random) -> str:
    return "".join(
        rng.choice(PIECES) + (rng.choice([" ", "", ", ", "\n"]) if rng.random() < 0.7 else "")
        for _ in range(rng.randint(0, 16))
    )


def test_the_compiled_scan_finds_what_the_python_look_ups_find(scanner: ModuleType) -> None:
    rng = random.Random(41)
    hits = 0
    for _ in range(20_000):
        folded = fuzzed(rng).lower()
        words, started = scanner.scan(folded)
        assert words == fs.looked_up_words(folded), folded
        assert started == {p for p in fs.WORD_START_PREFIXES if fs._starts_a_word(folded, (p.decode(),))}, folded
        hits += bool(words) and bool(started)
    assert hits > 5000
    assert scanner.scan("é math") is None  # not ASCII: the case-insensitive patterns read it


def test_features_are_the_old_searches_with_and_without_the_compiled_scan(
    scanner: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = word_soup(random.Random(43), 4000) + [fuzzed(random.Random(44)) for _ in range(2000)]
    features.text_features.cache_clear()
    with monkeypatch.context() as compiled_path:  # (whatever path this process runs)
        compiled_path.setattr(features, "scan_words", scanner.scan)
        compiled_path.setattr(features, "first_compiled", scanner.first)
        compiled = [features.text_features(t) for t in texts]
    assert compiled == [reference_text_features(t) for t in texts]
    monkeypatch.setattr(features, "scan_words", None)
    monkeypatch.setattr(features, "first_compiled", None)
    features.text_features.cache_clear()
    assert [features.text_features(t) for t in texts] == compiled
    features.text_features.cache_clear()


GATE_PIECES = PIECES + [
    "sum of",
    "product of",
    "how many",
    "how much",
    "fairy tale",
    "once upon",
    "write a ",
    "write a short letter",
    "how are you",
    "what do you think",
    "let's chat",
    "tell me about yourself",
    "name ",
    "give me ",
    "suggest ",
    "three",
    "5",
    "in python",
    "in one sentence",
    "key points",
    "c++",
    "is this positive",
    "label the",
    "what",
    "hi",
    "hello",
    "good morning",
    "thanks",
    "12",
    "3 + 4",
    "7*8",
    "9 /",
    "- 2",
    "^",
    "x",
    "?",
    "? ",
    "?\n",
    " ?",
    "write the function",
    "fix a bug",
    "implement this code",
    "```",
    "case 1",
    "1-2",
    "a1+2",
    "_3*4",
    "(5-6)",
]


def _gate_soup(rng: random.Random) -> str:
    text = "".join(
        rng.choice(GATE_PIECES) + rng.choice([" ", "", ", ", "\n", "\t", "  "]) for _ in range(rng.randint(0, 10))
    )
    return rng.choice(["", " ", "\n "]) + text


def test_the_compiled_first_match_is_the_python_one(scanner: ModuleType) -> None:
    rng = random.Random(45)
    named = set()
    for _ in range(20_000):
        folded = _gate_soup(rng).lower()
        scanned = scanner.scan(folded)
        assert scanned is not None
        words, started = scanned
        for scan_ in (fs.INSTRUCTION_SCAN, fs.OUTPUT_SCAN, fs.TOPIC_SCAN):
            want = scan_.first(folded, words, "none", started)
            assert scanner.first(scan_.spec, folded, words, started, "none") == want, (folded, scan_.names)
            assert scanner.first(scan_.spec, folded, words, None, "none") == want, (folded, scan_.names)
            named.add(want)
    assert named >= set(fs.INSTRUCTION_SCAN.names) | set(fs.OUTPUT_SCAN.names) | set(fs.TOPIC_SCAN.names) | {"none"}
    assert scanner.first(fs.TOPIC_SCAN.spec, "é math", frozenset(), None, "none") is None
