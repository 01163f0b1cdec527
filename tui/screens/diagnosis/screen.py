"""Diagnosis (key 2): what the model gets wrong, read from its calls, beside the platform's own reading.

Top: what was read (the model's most recent calls: from the local archive when it holds
enough, else the platform, with a progress line), how much of it fails, cut off or stopped,
and whether the prompts were in the trained template (and where that template came from).

Tabs:
- Rates: our rate of every failure kind beside the platform's ``/diagnose``, with agreement
  (both / only the platform / only us, and per platform example: agreed, disputed, not read).
  Every number is a cell: Enter lists the calls behind it, Enter there opens the Inspector.
  Failures during host outages are a row of their own, labelled as the host's.
- Groups & clusters: our groups of calls (template, length, instruction type, subject,
  source...), sortable by failures (``f``) or rate (``%``), beside the platform's failure
  clusters (``c``: council tier, spends a judge call, asks first, sent once).
- Judge: the wrong-answer rate over judged calls and the verdicts worth doubting.
- Training data: suggestions quoting the failing prompts; ``x`` exports JSONL + markdown.

IO runs in workers, the analysis in a thread. Data: ``diagnosis_data``; rows: ``diagnosis_rows``;
sentences: ``diagnosis_text``; the clusters' panel: ``diagnosis_clusters``; export: ``diagnosis_export``.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from tui.base_screen import BlahScreen, describe_error
from application.diagnosis.analysis import DiagnosisView, analyse
from tui.screens.diagnosis.clusters import ClustersPanel
from application.diagnosis.data import LoadProgress, fetch_inputs, limit_from
from tui.screens.diagnosis.rows import (
    KIND_COLUMNS,
    CallSet,
    KindRow,
    SortKey,
    cluster_calls,
    doubt_log_id,
    doubt_rows,
    group_calls,
    group_cells,
    group_key,
    kind_calls,
    kind_cells,
    kind_rows,
    sort_groups,
    telling_groups,
)
from tui.screens.diagnosis.text import (
    cluster_detail,
    group_detail,
    groups_note,
    judge_text,
    kind_detail,
    suggestions_text,
    summary_text,
)
from widgets.key_table import KeyTable
from widgets.bars import ProgressLine, RateBar
from widgets.footer import KeyFooter
from widgets.status_header import StatusHeader

__all__ = ["TABS", "DiagnosisScreen"]

TABS: tuple[str, ...] = ("tab-rates", "tab-groups", "tab-judge", "tab-training")


class DiagnosisScreen(BlahScreen):
    """The model's failures: kinds, groups, host outages, the judge, and training data to add."""

    SCREEN_TITLE = "Diagnosis"

    DEFAULT_CSS = """
    DiagnosisScreen #diag-summary { height: auto; padding: 0 1; &.error { color: $error; } }
    DiagnosisScreen #diag-progress { padding: 0 1; &.hidden { display: none; } }
    DiagnosisScreen #diag-tabs { height: 1fr; }
    DiagnosisScreen TabPane { padding: 0; }
    DiagnosisScreen #diag-kinds { height: auto; max-height: 14; }
    DiagnosisScreen #diag-kind-bars { height: 2; padding: 0 1; }
    DiagnosisScreen #diag-kind-detail { height: auto; padding: 0 1; }
    DiagnosisScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    DiagnosisScreen .pane-note { height: auto; padding: 0 1; color: $foreground-muted; }
    DiagnosisScreen #diag-groups-box { width: 3fr; }
    DiagnosisScreen #diag-clusters-box { width: 2fr; border-left: vkey $panel-lighten-1; }
    DiagnosisScreen #diag-groups, DiagnosisScreen #diag-clusters { height: 1fr; }
    DiagnosisScreen #diag-group-detail { height: auto; max-height: 5; padding: 0 1; }
    DiagnosisScreen #diag-doubts { height: 1fr; }
    DiagnosisScreen #diag-suggestions { padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="diagnosis.refresh"),
        Binding("f", "sort('failures')", "Sort failures", id="diagnosis.sort_failures"),
        Binding("percent_sign", "sort('rate')", "Sort rate", id="diagnosis.sort_rate"),
        Binding("c", "clusters", "Clusters", id="diagnosis.clusters"),
        Binding("x", "export", "Export data", id="diagnosis.export"),
        Binding("right_square_bracket", "tab(1)", "Next tab", id="diagnosis.next_tab"),
        Binding("left_square_bracket", "tab(-1)", "Prev tab", show=False, id="diagnosis.prev_tab"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: DiagnosisView | None = None
        self.busy = False
        self.load_error: str | None = None
        self.sort_key: SortKey = "failures"
        self.rows: list[KindRow] = []
        self._group_index: dict[str, Any] = {}

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading…", style="italic"), id="diag-summary", markup=False)
        yield ProgressLine(id="diag-progress")
        with TabbedContent(id="diag-tabs"):
            with TabPane("Rates", id="tab-rates"):
                kinds = KeyTable(id="diag-kinds")
                kinds.cursor_type = "cell"
                for key, label in KIND_COLUMNS:
                    kinds.add_column(label, key=key)
                yield kinds
                with Vertical(id="diag-kind-bars"):
                    yield RateBar("ours", id="bar-ours")
                    yield RateBar("platform", id="bar-platform")
                yield Static(id="diag-kind-detail", markup=False)
            with TabPane("Groups & clusters", id="tab-groups"):
                with Horizontal():
                    with Vertical(id="diag-groups-box"):
                        yield Static(id="diag-groups-title", classes="pane-title", markup=False)
                        yield Static(id="diag-groups-note", classes="pane-note", markup=False)
                        groups = KeyTable(id="diag-groups")
                        for label, key in (("Dimension", "dim"), ("Value", "value"), ("Calls", "calls"),
                                           ("Failing", "failing"), ("Rate", "rate"), ("Top kinds", "kinds")):
                            groups.add_column(label, key=key)
                        yield groups
                    yield ClustersPanel(id="diag-clusters-box")
                yield Static(id="diag-group-detail", markup=False)
            with TabPane("Judge", id="tab-judge"):
                yield Static(id="diag-judge", classes="pane-note", markup=False)
                doubts = KeyTable(id="diag-doubts")
                for label, key in (("Result", "result"), ("Score", "score"), ("Why doubt it", "why"),
                                   ("Evidence", "evidence")):
                    doubts.add_column(label, key=key)
                yield doubts
            with TabPane("Training data", id="tab-training"), VerticalScroll():
                yield Static(id="diag-suggestions", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#diag-kinds", KeyTable).focus()
        self.load()

    def on_model_switched(self, model_id: str) -> None:
        self.view = None
        self.clusters_panel.reset()
        self.load()

    # ------------------------------------------------------------------ loading

    @property
    def clusters_panel(self) -> ClustersPanel:
        return self.query_one(ClustersPanel)

    @property
    def limit(self) -> int:
        return limit_from(self.ctx.settings)

    @work(exclusive=True, group="diagnosis-load", exit_on_error=False)
    async def load(self) -> None:
        self.busy = True
        progress = self.query_one("#diag-progress", ProgressLine)
        progress.remove_class("hidden")
        progress.update(0, None, None, None)
        summary = self.query_one("#diag-summary", Static)
        summary.set_class(False, "error")
        summary.update(Text(f"reading the model's most recent calls (up to {self.limit})…", style="italic"))

        def on_progress(p: LoadProgress) -> None:
            rate = p.rate_per_s
            eta = None
            if rate and p.total is not None:
                eta = f"{max(0.0, (p.total - p.done) / rate):.0f}s"
            progress.update(p.done, p.total, rate, eta)

        model_id = self.ctx.model_id
        try:
            inputs = await fetch_inputs(
                self.ctx.client,
                model_id,
                archive=self.ctx.archive,
                limit=self.limit,
                config_template=self.ctx.trained_template,
                on_progress=on_progress,
            )
            summary.update(Text(f"read {len(inputs.entries)} calls; diagnosing…", style="italic"))
            view = await asyncio.to_thread(analyse, inputs)
        except Exception as error:  # shown here, and notified by BlahScreen
            summary.set_class(True, "error")
            summary.update(Text(f"couldn't diagnose: {describe_error(error)}"))
            raise
        finally:
            self.busy = False
            progress.add_class("hidden")
        if model_id != self.ctx.model_id:
            return
        self.view = view
        self.load_error = inputs.entries_error
        summary.set_class(bool(inputs.entries_error), "error")
        summary.update(summary_text(view))
        self._show_view()
        self.clusters_panel.check_against(view)

    # ------------------------------------------------------------------ showing

    def _show_view(self) -> None:
        view = self.view
        assert view is not None
        diagnose_error = view.inputs.diagnose.error
        table = self.query_one("#diag-kinds", KeyTable)
        keep = table.cursor_coordinate
        table.clear()
        self.rows = kind_rows(view)
        for row in self.rows:
            table.add_row(*kind_cells(row, view, diagnose_error=diagnose_error), key=row.kind)
        if keep.row < table.row_count:
            table.move_cursor(row=keep.row, column=keep.column, animate=False)
        self._show_kind_detail()
        self._show_groups()
        self._show_judge()
        self.query_one("#diag-suggestions", Static).update(suggestions_text(view.report.suggestions, view))

    def _current_kind_row(self) -> KindRow | None:
        table = self.query_one("#diag-kinds", KeyTable)
        if not self.rows or table.row_count == 0:
            return None
        index = table.cursor_coordinate.row
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def _show_kind_detail(self) -> None:
        view = self.view
        row = self._current_kind_row()
        ours = self.query_one("#bar-ours", RateBar)
        platform = self.query_one("#bar-platform", RateBar)
        if view is None or row is None:
            ours.update(None, None, None)
            platform.update(None, None, None)
            return
        if row.is_host:
            known = view.summary.health_known and bool(view.summary.host.windows)
            ours.update(row.host_failures if known else None, row.host_calls if known else None, None)
            platform.update(None, None, None)
        else:
            rate = row.ours
            if rate is not None and rate.population:
                ours.update(rate.count, rate.population, None)
            else:
                ours.update(None, None, None)
            a = row.agreement
            if a is not None and a.platform_count is not None:
                platform.update(a.platform_count, a.platform_population, None)
            else:
                platform.update(None, None, None)
        self.query_one("#diag-kind-detail", Static).update(kind_detail(row, view))

    def _show_groups(self) -> None:
        view = self.view
        if view is None:
            return
        title = {"failures": "most failures first", "rate": "highest failure rate first"}[self.sort_key]
        self.query_one("#diag-groups-title", Static).update(
            Text(f"Our groups of calls ({title}; f / % sort, Enter lists the calls)")
        )
        s = view.summary
        groups = telling_groups(s.groups, s.model_calls)
        self.query_one("#diag-groups-note", Static).update(groups_note(view, groups))
        table = self.query_one("#diag-groups", KeyTable)
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

    def _show_judge(self) -> None:
        view = self.view
        assert view is not None
        self.query_one("#diag-judge", Static).update(judge_text(view))
        table = self.query_one("#diag-doubts", KeyTable)
        table.clear()
        for key, cells in doubt_rows(view):
            table.add_row(*cells, key=key)

    # ------------------------------------------------------------------ drill-down

    def open_calls(self, calls: CallSet) -> None:
        """Push the list of the calls behind a number."""
        from tui.screens.diagnosis.calls import DiagnosisCallsScreen

        view = self.view
        if view is None:
            return
        self.app.push_screen(
            DiagnosisCallsScreen(calls.title, calls.ids, view.entries_by_id, badges=view.badges, note=calls.note)
        )

    @on(DataTable.CellHighlighted, "#diag-kinds")
    def _kind_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self._show_kind_detail()

    @on(DataTable.CellSelected, "#diag-kinds")
    def _kind_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        view = self.view
        if view is None:
            return
        kind = event.cell_key.row_key.value
        column = event.cell_key.column_key.value
        row = next((r for r in self.rows if r.kind == kind), None)
        if row is None or column is None:
            return
        calls = kind_calls(row, column, view)
        if calls is not None:
            self.open_calls(calls)

    @on(DataTable.RowSelected, "#diag-groups")
    def _group_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        group = self._group_index.get(event.row_key.value or "")
        if group is not None and self.view is not None:
            self.open_calls(group_calls(group, self.view))

    @on(DataTable.RowHighlighted, "#diag-groups")
    def _group_highlighted(self, event: DataTable.RowHighlighted) -> None:
        group = self._group_index.get(event.row_key.value or "")
        detail = self.query_one("#diag-group-detail", Static)
        if group is None or self.view is None:
            detail.update(Text(""))
            return
        detail.update(group_detail(group, self.view))

    @on(DataTable.RowSelected, "#diag-doubts")
    def _doubt_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        log_id = doubt_log_id(event.row_key.value or "")
        if not log_id:
            self.notify("This result names no call to open.", markup=False)
            return
        from tui.screens.inspector.screen import InspectorScreen

        entries = self.view.entries_by_id if self.view is not None else {}
        self.app.push_screen(InspectorScreen(log_id, lookup=entries.get))

    # ------------------------------------------------------------------ actions

    def action_refresh(self) -> None:
        self.load()

    def action_sort(self, key: str) -> None:
        self.sort_key = "rate" if key == "rate" else "failures"
        self.query_one("#diag-tabs", TabbedContent).active = "tab-groups"
        self._show_groups()
        self.query_one("#diag-groups", KeyTable).focus()

    def action_tab(self, step: int) -> None:
        tabs = self.query_one("#diag-tabs", TabbedContent)
        index = TABS.index(tabs.active) if tabs.active in TABS else 0
        tabs.active = TABS[(index + step) % len(TABS)]
        focus = {"tab-rates": "#diag-kinds", "tab-groups": "#diag-groups", "tab-judge": "#diag-doubts"}
        target = focus.get(tabs.active)
        if target:
            self.query_one(target).focus()

    def action_export(self) -> None:
        from tui.screens.diagnosis.export import ask_and_export

        ask_and_export(self, self.view.report.suggestions if self.view is not None else None)

    def action_clusters(self) -> None:
        self.clusters_panel.ask()

    @on(ClustersPanel.Arrived)
    def _clusters_arrived(self, event: ClustersPanel.Arrived) -> None:
        """The clusters' tab shows them: switch there when they arrive."""
        self.query_one("#diag-tabs", TabbedContent).active = "tab-groups"

    @on(ClustersPanel.Highlighted)
    def _cluster_highlighted(self, event: ClustersPanel.Highlighted) -> None:
        self.query_one("#diag-group-detail", Static).update(cluster_detail(event.cluster))

    @on(ClustersPanel.Chosen)
    def _cluster_chosen(self, event: ClustersPanel.Chosen) -> None:
        self.open_calls(cluster_calls(event.cluster))
