"""``summarize``: rates per kind and failure groups over many calls, with the host's outages apart.

Populations (what a rate is "out of") are explicit: every kind is over the calls examined
outside outage windows, except ``wrong_answer`` (over the judged calls) and
``template_mismatch`` (no population, rate None, when the trained template is unknown).
Calls inside an outage window are not the model's: their failures are counted as host
failures and they are left out of every model rate and group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from api_client.blahdev.shapes import Health, LogEntry, Result

from . import kinds
from .classifier import classify_detected
from .features import DIMENSIONS, feature_values
from .finding import Finding
from .grouping import EXAMPLES_PER_GROUP, FailureGroup, GroupCounter
from .health import OutageIndex, OutageWindow, outage_windows
from .templates import detect_template, normalize_template

EXAMPLES_PER_KIND = 5

__all__ = ["EXAMPLES_PER_GROUP", "FailureGroup", "HostImpact", "KindRate", "Summary", "summarize"]


@dataclass(frozen=True, slots=True)
class KindRate:
    kind: str
    count: int
    population: int
    population_label: str

    @property
    def rate(self) -> float | None:
        return self.count / self.population if self.population else None


@dataclass(frozen=True, slots=True)
class HostImpact:
    """What happened to calls made while the health checks said the endpoint was down."""

    windows: tuple[OutageWindow, ...]
    calls: int
    failures: int
    kinds: Counter[str]
    example_log_ids: tuple[str, ...]


@dataclass(frozen=True)
class Summary:
    calls_examined: int  # every entry given
    model_calls: int  # outside outage windows: the population of the model's rates
    judged_calls: int
    failing_calls: int
    trained_template: str | None
    rates: dict[str, KindRate]
    groups: tuple[FailureGroup, ...]
    host: HostImpact
    health_known: bool
    finish_reasons: Counter[str]  # "stop", "length", "error", "missing", or as sent
    templates: Counter[str]  # detected template of each model call ("unknown" when no prompt)
    window_from: int | None
    window_to: int | None
    kinds_by_log_id: dict[str, tuple[str, ...]] = field(repr=False)  # model calls with findings
    examples: dict[str, tuple[tuple[str, Finding], ...]] = field(repr=False)  # kind -> (log_id, finding)
    examined_ids: frozenset[str] = field(default=frozenset(), repr=False)  # every entry given
    host_log_ids: frozenset[str] = field(default=frozenset(), repr=False)  # calls inside outage windows

    @property
    def failure_rate(self) -> float | None:
        return self.failing_calls / self.model_calls if self.model_calls else None

    def rate(self, kind: str) -> KindRate | None:
        return self.rates.get(kind)

    def groups_for(self, dimension: str) -> list[FailureGroup]:
        return [g for g in self.groups if g.dimension == dimension]

    def failing_groups(
        self, *, min_failures: int = 2, limit: int | None = None, format_ok_only: bool = False
    ) -> list[FailureGroup]:
        """Groups that fail more often than the model overall, most excess failures first.

        "Excess" is failures beyond what the overall failure rate predicts for the group's size,
        so a big group failing at the average rate does not crowd out a small one failing always.
        ``format_ok_only`` counts only failures of calls sent in the right template.
        """

        def fails(g: FailureGroup) -> int:
            return g.format_ok_failures if format_ok_only else g.failures

        total = sum(1 for names in self.kinds_by_log_id.values() if _fails(names, format_ok_only))
        population = self.model_calls
        if format_ok_only:  # over the calls sent in the right template (or with no verdict)
            population -= self.rates[kinds.TEMPLATE_MISMATCH].count if self.rates else 0
        overall = total / population if population > 0 else 0.0
        out = [g for g in self.groups if fails(g) >= min_failures and g.calls and fails(g) / g.calls > overall]
        out.sort(key=lambda g: (-(fails(g) - g.calls * overall), -fails(g), g.dimension, g.value))
        return out[:limit] if limit is not None else out


def _fails(names: tuple[str, ...], format_ok_only: bool = False) -> bool:
    if format_ok_only and kinds.TEMPLATE_MISMATCH in names:
        return False
    return any(k not in kinds.CAUSE_ONLY_KINDS for k in names)


def summarize(
    entries: Iterable[LogEntry],
    *,
    trained_template: str | None = None,
    results_by_log_id: Mapping[str, Result] | None = None,
    health: Health | None = None,
    findings_by_log_id: Mapping[str, list[Finding]] | None = None,
) -> Summary:
    """Rates, groups and host impact over ``entries``.

    ``findings_by_log_id`` reuses findings already computed (e.g. by ``classify_many``);
    missing ids are classified here.
    """
    trained = normalize_template(trained_template)
    results = results_by_log_id or {}
    given = findings_by_log_id or {}
    index = OutageIndex(outage_windows(health))
    outages = bool(index)

    examined = model_calls = judged = failing = 0
    name_counts: dict[tuple[str, ...], int] = {}  # kinds of a call -> calls (expanded per kind at the end)
    finish: Counter[str] = Counter()
    templates: Counter[str] = Counter()
    groups = GroupCounter(DIMENSIONS)
    kinds_by_id: dict[str, tuple[str, ...]] = {}
    examples: dict[str, list[tuple[str, Finding]]] = {}
    host_calls = host_failures = 0
    host_kinds: Counter[str] = Counter()
    host_ids: list[str] = []
    all_ids: set[str] = set()
    in_outage: set[str] = set()
    first: int | None = None
    last: int | None = None

    for entry in entries:
        examined += 1
        all_ids.add(entry.id)
        ts = entry.created_at
        first = ts if first is None or ts < first else first
        last = ts if last is None or ts > last else last
        result = results.get(entry.id)
        detected = detect_template(entry.prompt, entry.messages)
        found = given.get(entry.id)
        if found is None:
            found = classify_detected(entry, detected, trained, result)
        if found:
            names = tuple(dict.fromkeys(f.kind for f in found))
            failed = _fails(names)
            format_ok = failed and kinds.TEMPLATE_MISMATCH not in names
        else:  # most calls: nothing found
            names, failed, format_ok = (), False, False

        if outages and index.window_for(ts) is not None:
            host_calls += 1
            in_outage.add(entry.id)
            if failed:
                host_failures += 1
                host_kinds.update(names)
                if len(host_ids) < EXAMPLES_PER_GROUP:
                    host_ids.append(entry.id)
            continue

        model_calls += 1
        if result is not None and result.score is not None:
            judged += 1
        finish[entry.finish_reason if entry.finish_reason is not None else "missing"] += 1
        templates[detected or "unknown"] += 1
        if names:
            kinds_by_id[entry.id] = names
            name_counts[names] = name_counts.get(names, 0) + 1
            for f in found:
                bucket = examples.setdefault(f.kind, [])
                if len(bucket) < EXAMPLES_PER_KIND and (not bucket or bucket[-1][0] != entry.id):
                    bucket.append((entry.id, f))
        if failed:
            failing += 1
        groups.add(feature_values(entry, detected), examined, entry.id, names, failed, format_ok)

    counts: Counter[str] = Counter()
    for names, n in name_counts.items():
        for name in names:
            counts[name] += n
    rates = _rates(counts, model_calls, judged, trained)
    order = {dim: i for i, dim in enumerate(DIMENSIONS)}
    group_list = tuple(
        group
        for _, group in sorted(
            groups.groups().items(), key=lambda kv: (order[kv[0][0]], -kv[1].failures, kv[0][1])
        )
    )
    host = HostImpact(tuple(index.windows), host_calls, host_failures, host_kinds, tuple(host_ids))
    return Summary(
        calls_examined=examined,
        model_calls=model_calls,
        judged_calls=judged,
        failing_calls=failing,
        trained_template=trained,
        rates=rates,
        groups=group_list,
        host=host,
        health_known=health is not None,
        finish_reasons=finish,
        templates=templates,
        window_from=first,
        window_to=last,
        kinds_by_log_id=kinds_by_id,
        examples={k: tuple(v) for k, v in examples.items()},
        examined_ids=frozenset(all_ids),
        host_log_ids=frozenset(in_outage),
    )


def _rates(counts: Counter[str], model_calls: int, judged: int, trained: str | None) -> dict[str, KindRate]:
    rates: dict[str, KindRate] = {}
    for kind in kinds.CLASSIFY_KINDS:
        if kind == kinds.WRONG_ANSWER:
            rates[kind] = KindRate(kind, counts[kind], judged, "judged calls")
        elif kind == kinds.TEMPLATE_MISMATCH and trained is None:
            rates[kind] = KindRate(kind, 0, 0, "no verdict: trained template unknown")
        else:
            rates[kind] = KindRate(kind, counts[kind], model_calls, "calls examined")
    return rates
