"""The "Groups & clusters" tab of the Diagnosis screen: our groups of calls (template, length,
instruction type, subject, source...), sorted by failures or by rate, beside the platform's
failure clusters (``ClustersPanel``), with a detail line for the highlighted group or cluster.

Enter on a group or a cluster tells the screen which calls stand behind it
(``GroupsTab.CallsChosen``). Group values (eval ids, subjects...) are untrusted and only
reach the screen through ``one_line``/``one_line_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from application.diagnosis.analysis import DiagnosisView
from common.format import DASH, plural
from diagnosis import kinds as K
from diagnosis.summary import FailureGroup
from tui.screens.diagnosis.calls import CallSet
from tui.screens.diagnosis.clusters import ClustersPanel, cluster_calls, cluster_detail
from tui.screens.diagnosis.tab import DiagnosisTab
from widgets.bars import format_rate
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, one_line_text

__all__ = [
    "GroupsTab",
    "SortKey",
    "group_calls",
    "group_cells",
    "group_detail",
    "group_key",
    "groups_note",
    "sort_groups",
    "telling_groups",
]

SortKey = Literal["failures", "rate"]

_ORDER_TITLES: dict[SortKey, str] = {"failures": "most failures first", "rate": "highest failure rate first"}

#: Column titles of the groups table, with their keys.
_GROUP_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Dimension", "dim"),
    ("Value", "value"),
    ("Calls", "calls"),
    ("Failing", "failing"),
    ("Rate", "rate"),
    ("Top kinds", "kinds"),
)


class GroupsTab(DiagnosisTab):
    """Our groups of calls on the left, the platform's failure clusters on the right."""

    DEFAULT_CSS = """
    GroupsTab #diag-groups-box { width: 3fr; }
    GroupsTab #diag-clusters-box { width: 2fr; border-left: vkey $panel-lighten-1; }
    GroupsTab #diag-groups, GroupsTab #diag-clusters { height: 1fr; }
    GroupsTab #diag-group-detail { height: auto; max-height: 5; padding: 0 1; }
    """

    TABLE_ID = "diag-groups"

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self.sort_key: SortKey = "failures"
        self._group_index: dict[str, FailureGroup] = {}

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="diag-groups-box"):
                yield Static(id="diag-groups-title", classes="pane-title", markup=False)
                yield Static(id="diag-groups-note", classes="pane-note", markup=False)
                yield KeyTable(id="diag-groups", columns=_GROUP_COLUMNS)
            yield ClustersPanel(id="diag-clusters-box")
        yield Static(id="diag-group-detail", markup=False)

    def group_at(self, key: str) -> FailureGroup | None:
        """The group shown in the row with this key (None: no such row)."""
        return self._group_index.get(key)

    def show(self, view: DiagnosisView) -> None:
        self._view = view
        self._show()

    def sort_by(self, key: SortKey) -> None:
        self.sort_key = key
        self._show()

    def _show(self) -> None:
        view = self._view
        if view is None:
            return
        self.query_one("#diag-groups-title", Static).update(
            Text(f"Our groups of calls ({_ORDER_TITLES[self.sort_key]}; f / % sort, Enter lists the calls)")
        )
        s = view.summary
        groups = telling_groups(s.groups, s.model_calls)
        self.query_one("#diag-groups-note", Static).update(groups_note(view, groups))
        table = self.table
        current = table.current_key
        table.clear()
        self._group_index = {}
        if not groups:
            table.add_row(Text("no groups tell the calls apart", style="dim"), *[Text("")] * 5, key="none")
            return
        for group in sort_groups(groups, self.sort_key):
            key = group_key(group)
            self._group_index[key] = group
            table.add_row(*group_cells(group, s.failure_rate), key=key)
        table.move_to_key(current)

    def _set_detail(self, text: Text) -> None:
        self.query_one("#diag-group-detail", Static).update(text)

    @on(DataTable.RowSelected, "#diag-groups")
    def _group_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        group = self._group_index.get(event.row_key.value or "")
        if group is not None and self._view is not None:
            self.post_message(self.CallsChosen(group_calls(group, self._view)))

    @on(DataTable.RowHighlighted, "#diag-groups")
    def _group_highlighted(self, event: DataTable.RowHighlighted) -> None:
        group = self._group_index.get(event.row_key.value or "")
        if group is None or self._view is None:
            self._set_detail(Text(""))
            return
        self._set_detail(group_detail(group, self._view))

    @on(ClustersPanel.Highlighted)
    def _cluster_highlighted(self, event: ClustersPanel.Highlighted) -> None:
        self._set_detail(cluster_detail(event.cluster))

    @on(ClustersPanel.Chosen)
    def _cluster_chosen(self, event: ClustersPanel.Chosen) -> None:
        event.stop()
        self.post_message(self.CallsChosen(cluster_calls(event.cluster)))


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
        f"{len(failed)} of {plural(len(ids), 'call')} fail",
        tuple(ids),
    )


def groups_note(view: DiagnosisView, shown: Sequence[FailureGroup]) -> Text:
    """The line above the groups: the overall rate, and what is left out and why."""
    s = view.summary
    note = Text(f"overall failure rate {format_rate(s.failure_rate)}; bold rates are above it", end="")
    kept = {(g.dimension, g.value) for g in shown}
    everything = [
        f"{g.dimension.replace('_', ' ')} = {g.value}" for g in s.groups if (g.dimension, g.value) not in kept
    ]
    if everything:
        note.append(" · left out, as every call is in them: ")
        note.append_text(one_line_text(", ".join(sorted(everything)), max_len=120))
    if s.host.calls:
        note.append(f" · the {s.host.calls} calls in host outages are left out (the host's, not the model's)")
    return note


def group_detail(group: FailureGroup, view: DiagnosisView) -> Text:
    """The highlighted group: how many of its calls fail, and what two of them said."""
    ids = view.group_ids.get((group.dimension, group.value), ())
    text = Text(end="")
    text.append(f"{group.dimension.replace('_', ' ')} = ", style="bold")
    text.append_text(one_line_text(group.value, max_len=60, style="bold"))
    text.append(f": {group.failures} of {plural(len(ids), 'call')} fail", style="bold")
    for log_id in group.example_log_ids[:2]:
        entry = view.entries_by_id.get(log_id)
        if entry is None:
            continue
        said = "said" if entry.response is not None else "failed"
        text.append(f"\n  {one_line(entry.id, max_len=30)} {said}: ", style="dim")
        text.append_text(one_line_text(entry.response if entry.response is not None else entry.error, max_len=160))
    return text
