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

from common.records import Call

from . import kinds
from .features import DIMENSIONS
from .finding import Finding
from .grouping import EXAMPLES_PER_GROUP, FailureGroup
from .health import OutageWindow
from .inputs import GradedResult, HealthRecord
from .summary_builder import EXAMPLES_PER_KIND, SummaryBuilder, fails

__all__ = [
    "EXAMPLES_PER_GROUP",
    "EXAMPLES_PER_KIND",
    "FailureGroup",
    "HostImpact",
    "KindRate",
    "Summary",
    "SummaryBuilder",
    "finish_summary",
    "summarize",
]


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

        # Each combination of kinds decided once (a few dozen), not each failing call (150,000 at 1M calls).
        total = sum(n for names, n in Counter(self.kinds_by_log_id.values()).items() if _fails(names, format_ok_only))
        population = self.model_calls
        if format_ok_only:  # over the calls sent in the right template (or with no verdict)
            population -= self.rates[kinds.TEMPLATE_MISMATCH].count if self.rates else 0
        overall = total / population if population > 0 else 0.0
        out = [g for g in self.groups if fails(g) >= min_failures and g.calls and fails(g) / g.calls > overall]
        out.sort(key=lambda g: (-(fails(g) - g.calls * overall), -fails(g), g.dimension, g.value))
        return out[:limit] if limit is not None else out


_fails = fails


def summarize(
    entries: Iterable[Call],
    *,
    trained_template: str | None = None,
    results_by_log_id: Mapping[str, GradedResult] | None = None,
    health: HealthRecord | None = None,
    findings_by_log_id: Mapping[str, list[Finding]] | None = None,
) -> Summary:
    """Rates, groups and host impact over ``entries``.

    ``findings_by_log_id`` reuses findings already computed (e.g. by ``classify_many``);
    missing ids are classified here.
    """
    builder = SummaryBuilder(
        trained_template=trained_template,
        results_by_log_id=results_by_log_id,
        health=health,
        findings_by_log_id=findings_by_log_id,
    )
    for entry in entries:
        builder.add(entry)
    return finish_summary(builder)


def finish_summary(b: SummaryBuilder) -> Summary:
    """The ``Summary`` of every call added to ``b`` (or merged into it)."""
    trained, model_calls, judged = b.trained, b.model_calls, b.judged
    name_counts, groups, index = b.name_counts, b.groups, b.index
    counts: Counter[str] = Counter()
    for names, n in name_counts.items():
        for name in names:
            counts[name] += n
    rates = _rates(counts, model_calls, judged, trained)
    order = {dim: i for i, dim in enumerate(DIMENSIONS)}
    group_list = tuple(
        group
        for _, group in sorted(groups.groups().items(), key=lambda kv: (order[kv[0][0]], -kv[1].failures, kv[0][1]))
    )
    host = HostImpact(tuple(index.windows), b.host_calls, b.host_failures, b.host_kinds, tuple(b.host_ids))
    return Summary(
        calls_examined=b.examined,
        model_calls=model_calls,
        judged_calls=judged,
        failing_calls=b.failing,
        trained_template=trained,
        rates=rates,
        groups=group_list,
        host=host,
        health_known=b.health_known,
        finish_reasons=b.finish_reasons,
        templates=b.templates,
        window_from=b.first,
        window_to=b.last,
        kinds_by_log_id=b.kinds_by_id,
        examples={k: tuple(v) for k, v in b.examples.items()},
        examined_ids=frozenset(b.all_ids),
        host_log_ids=frozenset(b.in_outage),
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
