"""The Leaderboard screen (key 4): each model's standing, the person's model highlighted,
its change since that model's previous run, and a bar chart; beside it, the "Community board"
tab (``community.py``): a Blobfish benchmark's self-run rows, never drawn as a leaderboard.

The standings (best first, each model's change since its previous completed run) come from
``application.leaderboard.standings``, which `blah-tui leaderboard` prints too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, TabbedContent, TabPane

from api_client.errors import BlahError
from application.leaderboard.error_bars import mde_sentence, mean_cell, method_sentence, tier_cell, tier_sentence
from application.leaderboard.standings import ModelHistory, Standing, load_board, mean_score, model_history, standings
from common.format import plural
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from tui.cell_format import DASH, fmt_score, fmt_time, short, tone_style
from tui.platform_work import platform_work
from tui.screens.leaderboard.community import CommunityBoard
from widgets.footer import KeyFooter
from widgets.interval_strip import IntervalStrip, StripRow
from widgets.key_table import KeyTable
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient
    from diagnosis.board_reading import BoardReading

__all__ = ["LeaderboardScreen", "ModelHistory", "Standing", "mean_score", "model_history", "standings"]


class LeaderboardScreen(bindings.RowAction, BlahScreen):
    """Standings; Enter opens a model's results, ``c`` compares it with yours, ``h`` its health."""

    SCREEN_TITLE = "Leaderboard"
    DEFAULT_CSS = """
    LeaderboardScreen TabPane { padding: 0; }
    LeaderboardScreen #lb-caption { height: auto; padding: 0 1; }
    LeaderboardScreen #lb-caption.error { color: $error; }
    LeaderboardScreen #lb-body { height: 1fr; layout: vertical; }
    LeaderboardScreen #lb-table { width: 1fr; height: auto; max-height: 60%; }
    LeaderboardScreen #lb-chart { width: 1fr; height: auto; margin-top: 1; }
    LeaderboardScreen.-narrow #lb-table { height: 1fr; max-height: 100%; }
    LeaderboardScreen.-narrow #lb-chart { display: none; }
    """
    # The interval strip goes below the table; narrower than 156 columns it is left out (the
    # table's interval and tier columns say the same, and 24 lines hold no more) and the table
    # scrolls sideways to its last column.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (156, "-wide")]

    ROW_ACTION = "results"  # a chosen row (Enter, a click) does what Enter does
    BINDINGS = [
        Binding("enter", "results", "Results", id="leaderboard.results"),
        Binding("c", "compare", "Compare with mine", id="leaderboard.compare"),
        Binding("h", "health", "Health", id="leaderboard.health"),
        Binding("p", "publish", "Publish a suite run", id="leaderboard.publish"),
        bindings.delete("leaderboard", "delete", "Delete mine"),
        Binding("b", "benchmark", "Benchmark", id="leaderboard.benchmark"),
        bindings.refresh("leaderboard"),
        *bindings.tabs("leaderboard"),
    ]
    TABS = ("lb-tab-blah", "lb-tab-community")
    BLAH_ACTIONS = frozenset({"results", "compare", "health"})
    COMMUNITY_ACTIONS = frozenset({"publish", "delete", "benchmark"})

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Standing] = []
        self.reading: BoardReading | None = None  # intervals, tiers, MDE (application.leaderboard.error_bars)
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with TabbedContent(id="lb-tabs"):
            with TabPane("blah.dev leaderboard", id="lb-tab-blah"):
                yield Static(Text("loading the leaderboard…"), id="lb-caption")
                with Vertical(id="lb-body"):
                    yield KeyTable(
                        id="lb-table",
                        columns=(
                            ("#", "rank"),
                            ("Model", "model"),
                            ("Mean [95% CI]", "avg"),
                            ("Tier", "tier"),
                            ("Δ vs previous", "change"),
                            ("Evals", "evals"),
                            ("Last run (UTC)", "last"),
                        ),
                    )
                    yield IntervalStrip(id="lb-chart")
            with TabPane("Community board · Blobfish", id="lb-tab-community"):
                yield CommunityBoard(id="lb-community")
        yield KeyFooter()

    # ----------------------------------------------------------------- tabs

    @property
    def community(self) -> CommunityBoard:
        return self.query_one("#lb-community", CommunityBoard)

    @property
    def on_community_tab(self) -> bool:
        tabs = self.query("#lb-tabs").results(TabbedContent)
        return any(t.active == "lb-tab-community" for t in tabs)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.BLAH_ACTIONS:
            return not self.on_community_tab
        if action in self.COMMUNITY_ACTIONS:
            return self.on_community_tab
        return super().check_action(action, parameters)

    def action_tab(self, step: int) -> None:
        tabs = self.query_one("#lb-tabs", TabbedContent)
        tabs.active = self.TABS[(self.TABS.index(tabs.active) + step) % len(self.TABS)]

    @on(TabbedContent.TabActivated, "#lb-tabs")
    def _tab_activated(self) -> None:
        self.refresh_bindings()
        if self.on_community_tab:
            self.community.activate()
        else:
            self.query_one("#lb-table", KeyTable).focus()

    def action_publish(self) -> None:
        self.community.publish()

    def action_delete(self) -> None:
        self.community.delete()

    def action_benchmark(self) -> None:
        self.query_one("#cb-slug").focus()

    def on_mount(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        if self.on_community_tab:
            if self.community.loaded and not self.community.busy:
                self.community.load()  # back from a dialog or another area: rows may have changed
        elif self.loaded:
            self.load()  # back on this screen: a run may have completed meanwhile

    def on_model_switched(self, model_id: str) -> None:
        """The app is now about another model: show this screen for it."""
        self.load()

    @platform_work(
        exclusive=True, group="leaderboard.load", offline=("lb-caption", "offline: the leaderboard needs the platform")
    )
    async def load(self, client: BlahClient) -> None:
        caption = self.query_one("#lb-caption", Static)
        try:
            board = await load_board(client)
        except BlahError as error:
            caption.set_class(True, "error")
            caption.update(Text(f"couldn't load the leaderboard: {describe_error(error)}"))
            raise
        caption.set_class(False, "error")
        note = ""
        if board.runs_problem is not None:
            note = f" · couldn't load the runs, so no change is shown: {describe_error(board.runs_problem)}"
        self.rows = board.rows
        self.reading = board.reading
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
        reading = self.reading
        by_model = {e.model: e for e in reading.entries} if reading is not None else {}
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
                Text(
                    mean_cell(board.estimate, entry.avg_score)
                    if (board := by_model.get(entry.model_id))
                    else fmt_score(entry.avg_score)
                ),
                Text(
                    tier_cell(board, reading) if board is not None and reading is not None else DASH,
                    style="bold" if board is not None and board.tier == 1 else "",
                ),
                change,
                Text(DASH if entry.eval_count is None else str(entry.eval_count)),
                Text(fmt_time(entry.last_run_at)),
                key=entry.model_id,
            )
        table.move_to_key(keep)
        if keep is None and own in {r.entry.model_id for r in self.rows}:
            table.move_to_key(own)
        self.query_one("#lb-chart", IntervalStrip).set_rows(self._strip_rows(own))
        caption = Text(end="")
        if not self.rows:
            caption.append("the platform returned no leaderboard entries")
        else:
            caption.append(
                f"{plural(len(self.rows), 'model')} · each one's mean score over its own latest completed run; Δ is "
                "the change since its run before that"
            )
            mine_row = next((r for r in self.rows if r.entry.model_id == own), None)
            history = mine_row.history if mine_row is not None else None
            if mine_row is None:
                caption.append(" · your model has no completed run on the board", style="italic")
            elif history is not None and history.current_run is not None:
                caption.append(f" · yours: {one_line(history.current_run.id, max_len=40)}")
                if history.previous_run is not None:
                    caption.append(f" vs {one_line(history.previous_run.id, max_len=40)}")
        caption.append(note)
        if self.rows and reading is not None:
            names = {r.entry.model_id: one_line(r.entry.model_name or r.entry.model_id, max_len=40) for r in self.rows}
            caption.append("\n" + tier_sentence(reading, names))
            caption.append(f"\n{mde_sentence(reading)} · {method_sentence(reading)}", style="italic")
        self.query_one("#lb-caption", Static).update(caption)

    def _strip_rows(self, own: str | None) -> list[StripRow]:
        """The board's means and intervals, tier by tier (the chart beside the table)."""
        reading = self.reading
        if reading is None:
            return []
        names = {r.entry.model_id: r.entry.model_name or r.entry.model_id for r in self.rows}
        rows: list[StripRow] = []
        last_tier: int | None = 0
        for entry in reading.entries:
            group = None
            if entry.tier != last_tier:
                group = (
                    "tier 1 · tied with the leader within noise"
                    if entry.tier == 1
                    else f"tier {entry.tier}"
                    if entry.tier is not None
                    else "average only: no per-item scores"
                )
                last_tier = entry.tier
            rows.append(
                StripRow(
                    names.get(entry.model, entry.model),
                    entry.mean,
                    entry.estimate.interval if entry.estimate is not None else None,
                    group,
                    highlight=entry.model == own,
                )
            )
        return rows

    # ----------------------------------------------------------------- actions

    def _current_model(self) -> str | None:
        return self.query_one("#lb-table", KeyTable).current_key

    def action_results(self) -> None:
        model = self._current_model()
        if model is not None:
            from tui.screens.runs.results import ResultsScreen

            self.app.push_screen(ResultsScreen(model_id=model))

    def action_compare(self) -> None:
        model = self._current_model()
        from tui.screens.compare.screen import CompareScreen

        peers = [model] if model and model != self.ctx.model_id else None
        self.app.push_screen(CompareScreen(peers=peers))

    def action_health(self) -> None:
        from tui.screens.health.screen import HealthScreen

        self.app.push_screen(HealthScreen(model_id=self._current_model() or self.ctx.model_id))

    def action_refresh(self) -> None:
        if self.on_community_tab:
            self.community.load()
        else:
            self.load()
