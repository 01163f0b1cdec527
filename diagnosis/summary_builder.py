"""``SummaryBuilder``: the counts of ``summarize``, added call by call, merged chunk by chunk.

``summarize`` is one builder fed every call. Archive-scale diagnosis (application.diagnosis.whole)
feeds one builder per range of calls, possibly in other processes, and merges them in call
order: ``a.merge(b)`` when every call of ``b`` comes after every call of ``a``. The merged
builder gives the same ``Summary`` as one builder fed all the calls (examples are the earliest
calls, kinds counted in the order they first occurred), because each call carries a sequence
number that increases through the whole stream (``seq_base`` + its place in the chunk).
Memory: counts per combination of dimension values, a few example ids per group and kind, the
failing calls' kinds and every call id (``Summary.examined_ids``): not the calls themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from common.records import Call

from . import kinds
from .classifier import classify_detected
from .features import DIMENSIONS, feature_values
from .finding import Finding
from .grouping import EXAMPLES_PER_GROUP, GroupCounter
from .health import OutageIndex, outage_windows
from .inputs import GradedResult, HealthRecord
from .templates import detect_template, normalize_template

EXAMPLES_PER_KIND = 5

__all__ = ["EXAMPLES_PER_KIND", "SummaryBuilder", "fails"]


def fails(names: tuple[str, ...], format_ok_only: bool = False) -> bool:
    """A call with these kinds failed (a template mismatch alone describes the prompt, not a failure)."""
    if format_ok_only and kinds.TEMPLATE_MISMATCH in names:
        return False
    return any(k not in kinds.CAUSE_ONLY_KINDS for k in names)


class SummaryBuilder:
    """Add calls (``add``), merge later chunks (``merge``), then ``finish()`` into a ``Summary``."""

    def __init__(
        self,
        *,
        trained_template: str | None = None,
        results_by_log_id: Mapping[str, GradedResult] | None = None,
        health: HealthRecord | None = None,
        findings_by_log_id: Mapping[str, list[Finding]] | None = None,
        seq_base: int = 0,
        keep_ids: bool = True,
    ) -> None:
        """``keep_ids=False``: ``Summary.examined_ids`` stays empty (a million ids is ~100 MB;
        only the comparison with the platform's clusters and ``/diagnose`` reads it)."""
        self.keep_ids = keep_ids
        self.trained = normalize_template(trained_template)
        self.results: Mapping[str, GradedResult] = results_by_log_id or {}
        self.given: Mapping[str, list[Finding]] = findings_by_log_id or {}
        self.health_known = health is not None
        self.index = OutageIndex(outage_windows(health))
        self.seq_base = seq_base
        self.examined = self.model_calls = self.judged = self.failing = 0
        self.name_counts: dict[tuple[str, ...], int] = {}  # kinds of a call -> calls
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.finish_reasons: Counter[str] = Counter()
        self.templates: Counter[str] = Counter()
        self.groups = GroupCounter(DIMENSIONS)
        self.kinds_by_id: dict[str, tuple[str, ...]] = {}
        self.examples: dict[str, list[tuple[str, Finding]]] = {}
        self.host_calls = self.host_failures = 0
        self.host_kinds: Counter[str] = Counter()
        self.host_ids: list[str] = []
        self.all_ids: set[str] = set()
        self.in_outage: set[str] = set()
        self.first: int | None = None
        self.last: int | None = None

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["results"] = {}  # the caller's inputs: not sent back from a worker process
        state["given"] = {}
        return state

    def add(
        self, entry: Call, detected: str | None = None, found: list[Finding] | None = None
    ) -> tuple[tuple[str, ...], bool, tuple[str, ...] | None]:
        """One call (its detected template and findings when already known). Returns the call's
        kinds, whether it failed and its grouping features (None: inside an outage window, the
        host's call, not grouped)."""
        self.examined += 1
        if self.keep_ids:
            self.all_ids.add(entry.id)
        ts = entry.created_at  # None: not given (the call counts, but not in the time span or an outage)
        if ts is not None:
            if self.first is None or ts < self.first:
                self.first = ts
            if self.last is None or ts > self.last:
                self.last = ts
        result = self.results.get(entry.id) if self.results else None
        if detected is None:
            detected = detect_template(entry.prompt, entry.messages)
        if found is None:
            found = self.given.get(entry.id)
        if found is None:
            found = classify_detected(entry, detected, self.trained, result)
        if found:
            names = (found[0].kind,) if len(found) == 1 else tuple(dict.fromkeys(f.kind for f in found))
            names = self._names.setdefault(names, names)  # one tuple per combination (kinds_by_id holds many)
            failed = fails(names)
            format_ok = failed and kinds.TEMPLATE_MISMATCH not in names
        else:  # most calls: nothing found
            names, failed, format_ok = (), False, False

        if self.index and ts is not None and self.index.window_for(ts) is not None:
            self.host_calls += 1
            self.in_outage.add(entry.id)
            if failed:
                self.host_failures += 1
                self.host_kinds.update(names)
                if len(self.host_ids) < EXAMPLES_PER_GROUP:
                    self.host_ids.append(entry.id)
            return names, failed, None

        self.model_calls += 1
        if result is not None and result.score is not None:
            self.judged += 1
        self.finish_reasons[entry.finish_reason if entry.finish_reason is not None else "missing"] += 1
        self.templates[detected or "unknown"] += 1
        if names:
            self.kinds_by_id[entry.id] = names
            self.name_counts[names] = self.name_counts.get(names, 0) + 1
            for f in found:
                bucket = self.examples.setdefault(f.kind, [])
                if len(bucket) < EXAMPLES_PER_KIND and (not bucket or bucket[-1][0] != entry.id):
                    bucket.append((entry.id, f))
        if failed:
            self.failing += 1
        values = feature_values(entry, detected)
        self.groups.add(values, self.seq_base + self.examined, entry.id, names, failed, format_ok)
        return names, failed, values

    def merge(self, later: SummaryBuilder) -> None:
        """Take in the counts of ``later``, whose calls all come after this builder's calls."""
        self.examined += later.examined
        self.model_calls += later.model_calls
        self.judged += later.judged
        self.failing += later.failing
        for names, n in later.name_counts.items():
            self.name_counts[names] = self.name_counts.get(names, 0) + n
        self.finish_reasons.update(later.finish_reasons)
        self.templates.update(later.templates)
        self.groups.merge(later.groups)
        self.kinds_by_id.update(later.kinds_by_id)
        for kind, found in later.examples.items():
            bucket = self.examples.setdefault(kind, [])
            bucket.extend(found[: max(0, EXAMPLES_PER_KIND - len(bucket))])
        self.host_calls += later.host_calls
        self.host_failures += later.host_failures
        self.host_kinds.update(later.host_kinds)
        self.host_ids.extend(later.host_ids[: max(0, EXAMPLES_PER_GROUP - len(self.host_ids))])
        self.all_ids |= later.all_ids
        self.in_outage |= later.in_outage
        if later.first is not None and (self.first is None or later.first < self.first):
            self.first = later.first
        if later.last is not None and (self.last is None or later.last > self.last):
            self.last = later.last
