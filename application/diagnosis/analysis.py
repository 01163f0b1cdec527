"""What the Diagnosis screen and ``blah-tui report`` make of the inputs (pure; no Textual).

``analyse`` (CPU-bound: run it off the UI thread) classifies every call once, builds the
``diagnosis.Report`` and keeps the indexes a screen needs to go from any number to the calls
behind it; ``cluster_views`` checks the platform's failure clusters against those calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from api_client.blahdev.shapes import FailureClusters
from application.diagnosis.data import DiagnosisInputs
from common.records import Call

if TYPE_CHECKING:
    from diagnosis.finding import Finding
    from diagnosis.report import Report
    from diagnosis.summary import Summary

__all__ = ["CLASSIFY_CAP", "ClusterView", "DiagnosisView", "analyse", "cluster_views"]

#: Calls whose prompt or reply is longer than this are classified on a cut copy (see
#: ``application.logs.badges.capped``): classifying costs time in proportion to the text.
CLASSIFY_CAP = 32_000


@dataclass(frozen=True)
class ClusterView:
    """One of the platform's failure clusters, checked against the calls we read."""

    label: str | None
    size: int | None
    what_goes_wrong: str | None
    suggestion: str | None
    log_ids: tuple[str, ...]
    we_examined: int  # of log_ids, how many are among the calls we read
    we_flag: int  # of those, how many we find a failure in (host failures included)


@dataclass(frozen=True)
class DiagnosisView:
    """The report plus what a screen needs to show the calls behind every number."""

    inputs: DiagnosisInputs
    report: Report
    template: str | None
    template_source: str  # "config" | "platform" | "lens" | "unknown"
    entries_by_id: Mapping[str, Call]
    kind_ids: Mapping[str, tuple[str, ...]]  # kind -> model calls with it, oldest first
    group_ids: Mapping[tuple[str, str], tuple[str, ...]]  # (dimension, value) -> calls, oldest first
    host_ids: tuple[str, ...]  # calls inside outage windows, oldest first
    host_failed_ids: tuple[str, ...]
    failing_ids: tuple[str, ...]  # model calls that fail in some way, oldest first
    findings: Mapping[str, list[Finding]] = field(default_factory=dict)  # log id -> what we found

    @property
    def summary(self) -> Summary:
        return self.report.summary

    def badges(self, log_id: str) -> tuple[str, ...]:
        """What we found in one call, for a list row; a host failure carries ``host_down`` too."""
        names = self.summary.kinds_by_log_id.get(log_id)
        if names is not None:
            return names
        if log_id in self.summary.host_log_ids:
            found = tuple(dict.fromkeys(f.kind for f in self.findings.get(log_id, ())))
            return (*found, "host_down") if found else ()
        return ()

    @cached_property
    def flagged(self) -> frozenset[str]:
        """Calls we find a failure in, the model's and the host's alike."""
        return frozenset(self.failing_ids) | frozenset(self.host_failed_ids)


def analyse(inputs: DiagnosisInputs) -> DiagnosisView:
    """Classify, summarise and compare (CPU-bound; call it from a thread)."""
    from application.logs.badges import capped
    from diagnosis import (
        build_report,
        classify,
        detect_template,
        kinds,
        resolve_trained_template,
    )
    from diagnosis.features import features_of

    template, source = resolve_trained_template(inputs.config_template, inputs.model.value, inputs.lens.value)
    entries = inputs.entries
    results_by_log = {r.log_id: r for r in inputs.results.value or () if r.log_id is not None}
    # Classified once here and handed to the report. Pathologically long calls are classified
    # on a cut copy; the entries stay whole so that suggestions quote the prompts verbatim.
    findings = {
        e.id: classify(capped(e, CLASSIFY_CAP), trained_template=template, result=results_by_log.get(e.id))
        for e in entries
    }
    report = build_report(
        model=inputs.model.value or inputs.model_id,
        entries=entries,
        diagnose=inputs.diagnose.value,
        results=inputs.results.value,
        health=inputs.health.value,
        trained_template=template,
        template_source=source,
        findings_by_log_id=findings,
    )
    summary = report.summary
    kind_ids: dict[str, list[str]] = {}
    group_ids: dict[tuple[str, str], list[str]] = {}
    host_ids: list[str] = []
    host_failed: list[str] = []
    failing: list[str] = []
    for entry in sorted(entries, key=lambda e: (e.created_at, e.id)):
        fails = any(f.kind not in kinds.CAUSE_ONLY_KINDS for f in findings[entry.id])
        if entry.id in summary.host_log_ids:
            host_ids.append(entry.id)
            if fails:
                host_failed.append(entry.id)
            continue
        for name in summary.kinds_by_log_id.get(entry.id, ()):
            kind_ids.setdefault(name, []).append(entry.id)
        if fails:
            failing.append(entry.id)
        detected = detect_template(entry.prompt, entry.messages)
        for key in features_of(entry, detected).items():
            group_ids.setdefault(key, []).append(entry.id)
    return DiagnosisView(
        inputs=inputs,
        report=report,
        template=template,
        template_source=source,
        entries_by_id=report.entries_by_id,
        kind_ids={k: tuple(v) for k, v in kind_ids.items()},
        group_ids={k: tuple(v) for k, v in group_ids.items()},
        host_ids=tuple(host_ids),
        host_failed_ids=tuple(host_failed),
        failing_ids=tuple(failing),
        findings=findings,
    )


def cluster_views(clusters: FailureClusters, view: DiagnosisView | None) -> list[ClusterView]:
    """Each cluster with how many of its calls we read and how many of those we flag."""
    out: list[ClusterView] = []
    summary = view.summary if view is not None else None
    for cluster in clusters.clusters:
        ids = tuple(cluster.log_ids)
        if summary is None or view is None:
            examined: Sequence[str] = ()
            flagged: Sequence[str] = ()
        else:
            examined = [i for i in ids if i in summary.examined_ids]
            flagged = [i for i in examined if i in view.flagged]
        out.append(
            ClusterView(
                cluster.label,
                cluster.size,
                cluster.what_goes_wrong,
                cluster.suggestion,
                ids,
                len(examined),
                len(flagged),
            )
        )
    return out
