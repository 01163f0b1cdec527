"""Per-kind precision and recall of ``classify`` over the hand-labelled corpus.

Run from the repository root: ``python -m tests.corpus.scoring`` prints the table and every
disagreement (``tests/diagnosis/test_diagnosis_corpus.py`` holds the floors).
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from api_client.blahdev.shapes import LogEntry, Result
from diagnosis import classify, kinds


def load_corpus() -> list[dict[str, Any]]:
    """The labelled calls (``labelled_calls.CALLS``), loaded from the file beside this one."""
    path = Path(__file__).parent / "labelled_calls.py"
    spec = importlib.util.spec_from_file_location("labelled_calls", path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CALLS


def split(raw: dict[str, Any]) -> tuple[LogEntry, set[str], str | None, Result | None]:
    """One corpus row as (entry, labels, trained template, judged result)."""
    data = dict(raw)
    labels = set(data.pop("labels"))
    trained = data.pop("trained_template")
    result = data.pop("result", None)
    return LogEntry(**data), labels, trained, Result(**result) if result else None


@dataclass
class Scores:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)

    def precision(self, kind: str) -> float:
        found = self.tp[kind] + self.fp[kind]
        return self.tp[kind] / found if found else 1.0

    def recall(self, kind: str) -> float:
        actual = self.tp[kind] + self.fn[kind]
        return self.tp[kind] / actual if actual else 1.0

    def table(self) -> str:
        lines = [f"{'kind':18s} {'tp':>4s} {'fp':>4s} {'fn':>4s} {'precision':>9s} {'recall':>7s}"]
        for kind in kinds.CLASSIFY_KINDS:
            lines.append(
                f"{kind:18s} {self.tp[kind]:4d} {self.fp[kind]:4d} {self.fn[kind]:4d} "
                f"{self.precision(kind):9.2f} {self.recall(kind):7.2f}"
            )
        return "\n".join(lines)


def score(corpus: list[dict[str, Any]]) -> Scores:
    """Compare ``classify`` with the labels, call by call."""
    scores = Scores()
    for raw in corpus:
        entry, labels, trained, result = split(raw)
        got = {f.kind for f in classify(entry, trained_template=trained, result=result)}
        for kind in got & labels:
            scores.tp[kind] += 1
        for kind in sorted(got - labels):
            scores.fp[kind] += 1
            scores.disagreements.append(f"false {kind}: {entry.id}")
        for kind in sorted(labels - got):
            scores.fn[kind] += 1
            scores.disagreements.append(f"missed {kind}: {entry.id}")
    return scores


def main() -> None:
    corpus = load_corpus()
    scores = score(corpus)
    print(f"{len(corpus)} labelled calls, {sum(1 for c in corpus if not c['labels'])} of them clean")
    print(scores.table())
    for line in scores.disagreements:
        print(line)


if __name__ == "__main__":
    main()
