"""The Judge tab of the Diagnosis screen: the wrong-answer rate over judged calls, and the
judge's verdicts worth doubting (the judge can be wrong), each with why and the evidence.

Enter on a verdict tells the screen which call to open (``JudgeTab.CallChosen``); a result that
names no call says so here. Result ids and evidence are untrusted: they reach the screen
through ``one_line_text`` only.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import DataTable, Static, TabPane

from application.diagnosis.analysis import DiagnosisView
from common.format import DASH, plural
from diagnosis import kinds as K
from widgets.bars import format_rate
from widgets.key_table import KeyTable
from widgets.safe_text import one_line_text

__all__ = ["JudgeTab", "doubt_log_id", "doubt_rows", "judge_text"]

#: Column titles of the doubts table, with their keys.
_DOUBT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Result", "result"),
    ("Score", "score"),
    ("Why doubt it", "why"),
    ("Evidence", "evidence"),
)


class JudgeTab(TabPane):
    """What the judge says the model gets wrong, and which of its verdicts to doubt."""

    DEFAULT_CSS = """
    JudgeTab #diag-doubts { height: 1fr; }
    """

    class CallChosen(Message):
        """Enter on a verdict that names a call: the screen opens it in the Inspector."""

        def __init__(self, log_id: str) -> None:
            super().__init__()
            self.log_id = log_id

    def compose(self) -> ComposeResult:
        yield Static(id="diag-judge", classes="pane-note", markup=False)
        yield KeyTable(id="diag-doubts", columns=_DOUBT_COLUMNS)

    def show(self, view: DiagnosisView) -> None:
        self.query_one("#diag-judge", Static).update(judge_text(view))
        table = self.query_one("#diag-doubts", KeyTable)
        table.clear()
        for key, cells in doubt_rows(view):
            table.add_row(*cells, key=key)

    @on(DataTable.RowSelected, "#diag-doubts")
    def _doubt_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        log_id = doubt_log_id(event.row_key.value or "")
        if not log_id:
            self.notify("This result names no call to open.", markup=False)
            return
        self.post_message(self.CallChosen(log_id))


def judge_text(view: DiagnosisView) -> Text:
    inputs = view.inputs
    report = view.report
    text = Text(end="")
    if inputs.results.error:
        text.append(f"{inputs.results.error}: no judge verdicts to check and no wrong-answer rate.", style="bold")
        return text
    results = inputs.results.value
    if results is None:
        text.append("The platform's /results returned nothing.", style="dim")
        return text
    if not results:
        text.append("The platform returned no results for this model: nothing has been judged.")
        return text
    linked = sum(1 for r in results if r.log_id is not None)
    wrong = view.summary.rates.get(K.WRONG_ANSWER)
    if wrong is not None and wrong.population:
        text.append(
            f"wrong answer: {wrong.count} of {wrong.population} judged calls ({format_rate(wrong.rate)})", style="bold"
        )
        text.append(": scored low by the judge, and nothing in the text (loop, cut-off, refusal…) explains it.")
    else:
        text.append("No judged result matches a call read here, so there is no wrong-answer rate.", style="bold")
    if linked < len(results):
        text.append(
            f"\n{len(results) - linked} of {plural(len(results), 'result')} name no log id "
            "and cannot be matched to a call.",
            style="dim",
        )
    doubts = report.doubts or ()
    text.append("\n")
    if doubts:
        text.append(f"{len(doubts)} of {len(results)} judge verdicts are worth doubting", style="bold")
        text.append(" (the judge can be wrong; Enter opens the call):")
    else:
        text.append(f"None of the {len(results)} judge verdicts looks doubtful.")
    return text


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
