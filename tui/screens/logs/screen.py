"""The Logs screen (key 1, the app's home): the model's calls, live.

Top to bottom: the status header; the platform's totals (``stats=true``); the tail's state;
latency and error-rate plots over time (``p`` hides them); the active filters and follow state;
the list (``LogList``, fed from the archive's windowed queries so a million rows paint as fast
as a hundred); the search box (``/``). Enter opens the Inspector on the highlighted call.

Data lives in ``application.logs.feed.LogsFeed``, loaded by ``workers.LogsLoader`` (which this
module holds the layout, the labels and the keys.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from api_client.archives.archive import LogFilter
from application.logs.feed import FeedSettings, LogsFeed
from application.logs.rows import LogRows
from application.session.settings.timezone import screen_tz
from common.format import DASH
from tui import bindings
from tui.base_screen import BlahScreen
from tui.screens.logs.status import TailStateLine, TotalsLine, matches_text, platform_matches
from tui.screens.logs.workers import LogsLoader
from widgets.badges import badge_text
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.log_list import LogList
from widgets.plots import TimeSeriesPlot
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["BADGE_CYCLE", "SOURCE_CYCLE", "LogsScreen", "screen_tz"]

SOURCE_CYCLE: tuple[str | None, ...] = (None, "eval", "chatroom", "chat", "test")
BADGE_CYCLE: tuple[str | None, ...] = (
    None,
    "error",
    "empty",
    "loop",
    "truncation",
    "continuation",
    "refusal",
    "template_mismatch",
    "template_leak",
    "wrong_answer",
)
PLOT_ROWS = 2000
"""The plot is drawn from the newest this-many rows of the current view."""
PLOTS_MIN_HEIGHT = 36
"""Terminals shorter than this fold the plots (11 lines) unless ``p`` asks for them: at 80x24
they would leave the list 7 rows."""


def _next(cycle: tuple[str | None, ...], current: str | None) -> str | None:
    try:
        return cycle[(cycle.index(current) + 1) % len(cycle)]
    except ValueError:
        return cycle[0]


class LogsScreen(BlahScreen):
    """The model's calls: totals, live tail, filters and search, history on demand."""

    SCREEN_TITLE = "Logs"

    DEFAULT_CSS = """
    LogsScreen #logs-totals, LogsScreen #logs-tail, LogsScreen #logs-filters {
        height: 1;
        padding: 0 1;
    }
    LogsScreen #logs-filters { background: $panel; }
    LogsScreen #logs-plots { height: 11; }
    LogsScreen #logs-plots.hidden { display: none; }
    LogsScreen #logs-plots TimeSeriesPlot { width: 1fr; }
    LogsScreen #logs-message { height: auto; padding: 0 1; color: $foreground-muted; }
    LogsScreen #logs-message.hidden { display: none; }
    LogsScreen #logs-search { display: none; }
    LogsScreen #logs-search.shown { display: block; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        bindings.follow("logs", "Live", show=False),  # the list shows End: Live
        Binding("s", "cycle_source", "Source", id="logs.source"),
        Binding("e", "toggle_errors", "Errors only", id="logs.errors_only"),
        Binding("b", "cycle_badge", "Badge", id="logs.badge"),
        bindings.search("logs"),
        Binding("x", "clear_filters", "Clear filters", id="logs.clear_filters"),
        Binding("escape", "escape", "Close search", show=False, id="logs.escape"),
        Binding("p", "toggle_plot", "Plot", id="logs.plot"),
        Binding("r", "refresh_totals", "Totals", show=False, id="logs.refresh_totals"),
    ]

    # ------------------------------------------------------------------ layout

    AUTO_FOCUS = "#logs-list"
    """Not Textual's first focusable widget: that is the (hidden) search box, and a key pressed
    while the screen opens would be typed into it."""

    _plot_choice: bool | None = None
    """``p`` shows or hides the plots whatever the terminal's height; None: by the height."""

    def __init__(self) -> None:
        super().__init__()
        self.loader = LogsLoader(self)
        """The rows, the feed, the filter and the workers that fill them (``workers.py``)."""
        self._leaving = False  # (not Textual's own _closing)

    @property
    def feed(self) -> LogsFeed | None:
        """The calls this screen shows (the loader's feed)."""
        return self.loader.feed

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # The loader's workers report the connection themselves (a caught error still ends in
        # SUCCESS, and filtering or badges make no request): only failures reach BlahScreen.
        if event.state is WorkerState.SUCCESS and event.worker.group.startswith("logs-"):
            event.prevent_default()

    def _gone(self) -> bool:
        """The screen is being taken down (its widgets may already be removed, the app may be
        quitting): a worker coming back from a wait stops here instead of touching them."""
        # Textual marks every node of a subtree _pruning before it removes any of them one by
        # one: checking it (not which widgets are left) is exact at any point of the removal.
        return self._leaving or self._pruning or self._closing or not self.is_attached or not self.query("#logs-list")

    def compose(self) -> ComposeResult:
        tz = screen_tz(self.ctx.settings)
        yield StatusHeader()
        yield TotalsLine(id="logs-totals", markup=False)
        yield TailStateLine(id="logs-tail", markup=False)
        with Horizontal(id="logs-plots"):
            yield TimeSeriesPlot("latency (mean per bucket)", y_label="ms", tz=tz, id="plot-latency")
            yield TimeSeriesPlot("failed calls", y_label="%", tz=tz, y_range=(0.0, 100.0), id="plot-errors")
        yield Static(id="logs-filters", markup=False)
        yield Input(placeholder="search prompts, replies and errors (all words must match)", id="logs-search")
        yield Caption(id="logs-message")
        yield LogList(id="logs-list", tz=tz)
        yield KeyFooter()

    @property
    def log_list(self) -> LogList:
        return self.query_one("#logs-list", LogList)

    @property
    def rows(self) -> LogRows | None:
        return None if self.loader.feed is None else self.loader.feed.rows

    def on_mount(self) -> None:
        if not self.ctx.settings.logs_plot:
            self._plot_choice = False
        self._fit_plots(self.app.size.height)
        self.log_list.focus()
        self._update_totals()
        self._update_filters()
        self._set_message("loading the latest calls…")
        self.loader.feed = LogsFeed(self.ctx, FeedSettings.from_settings(self.ctx.settings))
        self.set_interval(1.0, self._update_tail)
        self.loader.boot()

    def on_model_switched(self, model_id: str) -> None:
        if self.loader.feed is not None and self.loader.feed.model_id != model_id:
            self.reload()

    def reload(self) -> None:
        """Start over for the session's (new) model: storage, totals, tail, history."""
        self.workers.cancel_node(self)
        if self.loader.feed is not None:
            self.loader.feed.close()
        self.loader.start_over(LogsFeed(self.ctx, FeedSettings.from_settings(self.ctx.settings)))
        self.log_list.has_older = True
        self.log_list.set_rows([], follow=True)
        self._refresh_view()
        self._update_plot()
        self.loader.boot()

    def on_unmount(self) -> None:
        self._leaving = True
        if self.loader.feed is not None:
            self.loader.feed.close()

    # ------------------------------------------------------------------ rows on screen

    def _show_rows(self, rows: LogRows, *, follow: bool) -> None:
        self.log_list.set_rows(rows, follow=follow)
        self.loader.note_shown(rows)
        self._update_message()
        # The plots follow the rows' frame: the rows are what a person reads first, and the first
        # plot with data costs ~80 ms (plotext is imported then). Not call_after_refresh: the
        # screen runs those at once while the list has not yet asked to be drawn (it asks once
        # its own messages are handled), so the plot went first; nor a timer, which a loaded
        # machine fired before the rows' frame: the list says when that frame has gone out.
        self.log_list.call_after_paint(self._update_plot_if_here)

    def _update_plot_if_here(self) -> None:
        if self.is_mounted and not self._gone():
            self._update_plot()

    # ------------------------------------------------------------------ tail state

    def _update_tail(self) -> None:
        if not self.is_mounted or self._gone():
            return
        feed = self.loader.feed
        state = self.loader.tail_state if feed is None else (feed.tail_state() or self.loader.tail_state)
        retry_left = None
        if state is not None and state.retry_in is not None:
            retry_left = state.retry_in - (time.monotonic() - self.loader.tail_state_at)
        note = None
        if feed is not None and feed.archive is None and not (feed.offline):
            note = "no archive: calls kept in memory"
        line = self.query_one("#logs-tail", TailStateLine)
        if self.ctx.client is None and self.ctx.offline_source is None:
            line.show_offline()
            return
        line.show(
            state,
            offline_source=self.ctx.offline_source if self.ctx.client is None else None,
            retry_left=retry_left,
            archive_note=note,
        )

    # ------------------------------------------------------------------ labels

    def _update_totals(self) -> None:
        totals = self.query_one("#logs-totals", TotalsLine)
        totals.show(self.loader.stats, error=self.loader.stats_error, offline=self.ctx.client is None)

    def _refresh_view(self) -> None:
        self._update_totals()
        self._update_tail()
        self._update_filters()
        self._update_message()

    def _update_filters(self) -> None:
        flt = self.loader.filter
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("source ", style="dim")
        text.append(one_line(flt.source, max_len=20) if flt.source else "all", style="bold")
        text.append("  errors only ", style="dim")
        text.append("on" if flt.errors_only else "off", style="bold")
        text.append("  badge ", style="dim")
        if flt.badge:
            text.append_text(badge_text(flt.badge))
        else:
            text.append("any", style="bold")
        text.append("  search ", style="dim")
        text.append(f"“{one_line(flt.text, max_len=40)}”" if flt.text else DASH, style="bold")
        rows, feed = self.rows, self.loader.feed
        if rows is not None and feed is not None:
            complete = feed.history_complete_for(rows.filter)
            platform = platform_matches(self.loader.stats, rows.filter)
            filtered = rows.filter != LogFilter()
            text.append(f"  │ {matches_text(len(rows), platform, filtered=filtered, complete=complete)}", style="dim")
        text.append("  │ ")
        log_list = self.log_list
        if self.ctx.client is None:
            text.append("at the newest call" if log_list.following else "reading (End: newest)")
        elif log_list.following:
            text.append("● following new calls", style="bold")
        else:
            count = log_list.new_since_pause
            text.append(f"⏸ paused: {count:,} new" if count else "⏸ paused", style="bold")
            text.append(" (f: back to live)", style="dim")
        for note in (self.loader.older_note, self.loader.badges_note):
            if note:
                text.append(f"  │ {note}", style="italic")
        self.query_one("#logs-filters", Static).update(text, layout=False)

    def _set_message(self, message: str | None, *, error: bool = False) -> None:
        widget = self.query_one("#logs-message", Caption)
        widget.set_class(message is None, "hidden")
        widget.say(message or "", error=error)

    def _update_message(self) -> None:
        rows = self.rows
        if rows is None or (not self.loader.loaded and len(rows) == 0):
            self._set_message("loading the latest calls…")
        elif len(rows):
            self._set_message(None)
        elif self.loader.load_error:
            self._set_message(f"couldn't load: {self.loader.load_error}", error=True)
        elif rows.filter != LogFilter():
            self._set_message("no calls match these filters (x clears them)")
        elif self.ctx.client is None:
            self._set_message("the file holds no calls")
        else:
            self._set_message("the platform returned no calls for this model yet; new ones will appear here")

    def _update_plot(self) -> None:
        """Redraw the plots from the newest rows of the view (not while they are hidden)."""
        if self.query_one("#logs-plots").has_class("hidden"):
            self.loader.plot_stale = True
            return
        from application.logs.series import bucket_calls  # the plots' first data comes after the rows' frame

        self.loader.plot_stale = False
        rows = self.rows
        self.loader.last_plot = time.monotonic()
        points = (
            [] if rows is None else [(r.created_at, r.latency_ms, r.status == "error") for r in rows.newest(PLOT_ROWS)]
        )
        series = bucket_calls([(at, latency, failed) for at, latency, failed in points if at is not None])
        self.query_one("#plot-latency", TimeSeriesPlot).set_data(series.xs, series.mean_latency_ms)
        self.query_one("#plot-errors", TimeSeriesPlot).set_data(series.xs, series.error_rate_pct)

    # ------------------------------------------------------------------ list events

    @on(LogList.Selected)
    def _open_inspector(self, event: LogList.Selected) -> None:
        event.stop()
        from tui.screens.inspector.screen import InspectorScreen

        self.app.push_screen(
            InspectorScreen(event.entry_id, neighbours=self._neighbours, lookup=self._lookup),
            callback=self._back_from_inspector,
        )

    def _back_from_inspector(self, last_viewed: str | None) -> None:
        """The inspector closed on ``last_viewed`` (after ``n``/``p`` maybe not the call first
        opened): put the cursor on it, when the list still holds it."""
        rows = self.rows
        if last_viewed is None or rows is None or self._gone():
            return
        index = rows.position(last_viewed)
        if index is not None:
            self.log_list.move_cursor_to(index)

    def _neighbours(self, log_id: str) -> tuple[str | None, str | None]:
        rows = self.rows
        return (None, None) if rows is None else rows.neighbours(log_id)

    def _lookup(self, log_id: str) -> Any:
        rows = self.rows
        return None if rows is None else rows.find(log_id)

    @on(LogList.NewWhilePaused)
    def _new_while_paused(self, event: LogList.NewWhilePaused) -> None:
        event.stop()
        self._update_filters()

    @on(LogList.Highlighted)
    def _highlighted(self, event: LogList.Highlighted) -> None:
        self._update_filters()

    @on(LogList.NeedOlder)
    def _need_older(self, event: LogList.NeedOlder) -> None:
        event.stop()
        if event.to_oldest or not self.loader.to_oldest:  # (a scroll to the top while g loads all: nothing more)
            self.loader.load_older(to_oldest=event.to_oldest)

    # ------------------------------------------------------------------ actions

    def _set_filter(self, flt: LogFilter, *, debounce: float = 0.0) -> None:
        self.loader.filter = flt
        self._update_filters()
        self.loader.apply_filter(debounce)

    def action_follow(self) -> None:
        self.log_list.follow()
        self._update_filters()

    def action_cycle_source(self) -> None:
        self._set_filter(replace(self.loader.filter, source=_next(SOURCE_CYCLE, self.loader.filter.source)))

    def action_toggle_errors(self) -> None:
        self._set_filter(replace(self.loader.filter, errors_only=not self.loader.filter.errors_only))

    def action_cycle_badge(self) -> None:
        self._set_filter(replace(self.loader.filter, badge=_next(BADGE_CYCLE, self.loader.filter.badge)))

    def action_clear_filters(self) -> None:
        search = self.query_one("#logs-search", Input)
        search.value = ""
        self._set_filter(LogFilter())

    def action_search(self) -> None:
        search = self.query_one("#logs-search", Input)
        search.add_class("shown")
        search.focus()

    def action_escape(self) -> None:
        search = self.query_one("#logs-search", Input)
        if search.has_class("shown"):
            search.remove_class("shown")
            self.log_list.focus()

    def action_toggle_plot(self) -> None:
        self._plot_choice = self.query_one("#logs-plots").has_class("hidden")  # p wins over the height
        self._fit_plots(self.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_plots(event.size.height)

    def _fit_plots(self, height: int) -> None:
        """Show the plots when the person chose so (``p``), else when the terminal is tall
        enough for them and a list worth reading (``PLOTS_MIN_HEIGHT``)."""
        shown = self._plot_choice if self._plot_choice is not None else height >= PLOTS_MIN_HEIGHT
        plots = self.query_one("#logs-plots")
        if plots.has_class("hidden") != (not shown):
            plots.set_class(not shown, "hidden")
            if shown and self.loader.plot_stale:
                self._update_plot()

    def action_refresh_totals(self) -> None:
        self.loader.refresh_totals()

    @on(Input.Changed, "#logs-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        text = event.value if event.value.strip() else None
        if text != self.loader.filter.text:
            self._set_filter(replace(self.loader.filter, text=text), debounce=0.25)

    @on(Input.Submitted, "#logs-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value if event.value.strip() else None
        if text != self.loader.filter.text:
            self._set_filter(replace(self.loader.filter, text=text))
        event.input.remove_class("shown")
        self.log_list.focus()
