"""Precision and recall of ``classify`` per kind over the hand-labelled corpus.

``pytest -s tests/test_diagnosis_corpus.py`` prints the table. The floors are set below what
the detectors reach on this corpus, leaving room for honest misses (the corpus includes one
known miss: a loop whose copies differ by a day number).
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from api_client.models import LogEntry, Result
from diagnosis import classify, kinds

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


def _load_corpus() -> ModuleType:
    path = Path(__file__).parent / "corpus" / "labelled_calls.py"
    spec = importlib.util.spec_from_file_location("labelled_calls", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CORPUS: list[dict[str, Any]] = _load_corpus().CALLS


def _split(raw: dict[str, Any]) -> tuple[LogEntry, set[str], str | None, Result | None]:
    data = dict(raw)
    labels = set(data.pop("labels"))
    trained = data.pop("trained_template")
    result = data.pop("result", None)
    return LogEntry(**data), labels, trained, Result(**result) if result else None


def _score() -> tuple[Counter[str], Counter[str], Counter[str], list[str]]:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    errors: list[str] = []
    for raw in CORPUS:
        entry, labels, trained, result = _split(raw)
        got = {f.kind for f in classify(entry, trained_template=trained, result=result)}
        for kind in got & labels:
            tp[kind] += 1
        for kind in got - labels:
            fp[kind] += 1
            errors.append(f"false {kind}: {entry.id}")
        for kind in labels - got:
            fn[kind] += 1
            errors.append(f"missed {kind}: {entry.id}")
    return tp, fp, fn, errors


def test_corpus_is_big_and_covers_every_kind() -> None:
    assert len(CORPUS) >= 100
    assert len({c["id"] for c in CORPUS}) == len(CORPUS), "ids must be unique"
    labelled = Counter(k for c in CORPUS for k in c["labels"])
    for kind in kinds.CLASSIFY_KINDS:
        assert labelled[kind] >= 4, f"too few {kind} examples to measure"
    clean = sum(1 for c in CORPUS if not c["labels"])
    assert clean >= 40, "the traps (clean calls that look like failures) are most of the point"


def test_precision_and_recall_per_kind() -> None:
    tp, fp, fn, errors = _score()
    lines = [f"{'kind':18s} {'tp':>4s} {'fp':>4s} {'fn':>4s} {'precision':>9s} {'recall':>7s}"]
    failures: list[str] = []
    for kind in kinds.CLASSIFY_KINDS:
        found = tp[kind] + fp[kind]
        actual = tp[kind] + fn[kind]
        precision = tp[kind] / found if found else 1.0
        recall = tp[kind] / actual if actual else 1.0
        lines.append(f"{kind:18s} {tp[kind]:4d} {fp[kind]:4d} {fn[kind]:4d} {precision:9.2f} {recall:7.2f}")
        p_floor, r_floor = FLOORS[kind]
        if precision < p_floor or recall < r_floor:
            failures.append(f"{kind}: precision {precision:.2f} (floor {p_floor}), recall {recall:.2f} (floor {r_floor})")
    print("\n" + "\n".join(lines))
    if errors:
        print("disagreements: " + "; ".join(errors))
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
