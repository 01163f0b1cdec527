"""The Rates tab of the Diagnosis screen: our rate of every failure kind beside the platform's
``/diagnose``, with agreement (both / only the platform / only us, and per platform example:
agreed, disputed, not read). Failures during host outages are a row of their own, labelled as
the host's and left out of every rate.

Every number is a cell: Enter on it tells the screen which calls stand behind it
(``RatesTab.CallsChosen``). Every number comes from ``DiagnosisView``; a missing one is "—" or
"no data". Platform text (``usual_cause``, examples' evidence) only reaches the screen through
``one_line``/``one_line_text``/``safe_text``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from application.diagnosis.analysis import DiagnosisView
from application.diagnosis.data import OFFLINE_NOTE
from common.format import DASH, plural
from diagnosis import kinds as K
from diagnosis.platform import KindAgreement
from diagnosis.summary import KindRate
from tui.cell_format import fmt_time
from tui.screens.diagnosis.calls import CallSet
from tui.screens.diagnosis.tab import DiagnosisTab
from widgets.bars import RateBar, bar_text, format_rate
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, one_line_text, safe_text

__all__ = ["HOST_ROW", "KIND_COLUMNS", "KindRow", "RatesTab", "kind_calls", "kind_cells", "kind_detail", "kind_rows"]

HOST_ROW = "host_down"
BAR_WIDTH = 8
EXAMPLES = 2  # quoted findings under the highlighted kind

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

_VERDICTS = {
    "both": "both found it",
    "only_platform": "only the platform",
    "only_us": "only us",
    "neither": "neither found it",
}


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


class RatesTab(DiagnosisTab):
    """The rates table, the two rate bars of the highlighted kind, and what that kind means."""

    DEFAULT_CSS = """
    RatesTab #diag-kinds { height: auto; max-height: 14; }
    RatesTab #diag-kind-bars { height: 2; padding: 0 1; }
    RatesTab #diag-kind-detail { height: auto; padding: 0 1; }
    """

    TABLE_ID = "diag-kinds"

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(title, id=id)
        self.rows: list[KindRow] = []

    def compose(self) -> ComposeResult:
        kinds = KeyTable(id="diag-kinds")
        kinds.cursor_type = "cell"
        for key, label in KIND_COLUMNS:
            kinds.add_column(label, key=key)
        yield kinds
        with Vertical(id="diag-kind-bars"):
            yield RateBar("ours", id="bar-ours")
            yield RateBar("platform", id="bar-platform")
        yield Static(id="diag-kind-detail", markup=False)

    def show(self, view: DiagnosisView) -> None:
        """Fill the table from a new diagnosis, keeping the cursor where it was."""
        self._view = view
        diagnose_error = view.inputs.diagnose.error
        table = self.table
        keep = table.cursor_coordinate
        table.clear()
        self.rows = kind_rows(view)
        for row in self.rows:
            table.add_row(*kind_cells(row, view, diagnose_error=diagnose_error), key=row.kind)
        if keep.row < table.row_count:
            table.move_cursor(row=keep.row, column=keep.column, animate=False)
        self._show_detail()

    def _current_row(self) -> KindRow | None:
        table = self.table
        if not self.rows or table.row_count == 0:
            return None
        index = table.cursor_coordinate.row
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def _show_detail(self) -> None:
        view = self._view
        row = self._current_row()
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

    @on(DataTable.CellHighlighted, "#diag-kinds")
    def _highlighted(self, event: DataTable.CellHighlighted) -> None:
        self._show_detail()

    @on(DataTable.CellSelected, "#diag-kinds")
    def _selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        view = self._view
        if view is None:
            return
        kind = event.cell_key.row_key.value
        column = event.cell_key.column_key.value
        row = next((r for r in self.rows if r.kind == kind), None)
        if row is None or column is None:
            return
        calls = kind_calls(row, column, view)
        if calls is not None:
            self.post_message(self.CallsChosen(calls))


def kind_rows(view: DiagnosisView) -> list[KindRow]:
    """Every kind we check (in the canonical order), the platform's other kinds, then the
    host's failures as a row of their own: never mixed into the model's rates."""
    summary = view.summary
    agreements = {a.kind: a for a in view.report.agreements or ()}
    order = list(dict.fromkeys([*K.CLASSIFY_KINDS, *summary.rates, *agreements]))
    rows = [KindRow(kind, K.describe(kind).label, summary.rates.get(kind), agreements.get(kind)) for kind in order]
    rows.append(KindRow(HOST_ROW, "host down (not the model's)", None, None, summary.host.calls, summary.host.failures))
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
        return [
            kind_text,
            ours,
            Text(DASH, style="dim"),
            Text("host's fault, not compared", style="dim"),
            Text(""),
            Text(""),
            Text(""),
        ]
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
        return [
            kind_text,
            ours,
            Text(reason, style="dim italic"),
            Text(DASH, style="dim"),
            Text(""),
            Text(""),
            Text(""),
        ]
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
        return [
            kind_text,
            ours,
            platform,
            verdict,
            Text(DASH, style="dim"),
            Text(DASH, style="dim"),
            Text(DASH, style="dim"),
        ]
    return [
        kind_text,
        ours,
        platform,
        verdict,
        Text(str(len(a.agreed_log_ids)), end=""),
        Text(str(len(a.disputed_log_ids)), style="bold" if a.disputed_log_ids else "", end=""),
        Text(str(len(a.unseen_log_ids)), end=""),
    ]


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
        return CallSet(f"{label}: the {plural(len(ids), 'call')} we flag", ids)
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


def kind_detail(row: KindRow | None, view: DiagnosisView) -> Text:
    """What the highlighted kind means, what fixes it, and what the platform says about it."""
    if row is None:
        return Text("")
    inputs = view.inputs
    text = Text(end="")
    if row.is_host:
        text.append("host down: ", style="bold")
        text.append("failed calls made while the health checks said the endpoint was down. ")
        text.append("They say nothing about the answers and are left out of every rate above.")
        if inputs.health.error:
            text.append(f"\n{inputs.health.error}: outages cannot be told apart from model failures", style="bold")
        elif inputs.health.value is not None and not inputs.health.value.checks:
            text.append("\nthe platform returned no health checks", style="dim")
        for window in view.summary.host.windows:
            end = fmt_time(window.end) if window.end is not None else "still down at the last check"
            errors = ", ".join(one_line(e, max_len=60) for e in window.errors[:3]) or "no error text"
            text.append(f"\noutage {fmt_time(window.start)} to {end}: {window.failed_checks} failed checks ({errors})")
        return text
    info = K.describe(row.kind)
    text.append(f"{info.label}: ", style="bold")
    text.append(f"{info.description} ")
    text.append("Fix: ", style="bold")
    text.append(info.fix)
    for log_id, finding in view.summary.examples.get(row.kind, ())[:EXAMPLES]:
        text.append(f"\n  {one_line(log_id, max_len=30)}: ", style="dim")
        text.append_text(one_line_text(finding.evidence, max_len=220))
    if row.kind == K.WRONG_ANSWER and inputs.results.error:
        text.append(f"\n{inputs.results.error}: no judge verdicts to check", style="bold")
    a = row.agreement
    if a is None:
        if inputs.diagnose.error:
            text.append(f"\n{inputs.diagnose.error}", style="bold")
        elif inputs.diagnose.value is None:
            text.append("\nthe platform's /diagnose returned nothing", style="dim")
        return text
    if a.usual_cause:
        text.append("\nThe platform says the usual cause is: ", style="dim")
        text.append_text(safe_text(one_line(a.usual_cause, max_len=300)))
    if a.disputed_log_ids:
        text.append(
            f"\nWe disagree on {len(a.disputed_log_ids)} of the platform's examples (Disputed: Enter lists them).",
            style="bold",
        )
    if a.note:
        text.append(f"\n{one_line(a.note, max_len=400)}", style="dim")
    return text
