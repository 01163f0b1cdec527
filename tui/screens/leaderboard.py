"""The Leaderboard screen (key 4): standings of the latest run, the person's model highlighted,
the change since the previous run, and a bar chart.

The platform's leaderboard covers the latest completed run only. The change is computed here:
the previous completed run (by completion time) is fetched and each model's mean score over
its scored results there is compared with its ``avg_score`` now. When there is no previous
run, or a model was not in it, the screen says so instead of showing a number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from api_client.errors import BlahError
from api_client.models import LeaderboardEntry, Result, Run
from tui.screens.base import BlahScreen, describe_error
from tui.screens.runs_format import DASH, fmt_score, fmt_time, short, tone_style
from tui.screens.runs_table import KeyTable
from widgets.footer import KeyFooter
from widgets.plots import BarChart
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["LeaderboardScreen", "Standing", "average_by_model", "pick_runs", "standings"]


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entry: LeaderboardEntry
    previous_avg: float | None  # this model's mean score in the previous run (None: not there/unscored)
    previous_rank: int | None
    compared: bool  # False when there is no previous run to compare with

    @property
    def change(self) -> float | None:
        if self.entry.avg_score is None or self.previous_avg is None:
            return None
        return self.entry.avg_score - self.previous_avg

    def change_text(self) -> str:
        if not self.compared:
            return "no previous run"
        if self.previous_avg is None:
            return "new (not in previous run)"
        change = self.change
        if change is None:
            return DASH
        rank = ""
        if self.previous_rank is not None and self.previous_rank != self.rank:
            rank = f"  (was #{self.previous_rank})"
        shown = "±0.00" if abs(change) < 0.005 else f"{change:+.2f}"
        return f"{shown}{rank}"


def _completion_key(run: Run) -> tuple[int, int]:
    done = run.completed_at if isinstance(run.completed_at, int) else -1
    start = run.started_at if isinstance(run.started_at, int) else -1
    return (done, start)


def pick_runs(entries: Sequence[LeaderboardEntry], runs: Sequence[Run]) -> tuple[Run | None, Run | None]:
    """(the run the leaderboard shows, the completed run before it), each None when unknown.

    The leaderboard's run is the completed run whose ``completed_at`` equals the entries'
    ``last_run_at``; failing that, the latest completed run.
    """
    completed = sorted((r for r in runs if r.status == "completed"), key=_completion_key, reverse=True)
    if not completed:
        return None, None
    stamps = {e.last_run_at for e in entries if e.last_run_at is not None}
    current = next((r for r in completed if r.completed_at in stamps), completed[0])
    index = completed.index(current)
    previous = completed[index + 1] if index + 1 < len(completed) else None
    return current, previous


def average_by_model(results: Iterable[Result]) -> dict[str, float]:
    """Mean score per model over scored results (models with none scored are absent)."""
    sums: dict[str, list[float]] = {}
    for result in results:
        if result.model_id and result.score is not None:
            sums.setdefault(result.model_id, []).append(result.score)
    return {model: sum(scores) / len(scores) for model, scores in sums.items()}


def standings(entries: Sequence[LeaderboardEntry], previous: dict[str, float] | None) -> list[Standing]:
    """Entries in the platform's order with rank and change (``previous`` None: no previous run)."""
    prev_rank: dict[str, int] = {}
    if previous is not None:
        for i, (model, _avg) in enumerate(sorted(previous.items(), key=lambda kv: (-kv[1], kv[0])), start=1):
            prev_rank[model] = i
    return [
        Standing(
            rank=i,
            entry=entry,
            previous_avg=None if previous is None else previous.get(entry.model_id),
            previous_rank=prev_rank.get(entry.model_id),
            compared=previous is not None,
        )
        for i, entry in enumerate(entries, start=1)
    ]


class LeaderboardScreen(BlahScreen):
    """Standings; Enter opens a model's results, ``c`` compares it with yours, ``h`` its health."""

    SCREEN_TITLE = "Leaderboard"
    DEFAULT_CSS = """
    LeaderboardScreen #lb-caption { height: auto; padding: 0 1; }
    LeaderboardScreen #lb-caption.error { color: $error; }
    LeaderboardScreen #lb-body { height: 1fr; }
    LeaderboardScreen #lb-table { width: 1fr; height: 1fr; }
    LeaderboardScreen #lb-chart { width: 1fr; height: 1fr; }
    """

    BINDINGS = [
        Binding("enter", "results", "Results", id="leaderboard.results"),
        Binding("c", "compare", "Compare with mine", id="leaderboard.compare"),
        Binding("h", "health", "Health", id="leaderboard.health"),
        Binding("r", "refresh", "Refresh", id="leaderboard.refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Standing] = []
        self.current_run: Run | None = None
        self.previous_run: Run | None = None
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("loading the leaderboard…"), id="lb-caption")
        with Horizontal(id="lb-body"):
            table = KeyTable(id="lb-table")
            for label, key in (("#", "rank"), ("Model", "model"), ("Avg score", "avg"),
                               ("Δ vs previous run", "change"), ("Evals", "evals")):
                table.add_column(label, key=key)
            yield table
            yield BarChart("avg score", horizontal=True, id="lb-chart")
        yield KeyFooter()

    def on_mount(self) -> None:
        model_signal = getattr(self.app, "model_signal", None)
        if model_signal is not None:
            model_signal.subscribe(self, self._on_model_event)
        self.load()

    def on_screen_resume(self) -> None:
        if self.loaded:
            self.load()  # back on this screen: a run may have completed meanwhile

    def _on_model_event(self, event: object) -> None:
        """The app is now about another model: show this screen for it."""
        if getattr(event, "kind", None) == "switched":
            self.load()

    @work(exclusive=True, group="leaderboard.load", exit_on_error=False)
    async def load(self) -> None:
        client = self.ctx.client
        caption = self.query_one("#lb-caption", Static)
        if client is None:
            caption.update(Text("offline: the leaderboard needs the platform"))
            return
        try:
            entries = await client.leaderboard()
        except BlahError as error:
            caption.set_class(True, "error")
            caption.update(Text(f"couldn't load the leaderboard: {describe_error(error)}"))
            raise
        caption.set_class(False, "error")
        note = ""
        previous_avgs: dict[str, float] | None = None
        try:
            runs = await client.list_runs()
            self.current_run, self.previous_run = pick_runs(entries, runs)
            if self.previous_run is not None:
                previous_avgs = average_by_model(await client.run_results(self.previous_run.id))
        except BlahError as error:
            self.current_run = self.previous_run = None
            note = f" · couldn't load the previous run: {describe_error(error)}"
        self.rows = standings(entries, previous_avgs)
        self.loaded = True
        self._show_data(note)

    def _show_data(self, note: str) -> None:
        own = self.ctx.model_id
        variables = self.app.get_css_variables()
        mine = tone_style("accent", variables, bold=True)
        up, down = tone_style("success", variables), tone_style("error", variables)
        table = self.query_one("#lb-table", KeyTable)
        keep = table.current_key
        table.clear()
        for row in self.rows:
            entry = row.entry
            name = short(entry.model_name or entry.model_id, 40)
            model = Text(name, style=mine if entry.model_id == own else "", end="")
            if entry.model_id == own:
                model.append(" ◀ you", style=mine)
            change = Text(row.change_text(), end="")
            if row.change is not None and abs(row.change) >= 0.005:
                change.stylize(up if row.change > 0 else down)
            table.add_row(
                Text(str(row.rank), style=mine if entry.model_id == own else ""),
                model,
                Text(fmt_score(entry.avg_score)),
                change,
                Text(DASH if entry.eval_count is None else str(entry.eval_count)),
                key=entry.model_id,
            )
        table.move_to_key(keep)
        if keep is None and own in {r.entry.model_id for r in self.rows}:
            table.move_to_key(own)
        labels = [short(r.entry.model_name or r.entry.model_id, 24) for r in self.rows]
        own_label = next(
            (label for label, r in zip(labels, self.rows, strict=True) if r.entry.model_id == own), None
        )
        self.query_one("#lb-chart", BarChart).set_data(
            labels, [r.entry.avg_score for r in self.rows], highlight=own_label
        )
        caption = Text(end="")
        if not self.rows:
            caption.append("the platform returned no leaderboard entries")
        else:
            current = self.current_run
            caption.append("Standings of the latest completed run")
            if current is not None:
                caption.append(f" ({one_line(current.id, max_len=40)}, completed {fmt_time(current.completed_at)})")
            if self.previous_run is not None:
                caption.append(
                    f" · change vs run {one_line(self.previous_run.id, max_len=40)} "
                    f"(completed {fmt_time(self.previous_run.completed_at)}), its mean score per model"
                )
            else:
                caption.append(" · no previous run to compare with")
            if own not in {r.entry.model_id for r in self.rows}:
                caption.append(" · your model is not in this run", style="italic")
        caption.append(note)
        self.query_one("#lb-caption", Static).update(caption)

    # ----------------------------------------------------------------- actions

    def _current_model(self) -> str | None:
        return self.query_one("#lb-table", KeyTable).current_key

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_results()

    def action_results(self) -> None:
        model = self._current_model()
        if model is not None:
            from tui.screens.results import ResultsScreen

            self.app.push_screen(ResultsScreen(model_id=model))

    def action_compare(self) -> None:
        model = self._current_model()
        from tui.screens.compare import CompareScreen

        peers = [model] if model and model != self.ctx.model_id else None
        self.app.push_screen(CompareScreen(peers=peers))

    def action_health(self) -> None:
        from tui.screens.health import HealthScreen

        self.app.push_screen(HealthScreen(model_id=self._current_model() or self.ctx.model_id))

    def action_refresh(self) -> None:
        self.load()
