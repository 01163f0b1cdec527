"""Results of the person's model (``list_results``) or of one run (``run_results``), sortable.

Keys sort by score (``s``), eval (``e``), latency (``l``) and time (``t``); the same key again
flips the direction; missing values always sort last. Verdicts worth doubting carry a ⚑ and
``d`` shows only those. Enter opens one result with the judge's reasoning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text
from textual.binding import Binding

from api_client.blahdev.shapes import Result
from api_client.errors import BlahError
from application.runs.blah.judge_verdict import ResultDoubt, judgement_doubts
from common.format import format_latency, plural
from tui import bindings
from tui.base_screen import describe_error
from tui.captioned_table import CaptionedTableScreen
from tui.cell_format import (
    cell,
    fmt_score,
    fmt_time,
    reply_cell,
    tone_style,
)
from tui.platform_work import platform_work
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["SORT_KEYS", "ResultsScreen", "sort_results"]

SortKey = Literal["score", "eval", "latency", "time"]
SORT_KEYS: dict[SortKey, Callable[[Result, Mapping[str, str]], Any]] = {
    "score": lambda r, _names: r.score,
    "eval": lambda r, names: (names.get(r.eval_id or "") or r.eval_id or "").lower() or None,
    "latency": lambda r, _names: r.latency_ms,
    "time": lambda r, _names: r.created_at if isinstance(r.created_at, int) else None,
}
DOUBT_LABELS = {
    "high_score_empty": "high on empty",
    "high_score_loop": "high on loop",
    "high_score_continuation": "high on continuation",
    "reasoning_contradicts_score": "contradicts",
    "low_score_matches_expected": "low but expected",
}
_DEFAULT_DESCENDING: dict[SortKey, bool] = {"score": False, "eval": False, "latency": True, "time": True}


def sort_results(
    results: Sequence[Result], key: SortKey, *, descending: bool, eval_names: Mapping[str, str] | None = None
) -> list[Result]:
    """Sorted by ``key``; results without that value come last in either direction."""
    names = eval_names or {}
    getter = SORT_KEYS[key]
    have = [r for r in results if getter(r, names) is not None]
    missing = [r for r in results if getter(r, names) is None]
    have.sort(key=lambda r: (getter(r, names), r.id), reverse=descending)
    return have + missing


class ResultsScreen(bindings.RowAction, CaptionedTableScreen):
    """A table of results; pushed from the runs screens (``m``: the person's model, ``v``: a run)."""

    SCREEN_TITLE = "Results"
    CAPTION_ID = "results-summary"
    TABLE_ID = "results-table"

    ROW_ACTION = "open"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS = [
        bindings.back("results"),
        bindings.open_row("results"),
        bindings.sort_by("results", "s", "score"),
        bindings.sort_by("results", "e", "eval"),
        bindings.sort_by("results", "l", "latency"),
        bindings.sort_by("results", "t", "time"),
        Binding("d", "toggle_doubtful", "Doubtful only", id="results.doubtful"),
        bindings.refresh("results"),
    ]

    def __init__(self, *, model_id: str | None = None, run_id: str | None = None) -> None:
        super().__init__()
        if (model_id is None) == (run_id is None):
            raise ValueError("give exactly one of model_id or run_id")
        self.model_id = model_id
        self.run_id = run_id
        self.results: list[Result] = []
        self.doubts: dict[str, list[ResultDoubt]] = {}
        self.eval_names: dict[str, str] = {}
        self.sort_key: SortKey = "score"
        self.descending = _DEFAULT_DESCENDING["score"]
        self.doubtful_only = False
        self.loaded = False

    @property
    def subject(self) -> str:
        if self.run_id is not None:
            return f"run {one_line(self.run_id, max_len=60)}"
        return f"model {one_line(self.model_id, max_len=60)}"

    def first_caption(self) -> str:
        return f"loading results of {self.subject}…"

    def first_columns(self) -> list[tuple[str, str]]:
        columns = [
            ("Time (UTC)", "time"),
            ("Eval", "eval"),
            ("Model", "model"),
            ("Score", "score"),
            ("Judge", "doubt"),
            ("Latency", "latency"),
            ("Reply", "reply"),
            ("Error", "error"),
        ]
        # One model's results: the header names it, so no Model column.
        return [(label, key) for label, key in columns if key != "model" or self.run_id is not None]

    def on_mount(self) -> None:
        self.load()

    @platform_work(exclusive=True, group="results.load", offline=(CAPTION_ID, "offline: results need the platform"))
    async def load(self, client: BlahClient) -> None:
        summary = self.caption
        try:
            if self.run_id is not None:
                results = await client.run_results(self.run_id)
            else:
                assert self.model_id is not None
                results = await client.list_results(self.model_id)
        except BlahError as error:
            summary.say(f"couldn't load results of {self.subject}: {describe_error(error)}", error=True)
            raise
        summary.set_class(False, "error")
        try:
            self.eval_names = {e.id: e.name or e.id for e in await client.list_evals()}
        except BlahError:
            self.eval_names = {}  # eval ids are shown instead
        self.results = results
        self.doubts = judgement_doubts(results)
        self.loaded = True
        self.render_rows()

    def visible_results(self) -> list[Result]:
        rows = [r for r in self.results if not self.doubtful_only or r.id in self.doubts]
        return sort_results(rows, self.sort_key, descending=self.descending, eval_names=self.eval_names)

    def render_rows(self) -> None:
        table = self.table
        keep = table.current_key
        table.clear()
        variables = self.app.get_css_variables()
        warn = tone_style("warning", variables, bold=True)
        rows = self.visible_results()
        for result in rows:
            doubts = self.doubts.get(result.id)
            cells = [
                Text(fmt_time(result.created_at)),
                cell(self.eval_names.get(result.eval_id or "", result.eval_id), max_len=26),
                cell(result.model_id, max_len=22),
                Text(fmt_score(result.score)),
                Text(f"⚑ {DOUBT_LABELS.get(doubts[0].kind, doubts[0].kind)}", style=warn) if doubts else Text(""),
                Text(format_latency(result.latency_ms)),
                reply_cell(result.response, max_len=34),
                cell(result.error, max_len=30),
            ]
            if self.run_id is None:
                del cells[2]
            table.add_row(*cells, key=result.id)
        table.move_to_key(keep)
        arrow = "↓" if self.descending else "↑"
        if not self.results:
            text = Text(f"the platform returned no results for {self.subject}")
        else:
            text = Text(f"{plural(len(self.results), 'result')} of {self.subject} · sorted by {self.sort_key} {arrow}")
            doubted = sum(1 for r in self.results if r.id in self.doubts)
            text.append(f" · {plural(doubted, 'verdict')} worth doubting (⚑)", style=warn if doubted else "")
            if self.doubtful_only:
                text.append(f" · showing those only ({len(rows)})")
            if self.run_id is None:  # one model: its mean per run, each with its interval
                from application.leaderboard.error_bars import mean_cell, run_estimates

                per_run = [
                    f"{one_line(run_id, max_len=30)} {mean_cell(estimate)}"
                    for run_id, estimate in run_estimates(self.results)[:4]
                ]
                if per_run:
                    text.append("\nmean score [95% CI] by run, newest first: " + " · ".join(per_run))
        self.caption.update(text)

    # ----------------------------------------------------------------- actions

    def action_sort(self, key: SortKey) -> None:
        if key == self.sort_key:
            self.descending = not self.descending
        else:
            self.sort_key, self.descending = key, _DEFAULT_DESCENDING[key]
        self.render_rows()

    def action_toggle_doubtful(self) -> None:
        self.doubtful_only = not self.doubtful_only
        self.render_rows()

    def action_refresh(self) -> None:
        self.load()

    def action_open(self) -> None:
        key = self.table.current_key
        result = next((r for r in self.results if r.id == key), None)
        if result is None:
            return
        from tui.screens.runs.results_detail import ResultDetailScreen

        self.app.push_screen(
            ResultDetailScreen(result.id, initial=result, eval_name=self.eval_names.get(result.eval_id or ""))
        )
