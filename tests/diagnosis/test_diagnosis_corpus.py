"""Precision and recall of ``classify`` per kind over the hand-labelled corpus.

``pytest -s tests/diagnosis/test_diagnosis_corpus.py`` (or ``python -m tests.corpus.scoring``) prints the
table. The floors are set below what the detectors reach on this corpus, leaving room for honest
misses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from diagnosis import classify, kinds
from tests.corpus.scoring import load_corpus, score, split

FLOORS: dict[str, tuple[float, float]] = {  # kind -> (precision, recall)
    kinds.ERROR: (0.95, 0.95),
    kinds.EMPTY: (0.95, 0.9),
    kinds.LOOP: (0.9, 0.9),
    kinds.TRUNCATION: (0.95, 0.9),
    kinds.CONTINUATION: (0.9, 0.85),
    kinds.REFUSAL: (0.9, 0.85),
    kinds.TEMPLATE_MISMATCH: (0.95, 0.95),
    kinds.TEMPLATE_LEAK: (0.9, 0.9),
    kinds.WRONG_ANSWER: (0.9, 0.9),
}

CORPUS: list[dict[str, Any]] = load_corpus()
_split = split


def test_corpus_is_big_and_covers_every_kind() -> None:
    assert len(CORPUS) >= 100
    assert len({c["id"] for c in CORPUS}) == len(CORPUS), "ids must be unique"
    labelled = Counter(k for c in CORPUS for k in c["labels"])
    for kind in kinds.CLASSIFY_KINDS:
        assert labelled[kind] >= 4, f"too few {kind} examples to measure"
    clean = sum(1 for c in CORPUS if not c["labels"])
    assert clean >= 40, "the traps (clean calls that look like failures) are most of the point"


def test_precision_and_recall_per_kind() -> None:
    scores = score(CORPUS)
    failures: list[str] = []
    for kind in kinds.CLASSIFY_KINDS:
        precision, recall = scores.precision(kind), scores.recall(kind)
        p_floor, r_floor = FLOORS[kind]
        if precision < p_floor or recall < r_floor:
            failures.append(
                f"{kind}: precision {precision:.2f} (floor {p_floor}), recall {recall:.2f} (floor {r_floor})"
            )
    print("\n" + scores.table())
    if scores.disagreements:
        print("disagreements: " + "; ".join(scores.disagreements))
    assert not failures, failures


@pytest.mark.parametrize("raw", [c for c in CORPUS if not c["labels"]], ids=lambda c: c["id"])
def test_traps_stay_clean(raw: dict[str, Any]) -> None:
    entry, _, trained, result = _split(raw)
    found = classify(entry, trained_template=trained, result=result)
    assert found == [], [f.evidence for f in found]


def test_findings_are_well_formed_on_the_whole_corpus() -> None:
    for raw in CORPUS:
        entry, _, trained, result = _split(raw)
        for finding in classify(entry, trained_template=trained, result=result):
            assert finding.kind in kinds.KIND_INFO
            assert finding.evidence and "\x1b" not in finding.evidence
            if finding.span is not None:
                start, end = finding.span
                assert 0 <= start <= end <= len(entry.response or "")
