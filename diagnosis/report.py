"""The blunt report: which prompts fail and why, in numbers taken from the data only.

``build_report`` gathers everything (each input may be None: the endpoint returned nothing,
and the report says so instead of inventing a value); ``render_json`` writes it for tools and
:mod:`diagnosis.report_markdown` for a person (every piece of untrusted text inert).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from common.records import Call

from .finding import Finding
from .inputs import Clusters, GradedResult, HealthRecord, ModelRecord, PlatformDiagnosis
from .judge import Doubt, doubtful_judgements
from .platform import KindAgreement, compare_with_platform
from .quoted import QuotableCalls
from .suggest import Suggestion, suggest_training_data
from .summary import Summary, summarize
from .templates import normalize_template

#: What the report says when an input is missing (the endpoint returned nothing or failed).
MISSING = {
    "diagnose": "The platform's /diagnose returned nothing, so there is nothing to compare our reading with.",
    "clusters": "The platform's /failure-clusters returned nothing (not allowed, or it failed).",
    "results": "The platform's /results returned nothing, so no judge verdict could be checked.",
    "health": "The platform's /health returned nothing, so host outages cannot be told apart from model failures.",
    "entries": "No calls were given: there is nothing to diagnose.",
}
#: What the report says when the calls came from a local source (the archive, a file) and the
#: platform was not asked at all: none of its inputs "returned nothing".
PLATFORM_NOT_ASKED = (
    "Read from a local source: the platform was not asked, so there is no /diagnose to compare "
    "with, no judge verdict to check, and no /health to tell host outages from model failures."
)
#: What the report says when the failure clusters were deliberately not asked for.
CLUSTERS_NOT_REQUESTED = "The platform's /failure-clusters was not requested (it spends a judge call)."


class _NotRequested:
    """Sentinel type: the caller did not ask the platform for this input (not "it failed")."""

    _instance: _NotRequested | None = None

    def __new__(cls) -> _NotRequested:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_REQUESTED"


#: Pass as ``clusters`` (the default) when /failure-clusters was not asked for; pass ``None``
#: when it was asked and returned nothing.
NOT_REQUESTED = _NotRequested()


@dataclass(frozen=True)
class ClusterCheck:
    """One of the platform's failure clusters, with how many of its calls we flag too."""

    label: str | None
    size: int | None
    what_goes_wrong: str | None
    suggestion: str | None
    log_ids: tuple[str, ...]
    we_flag: int  # of log_ids we examined, how many we found a failure in
    we_examined: int  # of log_ids, how many were among the calls we examined


@dataclass(frozen=True)
class Report:
    model_id: str | None
    model_name: str | None
    trained_template: str | None
    template_source: str
    summary: Summary
    platform: PlatformDiagnosis | None
    agreements: tuple[KindAgreement, ...] | None
    clusters: Clusters | None
    clusters_requested: bool  # False: not asked for (it spends a judge call), so None is not a failure
    cluster_checks: tuple[ClusterCheck, ...] | None
    results_count: int | None  # None: results not available
    doubts: tuple[Doubt, ...] | None
    health_checks: int | None  # None: health not available
    suggestions: tuple[Suggestion, ...]
    entries_by_id: Mapping[str, Call]
    missing: tuple[str, ...]  # sentences saying which inputs returned nothing
    # (the user's words, failing calls, calls) of the prompts that failed most often, when
    # counted while streaming; None: counted from ``entries_by_id`` (which then holds every call).
    failing_prompts: tuple[tuple[str, int, int], ...] | None = None
    platform_asked: bool = True  # False: a local source; the platform's inputs were not asked for


def build_report(
    *,
    model: ModelRecord | str | None,
    entries: Sequence[Call],
    diagnose: PlatformDiagnosis | None = None,
    results: Sequence[GradedResult] | None = None,
    health: HealthRecord | None = None,
    trained_template: str | None = None,
    template_source: str = "unknown",
    clusters: Clusters | _NotRequested | None = NOT_REQUESTED,
    expected_by_eval_id: Mapping[str, str] | None = None,
    findings_by_log_id: Mapping[str, list[Finding]] | None = None,
    summary: Summary | None = None,
    failing_prompts: Sequence[tuple[str, int, int]] | None = None,
    features_by_id: Mapping[str, tuple[str, ...]] | None = None,
    quotable: QuotableCalls | None = None,
    platform_asked: bool = True,
) -> Report:
    """Everything the report needs, computed once from the inputs given.

    Each input left as ``None`` is reported as "returned nothing"; ``clusters`` left at
    ``NOT_REQUESTED`` is reported as not asked for instead. ``summary`` (with
    ``failing_prompts``): the calls were summarised while streaming them (see
    ``diagnosis.summary_builder``) and ``entries`` holds only the calls the report quotes;
    ``features_by_id`` their grouping features, computed then. ``quotable`` (with ``summary``):
    instead of ``entries``, the failing calls by id, each read again only when quoted (see
    ``diagnosis.quoted``). ``platform_asked`` False: the calls came from a local source and the
    platform was not asked, which the report says once instead of "returned nothing" per input.
    """
    requested = not isinstance(clusters, _NotRequested)
    got_clusters = None if isinstance(clusters, _NotRequested) else clusters
    trained = normalize_template(trained_template)
    entries_by_id: Mapping[str, Call] = quotable if quotable is not None else {e.id: e for e in entries}
    results_by_log: dict[str, GradedResult] = {}
    for result in results or ():
        if result.log_id is not None:
            results_by_log[result.log_id] = result
    if summary is None:
        summary = summarize(
            entries,
            trained_template=trained,
            results_by_log_id=results_by_log,
            health=health,
            findings_by_log_id=findings_by_log_id,
        )
    missing = [
        MISSING[name]
        for name, value in (
            ("entries", summary.calls_examined or None),
            ("diagnose", diagnose),
            ("clusters", got_clusters if requested else True),
            ("results", results),
            ("health", health),
        )
        if value is None
    ]
    if not platform_asked:
        missing = [MISSING["entries"]] if not summary.calls_examined else []
        missing.append(PLATFORM_NOT_ASKED)
    elif not requested:
        missing.append(CLUSTERS_NOT_REQUESTED)
    model_id: str | None = model if model is None or isinstance(model, str) else model.id
    model_name: str | None = None if model is None or isinstance(model, str) else model.name
    return Report(
        model_id=model_id,
        model_name=model_name,
        trained_template=trained,
        template_source=template_source if trained is not None else "unknown",
        summary=summary,
        platform=diagnose,
        agreements=tuple(compare_with_platform(summary, diagnose, entries=entries)) if diagnose is not None else None,
        clusters=got_clusters,
        clusters_requested=requested,
        cluster_checks=_check_clusters(got_clusters, summary) if got_clusters is not None else None,
        results_count=len(results) if results is not None else None,
        doubts=tuple(doubtful_judgements(results, entries_by_id, expected_by_eval_id=expected_by_eval_id))
        if results is not None
        else None,
        health_checks=len(health.checks) if health is not None else None,
        suggestions=tuple(
            suggest_training_data(
                summary,
                entries_by_id,
                trained_template=trained,
                features_by_id=features_by_id,
                call_index=quotable.index if quotable is not None else None,
            )
        ),
        entries_by_id=entries_by_id,
        missing=tuple(missing),
        failing_prompts=tuple(failing_prompts) if failing_prompts is not None else None,
        platform_asked=platform_asked,
    )


def _check_clusters(clusters: Clusters, summary: Summary) -> tuple[ClusterCheck, ...]:
    out: list[ClusterCheck] = []
    for cluster in clusters.clusters:
        ids = tuple(cluster.log_ids)
        examined = [i for i in ids if i in summary.examined_ids]
        flagged = [i for i in examined if i in summary.kinds_by_log_id or i in summary.host_log_ids]
        out.append(
            ClusterCheck(
                cluster.label,
                cluster.size,
                cluster.what_goes_wrong,
                cluster.suggestion,
                ids,
                len(flagged),
                len(examined),
            )
        )
    return tuple(out)


# --------------------------------------------------------------------------- JSON


def render_json(report: Report) -> str:
    """The report as JSON (ASCII-escaped, so no raw control or bidi character survives)."""
    s = report.summary
    doc = {
        "model_id": report.model_id,
        "model_name": report.model_name,
        "trained_template": report.trained_template,
        "template_source": report.template_source,
        "missing": list(report.missing),
        "platform_asked": report.platform_asked,
        "calls_examined": s.calls_examined,
        "model_calls": s.model_calls,
        "judged_calls": s.judged_calls,
        "failing_calls": s.failing_calls,
        "failure_rate": s.failure_rate,
        "window_from": s.window_from,
        "window_to": s.window_to,
        "rates": {k: {**_plain(r), "rate": r.rate} for k, r in s.rates.items()},
        "finish_reasons": dict(s.finish_reasons),
        "templates": dict(s.templates),
        "failing_groups": [{**_plain(g), "failure_rate": g.failure_rate} for g in s.failing_groups()],
        "groups": [{**_plain(g), "failure_rate": g.failure_rate} for g in s.groups],
        "examples": {k: [{"log_id": i, "finding": _plain(f)} for i, f in v] for k, v in s.examples.items()},
        "host": _plain(s.host) if s.health_known else None,
        "platform": _plain(report.platform),
        "clusters_requested": report.clusters_requested,
        "agreements": [
            {
                **_plain(a),
                "note": a.note,
                "our_rate": a.our_rate,
                "platform_rate": a.platform_rate,
                "window_rate": a.window_rate,
                "verdict_text": a.verdict_text,
            }
            for a in report.agreements
        ]
        if report.agreements is not None
        else None,
        "clusters": _plain(report.cluster_checks),
        "results_count": report.results_count,
        "doubts": _plain(report.doubts),
        "health_checks": report.health_checks,
        "suggestions": _plain(report.suggestions),
    }
    return json.dumps(doc, ensure_ascii=True, indent=2)


def _plain(value: Any) -> Any:
    """Dataclasses, pydantic models, counters and tuples as JSON-ready values."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, Counter):
        return dict(value.most_common())
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return str(value)


__all__ = [
    "CLUSTERS_NOT_REQUESTED",
    "MISSING",
    "NOT_REQUESTED",
    "PLATFORM_NOT_ASKED",
    "ClusterCheck",
    "Report",
    "build_report",
    "render_json",
]
