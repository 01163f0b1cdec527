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

``W`` (Whole history) diagnoses every call of the model's local archive on the path of
``blah-tui report MODEL --offline`` (``whole.DiagnosisWholeScreen``); the tabs keep the recent calls.

IO runs in workers, the analysis in a thread; both stay here, with the key bindings. Each tab
is its own widget that renders the analysis (``show(view)``) and asks for calls to be listed
or opened with a Message: ``rates.RatesTab``, ``groups.GroupsTab`` (with
``clusters.ClustersPanel``), ``judge.JudgeTab``, ``training.TrainingTab``; the lines at the top
are ``summary.DiagnosisSummary``; the lists of calls ``calls``; the export ``export``.
Data: ``application.diagnosis``.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import TabbedContent

from application.diagnosis.analysis import DiagnosisView, analyse
from application.diagnosis.data import LoadProgress, fetch_inputs, limit_from
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.screens.diagnosis.calls import CallSet
from tui.screens.diagnosis.clusters import ClustersPanel
from tui.screens.diagnosis.groups import GroupsTab
from tui.screens.diagnosis.judge import JudgeTab
from tui.screens.diagnosis.rates import KindRow, RatesTab
from tui.screens.diagnosis.summary import DiagnosisSummary
from tui.screens.diagnosis.tab import DiagnosisTab
from tui.screens.diagnosis.training import TrainingTab
from widgets.bars import ProgressLine
from widgets.footer import KeyFooter
from widgets.status_header import StatusHeader

__all__ = ["TABS", "DiagnosisScreen"]

TABS: tuple[str, ...] = ("tab-rates", "tab-groups", "tab-judge", "tab-training")


class DiagnosisScreen(BlahScreen):
    """The model's failures: kinds, groups, host outages, the judge, and training data to add."""

    SCREEN_TITLE = "Diagnosis"

    DEFAULT_CSS = """
    DiagnosisScreen #diag-progress { padding: 0 1; &.hidden { display: none; } }
    DiagnosisScreen #diag-tabs { height: 1fr; }
    DiagnosisScreen TabPane { padding: 0; }
    DiagnosisScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    DiagnosisScreen .pane-note { height: auto; padding: 0 1; color: $foreground-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.refresh("diagnosis"),
        bindings.sort_by("diagnosis", "f", "failures"),
        bindings.sort_by("diagnosis", "percent_sign", "rate"),
        Binding("c", "clusters", "Clusters", id="diagnosis.clusters"),
        bindings.export("diagnosis", "Export data"),
        Binding("W", "whole_history", "Whole history", id="diagnosis.whole_history"),
        *bindings.tabs("diagnosis"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view: DiagnosisView | None = None
        self.busy = False
        self.load_error: str | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield DiagnosisSummary(id="diag-summary")
        yield ProgressLine(id="diag-progress")
        with TabbedContent(id="diag-tabs"):
            yield RatesTab("Rates", id="tab-rates")
            yield GroupsTab("Groups & clusters", id="tab-groups")
            yield JudgeTab("Judge", id="tab-judge")
            yield TrainingTab("Training data", id="tab-training")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(RatesTab).table.focus()
        self.load()

    def on_model_switched(self, model_id: str) -> None:
        self.view = None
        self.clusters_panel.reset()
        self.load()

    @property
    def clusters_panel(self) -> ClustersPanel:
        return self.query_one(ClustersPanel)

    @property
    def rows(self) -> list[KindRow]:
        """The rows of the rates table, in table order."""
        return self.query_one(RatesTab).rows

    # ------------------------------------------------------------------ loading

    @property
    def limit(self) -> int:
        return limit_from(self.ctx.settings)

    @work(exclusive=True, group="diagnosis-load", exit_on_error=False)
    async def load(self) -> None:
        self.busy = True
        progress = self.query_one("#diag-progress", ProgressLine)
        progress.remove_class("hidden")
        progress.update(0, None, None, None)
        summary = self.query_one(DiagnosisSummary)
        summary.reading(self.limit)

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
            summary.diagnosing(len(inputs.entries))
            view = await asyncio.to_thread(analyse, inputs)
        except Exception as error:  # shown here, and notified by BlahScreen
            summary.failed(describe_error(error))
            raise
        finally:
            self.busy = False
            progress.add_class("hidden")
        if model_id != self.ctx.model_id:
            return
        self.view = view
        self.load_error = inputs.entries_error
        summary.show(view, error=bool(inputs.entries_error))
        self.query_one(RatesTab).show(view)
        self.query_one(GroupsTab).show(view)
        self.query_one(JudgeTab).show(view)
        self.query_one(TrainingTab).show(view)
        self.clusters_panel.check_against(view)

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

    @on(DiagnosisTab.CallsChosen)
    def _calls_chosen(self, event: DiagnosisTab.CallsChosen) -> None:
        self.open_calls(event.calls)

    @on(JudgeTab.CallChosen)
    def _call_chosen(self, event: JudgeTab.CallChosen) -> None:
        from tui.screens.inspector.screen import InspectorScreen

        entries = self.view.entries_by_id if self.view is not None else {}
        self.app.push_screen(InspectorScreen(event.log_id, lookup=entries.get))

    # ------------------------------------------------------------------ actions

    def action_refresh(self) -> None:
        self.load()

    def action_sort(self, key: str) -> None:
        groups = self.query_one(GroupsTab)
        self.query_one("#diag-tabs", TabbedContent).active = "tab-groups"
        groups.sort_by("rate" if key == "rate" else "failures")
        groups.table.focus()

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

    def action_whole_history(self) -> None:
        """Diagnose every call of the model's local archive, as ``report --offline`` does."""
        from tui.screens.diagnosis.whole import DiagnosisWholeScreen

        self.app.push_screen(DiagnosisWholeScreen())

    @on(ClustersPanel.Arrived)
    def _clusters_arrived(self, event: ClustersPanel.Arrived) -> None:
        """The clusters' tab shows them: switch there when they arrive. Clusters list the
        platform's newest calls: when some are not among the calls read (the diagnosis was read
        earlier, and the model has answered since), read again so they are checked too."""
        self.query_one("#diag-tabs", TabbedContent).active = "tab-groups"
        view = self.view
        listed = {i for cluster in event.clusters.clusters for i in cluster.log_ids}
        if view is not None and not self.busy and listed - set(view.entries_by_id):
            self.load()
