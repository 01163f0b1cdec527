"""One result: the judge's reasoning (a criteria table when ``score_details`` is JSON, the text
verbatim when not), the reply, the raw exchange one key away (``x``), and the call's log in
the inspector (``l``). Verdicts worth doubting are flagged at the top."""

from __future__ import annotations

import json

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from api_client.blahdev.shapes import Result
from api_client.errors import BlahError
from application.runs.blah.judge_verdict import (
    Judgement,
    ResultDoubt,
    judgement_doubts,
    parse_judgement,
)
from common.format import format_latency
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import (
    DASH,
    cell,
    fmt_score,
    fmt_time,
    tone_style,
)
from widgets.footer import KeyFooter
from widgets.key_table import KeyTable
from widgets.safe_text import one_line, safe_text
from widgets.status_header import StatusHeader
from widgets.text_viewer import TextViewer

__all__ = ["ResultDetailScreen", "raw_exchange_text"]


def raw_exchange_text(raw: str | None) -> str:
    """``raw_data`` pretty-printed when it is JSON, as sent otherwise (sanitized by the viewer)."""
    if raw is None or not raw.strip():
        return "the platform gave no raw exchange for this result"
    try:
        return json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
    except ValueError:
        return raw


class ResultDetailScreen(BlahScreen):
    """Pushed from a results table (Enter)."""

    SCREEN_TITLE = "Result"
    DEFAULT_CSS = """
    ResultDetailScreen #detail-head { height: auto; padding: 0 1; text-style: bold; }
    ResultDetailScreen #detail-doubts { height: auto; padding: 0 1; color: $warning; }
    ResultDetailScreen #detail-body { height: 1fr; }
    ResultDetailScreen #detail-judge { width: 1fr; padding: 0 1; }
    ResultDetailScreen #detail-right { width: 1fr; }
    ResultDetailScreen .pane-title { height: 1; padding: 0 1; text-style: bold; color: $primary; }
    ResultDetailScreen #detail-criteria { height: auto; max-height: 14; }
    ResultDetailScreen #detail-reasoning, ResultDetailScreen #detail-fields { height: auto; margin-top: 1; }
    """

    BINDINGS = [
        bindings.back("result"),
        Binding("x", "toggle_raw", "Raw exchange", id="result.raw"),
        Binding("l", "open_log", "Open log", id="result.log"),
        bindings.refresh("result", "Reload"),
    ]

    def __init__(self, result_id: str, *, initial: Result | None = None, eval_name: str | None = None) -> None:
        super().__init__()
        self.result_id = result_id
        self.result: Result | None = initial
        self.eval_name = eval_name
        self.showing_raw = False
        self.judgement: Judgement | None = None
        self.doubts: list[ResultDoubt] = []
        self.loaded = False  # True once the platform's full copy is shown

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text(f"Result {one_line(self.result_id, max_len=60)}"), id="detail-head")
        yield Static("", id="detail-doubts")
        with Horizontal(id="detail-body"):
            with VerticalScroll(id="detail-judge"):
                yield Static("Judge", classes="pane-title")
                yield KeyTable(
                    id="detail-criteria", columns=(("Criterion", "name"), ("Score", "score"), ("Note", "note"))
                )
                yield Static("", id="detail-reasoning")
                yield Static("", id="detail-fields")
            with Vertical(id="detail-right"):
                yield Static("Reply", id="detail-right-title", classes="pane-title")
                yield TextViewer("", id="detail-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.result is not None:
            self.show(self.result)
        self.load()

    @work(exclusive=True, group="result.load", exit_on_error=False)
    async def load(self) -> None:
        client = self.ctx.client
        if client is None:
            if self.result is None:
                self.query_one("#detail-head", Static).update(Text("offline: this result needs the platform"))
            return
        try:
            result = await client.get_result(self.result_id)
        except BlahError as error:
            self.query_one("#detail-doubts", Static).update(
                Text(f"couldn't load the full result: {describe_error(error)}")
            )
            raise
        if self.eval_name is None and result.eval_id:
            try:
                self.eval_name = (await client.get_eval(result.eval_id)).name
            except BlahError:
                pass  # the id is shown instead
        self.show(result)
        self.loaded = True

    # ----------------------------------------------------------------- rendering

    def show(self, result: Result) -> None:
        self.result = result
        variables = self.app.get_css_variables()
        head = Text(f"Result {one_line(result.id, max_len=40)} · eval ", end="")
        head.append(one_line(self.eval_name or result.eval_id or DASH, max_len=50))
        head.append(" · model ")
        head.append(one_line(result.model_id or DASH, max_len=50))
        head.append(
            f" · score {fmt_score(result.score)} · latency {format_latency(result.latency_ms)}"
            f" · {fmt_time(result.created_at)}"
        )
        if result.eval_run_id:
            head.append(f" · run {one_line(result.eval_run_id, max_len=40)}")
        if result.error:
            head.append(" · error: ")
            head.append(one_line(result.error, max_len=120), style=tone_style("error", variables))
        self.query_one("#detail-head", Static).update(head)

        self.doubts = judgement_doubts([result]).get(result.id, [])
        doubts = Text(end="")
        for doubt in self.doubts:
            doubts.append(f"⚑ worth doubting: {doubt.reason}\n")
        if not result.log_id:
            doubts.append("the platform gave no log id for this result: its call cannot be opened\n", style="dim")
        self.query_one("#detail-doubts", Static).update(doubts)

        self.judgement = judgement = parse_judgement(result)
        table = self.query_one("#detail-criteria", KeyTable)
        table.clear()
        for row in judgement.criteria:
            table.add_row(
                cell(row.name, max_len=40),
                Text(fmt_score(row.score) if row.value is None else one_line(row.value, max_len=20)),
                cell(row.note, max_len=60),
            )
        table.display = bool(judgement.criteria)
        reasoning = self.query_one("#detail-reasoning", Static)
        if judgement.verbatim is not None:
            text = Text("score_details is not JSON; shown as sent:\n", style="dim", end="")
            text.append_text(safe_text(judgement.verbatim))
            reasoning.update(text)
        elif judgement.reasoning is not None:
            text = Text("Reasoning\n", style="bold", end="")
            text.append_text(safe_text(judgement.reasoning))
            reasoning.update(text)
        elif judgement.empty:
            reasoning.update(Text("the platform gave no judge details for this result", style="dim"))
        else:
            reasoning.update(Text("the judge gave no reasoning text", style="dim"))
        fields = Text(end="")
        for key, value in judgement.fields:
            fields.append(f"{one_line(key, max_len=40)}: ", style="bold")
            fields.append(one_line(value, max_len=200) + "\n")
        self.query_one("#detail-fields", Static).update(fields)
        self._show_text()

    def _show_text(self) -> None:
        result = self.result
        viewer = self.query_one("#detail-text", TextViewer)
        title = self.query_one("#detail-right-title", Static)
        if result is None:
            return
        if self.showing_raw:
            title.update(Text("Raw exchange (raw_data) — x for the reply"))
            viewer.set_text(raw_exchange_text(result.raw_data))
        else:
            title.update(Text("Reply — x for the raw exchange"))
            if result.response is None:
                failed = " (the call failed)" if result.error else ""
                viewer.set_text(f"the platform gave no reply for this result{failed}")
            elif result.response == "":
                viewer.set_text("")
                title.update(Text("Reply: EMPTY (the model returned nothing) — x for the raw exchange"))
            else:
                viewer.set_text(result.response)

    # ----------------------------------------------------------------- actions

    def action_toggle_raw(self) -> None:
        self.showing_raw = not self.showing_raw
        self._show_text()

    def action_open_log(self) -> None:
        log_id = self.result.log_id if self.result is not None else None
        if not log_id:
            self.notify("The platform gave no log id for this result.", severity="warning", markup=False)
            return
        self.blah_app.open_log(log_id)

    def action_refresh(self) -> None:
        self.load()
