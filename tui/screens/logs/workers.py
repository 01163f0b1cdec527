"""The Logs screen's data side: its state and the workers that fill it (boot, tail, older
history, filters, totals, badges). ``LogsScreen`` (logs.py) adds the layout, the labels and
the keys, and implements the view hooks declared at the end of this class.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual import work
from textual.worker import Worker, WorkerState

from api_client.archives.archive import LogFilter
from api_client.blahdev.shapes import LogStats
from api_client.errors import BlahError
from application.logs.feed import LogsFeed
from application.logs.rows import LogRows, highlight_terms
from tui.base_screen import BlahScreen, describe_error
from tui.messages import ConnectionState
from widgets.log_list import LogList

__all__ = ["FILL_ROWS", "OLDER_PAGES", "PLOT_EVERY_S", "STATS_EVERY_S", "LogsWorkers"]

STATS_EVERY_S = 30.0
"""The platform's totals are asked again at most this often while calls arrive."""
PLOT_EVERY_S = 5.0
"""The plots are redrawn at most this often while calls arrive."""
OLDER_PAGES = 5
"""Pages of history asked for at most per step back (a filter may keep none of a page)."""
FILL_ROWS = 100
"""After a filter is set, older history is loaded until this many rows match (or it ends)."""


class LogsWorkers(BlahScreen):
    """State and workers of the Logs screen (see the module docstring)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # These workers report the connection themselves (a caught error still ends in
        # SUCCESS, and filtering or badges make no request): only failures reach BlahScreen.
        if event.state is WorkerState.SUCCESS and event.worker.group.startswith("logs-"):
            event.prevent_default()

    def __init__(self) -> None:
        super().__init__()
        self.feed: LogsFeed | None = None
        self.filter = LogFilter()
        self.stats: LogStats | None = None
        self._stats_error: str | None = None
        self._loaded = False
        self._load_error: str | None = None
        self._tail_state: Any = None
        self._tail_state_at = 0.0
        self._shown_count = 0
        self._shown_newest: int | None = None
        self._shown_first_id: str | None = None
        """The oldest row the list was told about (rows stored before it shift the list)."""
        self._last_stats = 0.0
        self._last_plot = 0.0
        self._older_note: str | None = None
        self._latest_retrying = False
        self._leaving = False  # (not Textual's own _closing)
        self._plot_stale = True
        self._to_oldest = False
        """True while ``g`` loads the whole history (a scroll to the top then asks nothing more)."""
        self._badges_note: str | None = None
        self.badges_ready = False
        """True once the stored badges follow today's rules (recomputed in the background)."""

    # ------------------------------------------------------------------ workers

    @work(exclusive=True, group="logs-boot")
    async def _boot(self) -> None:
        feed = self.feed
        assert feed is not None
        await feed.open()
        if self._gone():
            return
        for note in feed.notes:
            self.notify(note, title="Archive", severity="warning", markup=False, timeout=10)
        self.log_list.has_older = not feed.history_complete
        self._show_rows(feed.rows, follow=True)
        self._refresh_badges()
        if feed.rows.filter != self.filter:  # the person filtered while it was opening
            self._apply_filter()
        if feed.offline:
            self._loaded = True
            self._refresh_view()
            return
        try:
            self.stats = await feed.load_latest()
            self._stats_error = None
            self._last_stats = time.monotonic()
            self.blah_app.note_connection(None)
        except BlahError as error:
            self._stats_error = self._load_error = describe_error(error)
            self.blah_app.note_connection(error)
            self.notify(self._load_error, title="Couldn't load the latest calls", severity="error", markup=False)
        if self._gone():
            return
        self._loaded = True
        self._rows_grew()
        self._update_plot()
        self._refresh_view()
        self._run_tail()

    @work(exclusive=True, group="logs-badges")
    async def _refresh_badges(self) -> None:
        feed = self.feed
        if feed is None or not feed.badges_stale:
            self.badges_ready = True
            return
        self._badges_note = "computing badges…"
        self._update_filters()
        changed = await feed.refresh_badges()
        if self._gone():
            return
        self._badges_note = None
        if changed and feed is self.feed:
            feed.rows.refresh()
            self.log_list.set_rows(feed.rows, follow=self.log_list.following)
            self._shown_count = len(feed.rows)
            self._shown_first_id = feed.rows.row(0).id if len(feed.rows) else None
        self.badges_ready = True
        self._update_filters()

    @work(exclusive=True, group="logs-tail")
    async def _run_tail(self) -> None:
        feed = self.feed
        assert feed is not None

        def on_state(state: Any) -> None:
            if feed is self.feed:  # a tail of a previous model may still report as it stops
                self._on_tail_state(state)

        async for _new in feed.tail(on_state):
            if self._gone():
                return
            self._load_error = None
            self._rows_grew()
            now = time.monotonic()
            if now - self._last_stats > STATS_EVERY_S:
                self._last_stats = now
                self._refresh_totals()
        self._update_tail()

    @work(exclusive=True, group="logs-latest", exit_on_error=False)
    async def _retry_latest(self) -> None:
        """The newest page failed to load at start (e.g. the platform was unreachable) and the
        tail now reaches the platform: load it after all. Without this the list would only
        ever hold what arrives from now on, with the platform's history out of reach."""
        feed = self.feed
        if feed is None or feed.offline:
            return
        self._latest_retrying = True
        try:
            self.stats = await feed.load_latest()
        except BlahError as error:
            self._stats_error = describe_error(error)
            return
        finally:
            self._latest_retrying = False
        if self._gone():
            return
        self._stats_error = self._load_error = None
        self._last_stats = time.monotonic()
        self._rows_grew()
        self._update_plot()
        self._refresh_view()

    @work(exclusive=True, group="logs-totals")
    async def _refresh_totals(self) -> None:
        if self.feed is None or self.feed.offline:
            return
        try:
            self.stats = await self.feed.fetch_stats()
            if self._gone():
                return
            self._stats_error = None
            self.blah_app.note_connection(None)
        except BlahError as error:
            self._stats_error = describe_error(error)
            self.blah_app.note_connection(error)
        self._update_totals()

    @work(exclusive=True, group="logs-older")
    async def _load_older(self, *, to_oldest: bool = False, fill: int = 0) -> None:
        """Older history for the current filter, from the platform (asked for the filter's
        source and errors itself): by default until one more row matches (at most
        ``OLDER_PAGES`` pages); with ``fill`` until that many rows match (a filter was just
        set); with ``to_oldest`` all of it, then the cursor goes to the oldest (``g``)."""
        feed = self.feed
        if feed is None:
            return
        self._to_oldest = to_oldest
        try:
            await self._page_older(feed, to_oldest=to_oldest, fill=fill)
        finally:
            self._to_oldest = False

    async def _page_older(self, feed: LogsFeed, *, to_oldest: bool, fill: int) -> None:
        rows = feed.rows
        if feed.history_complete_for(rows.filter):
            self.log_list.has_older = False
            self._older_note = "start of the file" if feed.offline else "start of history reached"
            if to_oldest:
                self.log_list.move_cursor_to(0)
            self._update_filters()
            return
        self._older_note = "loading older calls…"
        self._update_filters()
        start = len(rows)
        done = False
        pages = idle_pages = 0
        try:
            while not done:
                added, done = await feed.older(rows.filter)
                if self._gone() or feed.rows is not rows:
                    return  # another filter took over: its own load follows
                pages += 1
                idle_pages = 0 if added else idle_pages + 1
                await feed.reload_rows()
                if self._gone() or feed.rows is not rows:
                    return
                self._take_prepended()
                if to_oldest:
                    self._older_note = f"loading older calls… {len(rows):,} loaded"
                    self._update_filters()
                    if idle_pages >= OLDER_PAGES:
                        break  # the platform keeps sending what is held: say so below
                elif pages >= OLDER_PAGES or len(rows) >= max(fill, start + 1):
                    break
        except BlahError as error:
            if self._gone():
                return
            self.blah_app.note_connection(error)
            self._older_note = f"couldn't load older calls: {describe_error(error)}"
            self.log_list.set_rows(rows, follow=False)  # re-arms NeedOlder for a retry
            self._update_filters()
            return
        self.blah_app.note_connection(None)
        self._older_note = None
        if done:
            self.log_list.has_older = False
            self._older_note = "start of history reached"
        elif len(rows) == start:
            self._older_note = "no older calls match the filters in the last pages; ↑ to look further"
            self.log_list.set_rows(rows, follow=False)
        if to_oldest:
            self.log_list.move_cursor_to(0)
        self._refresh_view()

    @work(exclusive=True, group="logs-filter")
    async def _apply_filter(self, debounce: float = 0.0) -> None:
        if debounce:
            await asyncio.sleep(debounce)
        if self.feed is None or not self._loaded_rows_ready():
            return
        wanted = self.filter
        rows = await self.feed.filtered(wanted)
        if wanted != self.filter or self._gone():
            return
        self.feed.rows = rows
        self.log_list.set_highlight(highlight_terms(wanted.text))
        complete = self.feed.history_complete_for(wanted)
        self.log_list.has_older = not complete
        self._older_note = None
        self._show_rows(rows, follow=True)
        self._refresh_view()
        if not complete and len(rows) < FILL_ROWS and wanted != LogFilter() and not self.feed.offline:
            self._load_older(fill=FILL_ROWS)  # the filter applies to the whole history

    def _gone(self) -> bool:
        """The screen is being taken down (its widgets may already be removed, the app may be
        quitting): a worker coming back from a wait stops here instead of touching them."""
        # Textual marks every node of a subtree _pruning before it removes any of them one by
        # one: checking it (not which widgets are left) is exact at any point of the removal.
        return (self._leaving or self._pruning or self._closing or not self.is_attached
                or not self.query("#logs-list"))

    def _loaded_rows_ready(self) -> bool:
        return self.feed is not None and self.feed.badges_fn is not None

    # ------------------------------------------------------------------ rows and tail

    def _rows_grew(self) -> None:
        """New entries were stored: show them without losing the reader's place."""
        feed = self.feed
        if feed is None:
            return
        previous_newest = self._shown_newest
        feed.rows.refresh()
        self._take_prepended()  # older history may have landed too: shift by it first
        newest = feed.rows.newest_ms()
        delta = len(feed.rows) - self._shown_count
        appended_at_end = previous_newest is None or (newest is not None and newest >= previous_newest)
        if delta > 0 and appended_at_end and self._tail_only_newer(previous_newest):
            self._shown_count = len(feed.rows)
            self._shown_newest = newest
            self.log_list.notify_appended(delta)
            if self._shown_first_id is None:  # the first rows of an empty list
                self._shown_first_id = feed.rows.row(0).id
        elif delta != 0:
            self._shown_count = len(feed.rows)
            self._shown_newest = newest
            self._shown_first_id = feed.rows.row(0).id if len(feed.rows) else None
            self.log_list.set_rows(feed.rows, follow=self.log_list.following)
        self._update_message()
        self._update_filters()
        now = time.monotonic()
        if now - self._last_plot > PLOT_EVERY_S:
            self._update_plot()

    def _take_prepended(self) -> None:
        """Rows older than the first one the list shows were stored (older history): tell
        the list how many, so the cursor stays on its call, whether they arrive before, with
        or after new calls from the tail."""
        feed = self.feed
        first = self._shown_first_id
        if feed is None or first is None or len(feed.rows) == 0:
            return
        before = feed.rows.position(first)
        if before:
            self._shown_count += before
            self.log_list.notify_prepended(before)
        self._shown_first_id = feed.rows.row(0).id

    def _tail_only_newer(self, previous_newest: int | None) -> bool:
        """True when the rows after the ones shown are all at or after the newest shown."""
        feed = self.feed
        if feed is None or previous_newest is None or self._shown_count == 0:
            return True
        if self._shown_count > len(feed.rows):
            return False
        first_new = feed.rows.row(self._shown_count)
        last_old = feed.rows.row(self._shown_count - 1)
        return (first_new.created_at or 0) >= (last_old.created_at or 0)

    def _on_tail_state(self, state: Any) -> None:
        if self._gone():  # the tail reports "stopped" as the app quits: nothing to show it on
            return
        self._tail_state = state
        self._tail_state_at = time.monotonic()
        app = self.blah_app
        if state.phase in ("live", "idle_backoff"):
            app.note_connection(None)
            if self._loaded and self.stats is None and self._stats_error is not None and not self._latest_retrying:
                self._retry_latest()
        elif state.phase == "retrying" and hasattr(app, "connection"):
            app.connection = ConnectionState("error", "retrying")
        self._update_tail()


    # ------------------------------------------------------------------ view hooks (LogsScreen)

    @property
    def log_list(self) -> LogList:
        raise NotImplementedError

    def _show_rows(self, rows: LogRows, *, follow: bool) -> None:
        raise NotImplementedError

    def _refresh_view(self) -> None:
        raise NotImplementedError

    def _update_tail(self) -> None:
        raise NotImplementedError

    def _update_totals(self) -> None:
        raise NotImplementedError

    def _update_filters(self) -> None:
        raise NotImplementedError

    def _update_message(self) -> None:
        raise NotImplementedError

    def _update_plot(self) -> None:
        raise NotImplementedError
