"""The rows of the Diagnosis screen's tables, and which calls stand behind each number.

Pure (Rich ``Text`` only, no Textual) so the wording and the drill-down targets are testable
without an app. Every number comes from ``DiagnosisView``; a missing one is "—" or "no data".
Platform text (the platform's ``usual_cause``, cluster labels, group values such as eval ids)
only ever reaches a cell through ``one_line_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich.text import Text

from common.format import DASH
from diagnosis import kinds as K
from diagnosis.platform import KindAgreement
from diagnosis.summary import FailureGroup, KindRate
from application.diagnosis.analysis import ClusterView, DiagnosisView
from application.diagnosis.data import OFFLINE_NOTE
from tui.screens.runs.format import cell
from widgets.bars import bar_text, format_rate
from widgets.safe_text import one_line, one_line_text

__all__ = [
    "CLUSTER_COLUMNS",
    "DASH",
    "HOST_ROW",
    "KIND_COLUMNS",
    "CallSet",
    "KindRow",
    "SortKey",
    "cluster_calls",
    "doubt_log_id",
    "doubt_rows",
    "group_calls",
    "kind_cells",
    "kind_rows",
    "sort_groups",
    "telling_groups",
]

HOST_ROW = "host_down"
BAR_WIDTH = 8

#: Column keys of the rates table, in order, with their titles.
KIND_COLUMNS: tuple[tuple[str, str], ...] = (
    ("kind", "Kind"),
    ("ours", "Ours"),
    ("platform", "Platform /diagnose"),
    ("verdict", "Agreement"),
    ("agreed", "Agreed"),
    ("disputed", "Disputed"),
    ("unseen", "Not read"),
)

SortKey = Literal["failures", "rate"]


@dataclass(frozen=True)
class CallSet:
    """The calls behind one number: a title saying what they are, and their ids (oldest first)."""

    title: str
    ids: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class KindRow:
    """One row of the rates table: our count for a kind beside the platform's."""

    kind: str
    label: str
    ours: KindRate | None  # None only for the host row
    agreement: KindAgreement | None  # None: /diagnose gave nothing
    host_calls: int = 0
    host_failures: int = 0

    @property
    def is_host(self) -> bool:
        return self.kind == HOST_ROW


def kind_rows(view: DiagnosisView) -> list[KindRow]:
    """Every kind we check (in the canonical order), the platform's other kinds, then the
    host's failures as a row of their own: never mixed into the model's rates."""
    summary = view.summary
    agreements = {a.kind: a for a in view.report.agreements or ()}
    order = list(dict.fromkeys([*K.CLASSIFY_KINDS, *summary.rates, *agreements]))
    rows = [
        KindRow(kind, K.describe(kind).label, summary.rates.get(kind), agreements.get(kind))
        for kind in order
    ]
    rows.append(
        KindRow(HOST_ROW, "host down (not the model's)", None, None, summary.host.calls, summary.host.failures)
    )
    return rows


def _rate_cell(count: int | None, population: int | None, label: str = "", *, unit: str = "") -> Text:
    if count is None or not population:
        why = label or "no data"
        return Text(why, style="dim italic", end="")
    rate = count / population
    cell = bar_text(rate, BAR_WIDTH, "bold", "dim")
    cell.append(f" {count}/{population}{unit} ({format_rate(rate)})")
    return cell


def kind_cells(row: KindRow, view: DiagnosisView, *, diagnose_error: str | None) -> list[Text]:
    """The cells of one rates-table row, in ``KIND_COLUMNS`` order."""
    kind_text = Text(one_line(row.label, max_len=40), style="bold" if not row.is_host else "italic", end="")
    if row.is_host:
        if not view.summary.health_known:
            why = "offline" if view.inputs.health.error == OFFLINE_NOTE else "/health gave nothing"
            ours = Text(f"no data: {why}", style="dim italic", end="")
        elif not view.summary.host.windows:
            ours = Text("no outage in the health checks", style="dim", end="")
        elif not row.host_calls:
            ours = Text("no call fell in an outage", style="dim", end="")
        else:
            ours = _rate_cell(row.host_failures, row.host_calls)
        return [kind_text, ours, Text(DASH, style="dim"), Text("host's fault, not compared", style="dim"),
                Text(""), Text(""), Text("")]
    rate = row.ours
    if rate is None:
        ours = Text("we do not check this kind", style="dim italic", end="")
    elif not rate.population:
        ours = Text(one_line(rate.population_label, max_len=60), style="dim italic", end="")
    else:
        unit = " judged" if rate.population_label == "judged calls" else ""
        ours = _rate_cell(rate.count, rate.population, unit=unit)
    a = row.agreement
    if a is None:
        if diagnose_error is None:
            reason = "no data"
        elif diagnose_error == OFFLINE_NOTE:
            reason = "no data (offline)"
        else:
            reason = "no data (/diagnose failed)"
        return [kind_text, ours, Text(reason, style="dim italic"), Text(DASH, style="dim"),
                Text(""), Text(""), Text("")]
    if a.platform_count is None:
        platform = Text("does not check", style="dim italic", end="")
        verdict = Text("only we check", style="dim", end="")
    else:
        platform = _rate_cell(a.platform_count, a.platform_population, "no data")
        gap = f", we find {a.gap}" if getattr(a, "gap", None) else ""
        verdict = Text(_VERDICTS.get(a.verdict, a.verdict) + gap, end="")
        if a.verdict in ("only_platform", "only_us") or gap:
            verdict.stylize("bold")
    examples = a.platform_count is not None and (a.agreed_log_ids or a.disputed_log_ids or a.unseen_log_ids)
    if not examples:
        return [kind_text, ours, platform, verdict, Text(DASH, style="dim"), Text(DASH, style="dim"),
                Text(DASH, style="dim")]
    return [
        kind_text,
        ours,
        platform,
        verdict,
        Text(str(len(a.agreed_log_ids)), end=""),
        Text(str(len(a.disputed_log_ids)), style="bold" if a.disputed_log_ids else "", end=""),
        Text(str(len(a.unseen_log_ids)), end=""),
    ]


_VERDICTS = {
    "both": "both found it",
    "only_platform": "only the platform",
    "only_us": "only us",
    "neither": "neither found it",
}


def kind_calls(row: KindRow, column: str, view: DiagnosisView) -> CallSet | None:
    """The calls behind the cell at ``column`` of ``row`` (None: no calls behind it)."""
    label = row.label
    if row.is_host:
        failed = len(view.host_failed_ids)
        return CallSet(
            f"calls in host outage windows: {len(view.host_ids)}, {failed} failed",
            view.host_ids,
            "These failures are the host's, not the model's: the health checks said the endpoint was down.",
        )
    a = row.agreement
    if column in ("kind", "ours") or a is None or a.platform_count is None:
        ids = view.kind_ids.get(row.kind, ())
        return CallSet(f"{label}: the {len(ids)} calls we flag", ids)
    examples = (*a.agreed_log_ids, *a.disputed_log_ids, *a.unseen_log_ids)
    sent = f"the platform sent {len(examples)} example{'s' if len(examples) != 1 else ''} of its {a.platform_count}"
    if column in ("platform", "verdict"):
        return CallSet(f"{label}: {sent}", examples, "The platform lists examples only, not every call it counts.")
    if column == "agreed":
        return CallSet(f"{label}: platform examples we flag too", a.agreed_log_ids, sent)
    if column == "disputed":
        instead = "; ".join(
            f"{one_line(i, max_len=30)}: we found {', '.join(a.instead.get(i, ())) or 'nothing'}"
            for i in a.disputed_log_ids
        )
        return CallSet(f"{label}: platform examples we do not flag as {label}", a.disputed_log_ids, instead)
    if column == "unseen":
        return CallSet(
            f"{label}: platform examples outside the calls we read",
            a.unseen_log_ids,
            "Not among the calls read here: they are fetched one by one.",
        )
    return None


# --------------------------------------------------------------------------- groups


def telling_groups(groups: Sequence[FailureGroup], model_calls: int) -> list[FailureGroup]:
    """Groups that tell some calls apart from others: a group holding every call of the model
    (e.g. ``chat_or_completion = chat`` when every prompt is a chat) says nothing about what
    the failing prompts have in common."""
    return [g for g in groups if g.calls < model_calls]


def sort_groups(groups: Sequence[FailureGroup], key: SortKey) -> list[FailureGroup]:
    """Most failures first (ties: higher rate), or highest rate first (ties: more failures)."""
    if key == "rate":
        return sorted(groups, key=lambda g: (-(g.failure_rate or 0.0), -g.failures, g.dimension, g.value))
    return sorted(groups, key=lambda g: (-g.failures, -(g.failure_rate or 0.0), g.dimension, g.value))


def group_key(group: FailureGroup) -> str:
    return f"{group.dimension}\x1f{group.value}"


def group_cells(group: FailureGroup, overall: float | None) -> list[Text]:
    rate = group.failure_rate
    above = rate is not None and overall is not None and rate > overall
    kinds_text = ", ".join(
        f"{K.describe(k).label} {n}" for k, n in group.kinds.most_common(3) if k not in K.CAUSE_ONLY_KINDS
    )
    mismatch = group.kinds.get(K.TEMPLATE_MISMATCH, 0)
    if mismatch:
        kinds_text = (kinds_text + ", " if kinds_text else "") + f"wrong template {mismatch}"
    return [
        Text(group.dimension.replace("_", " "), end=""),
        one_line_text(group.value, max_len=40),
        Text(str(group.calls), end=""),
        Text(str(group.failures), end=""),
        Text(format_rate(rate), style="bold" if above else "", end=""),
        Text(kinds_text or DASH, style="" if kinds_text else "dim", end=""),
    ]


def group_calls(group: FailureGroup, view: DiagnosisView) -> CallSet:
    ids = view.group_ids.get((group.dimension, group.value), ())
    failing = view.flagged
    failed = [i for i in ids if i in failing]
    return CallSet(
        f"{group.dimension.replace('_', ' ')} = {one_line(group.value, max_len=60)}: "
        f"{len(failed)} of {len(ids)} calls fail",
        tuple(ids),
    )


# --------------------------------------------------------------------------- clusters


#: Column keys of the clusters table, in order, with their titles.
CLUSTER_COLUMNS: tuple[tuple[str, str], ...] = (("size", "Size"), ("check", "We flag"), ("label", "Cluster"))


def cluster_cells(cluster: ClusterView) -> list[Text]:
    """Size, how many of its listed calls we read and flag too (``flagged/read``), label."""
    size = DASH if cluster.size is None else str(cluster.size)
    if cluster.log_ids:
        check = f"{cluster.we_flag}/{cluster.we_examined} read"
    else:
        check = "none listed"
    return [
        Text(size, end=""),
        Text(check, end=""),
        cell(cluster.label or "unlabelled", max_len=48),
    ]


def cluster_calls(cluster: ClusterView) -> CallSet:
    size = "size not stated" if cluster.size is None else f"size {cluster.size}"
    listed = len(cluster.log_ids)
    note = ""
    if cluster.size is not None and listed < cluster.size:
        note = f"The platform listed {listed} of the cluster's {cluster.size} calls."
    return CallSet(
        f"platform cluster {one_line(cluster.label or 'unlabelled', max_len=60)} ({size})",
        cluster.log_ids,
        note,
    )


# --------------------------------------------------------------------------- judge


def doubt_rows(view: DiagnosisView) -> list[tuple[str, list[Text]]]:
    """(row key, cells) of each judge verdict worth doubting; the key carries the log id."""
    rows: list[tuple[str, list[Text]]] = []
    for n, doubt in enumerate(view.report.doubts or ()):
        cells = [
            one_line_text(doubt.result_id, max_len=30),
            Text(DASH if doubt.score is None else f"{doubt.score:.2f}", end=""),
            Text(doubt.kind.replace("_", " "), end=""),
            one_line_text(doubt.evidence, max_len=200),
        ]
        rows.append((f"{n}\x1f{doubt.log_id or ''}", cells))
    return rows


def doubt_log_id(key: str) -> str:
    """The log id carried by a doubt row's key ("" when the result names none)."""
    return key.split("\x1f", 1)[1] if "\x1f" in key else ""
