"""Watching one errorbar bake-off (Enter on an errorbar row of Runs).

Shown: the run (id, name, kind, baseline against candidates), ``progress_ratio`` as a bar with
the ETA (``application.bakeoffs.progress``: the rate is measured over this watch's own time),
the status, and once it has ended the final status said plainly (a run that ended in ERROR or
was cancelled never shows a result). ``v`` opens a DONE run's results in Compare's Bake-offs
view on that run; ``c`` cancels a PENDING or RUNNING run after a confirmation, sent once.
The run is read again every second while it is PENDING or RUNNING (as the Bake-offs view
does), backing off on errors; once it has ended, no more. An end seen here is announced as every
watch announces its run's end (``tui.run_watch.WatchScreen``: the notification and the bell).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from api_client.errors import BlahError
from application.bakeoffs.progress import STEPS, RunProgress
from application.bakeoffs.run_rows import ACTIVE, final_sentence, ratio_text
from application.bakeoffs.screening import is_screening
from application.bakeoffs.words import baseline_text, kind_text
from common.format import DASH
from common.iso_time import iso_ms
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import describe_error
from tui.cell_format import fmt_time
from tui.reload import Reload, retry_note
from tui.run_watch import BAKEOFF, WatchScreen
from tui.screens.bakeoffs.notify import bakeoff_end, bakeoff_key, ended_since
from tui.send_once import SendOnce
from widgets.bars import ProgressLine
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.status_header import StatusHeader

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from api_client.errorbar.client import ErrorbarClient
    from application.bakeoffs.cost import MeasuredCosts
    from diagnosis.early_stop import EarlyReading

__all__ = ["BakeoffWatchScreen", "RatioProgress"]

POLL_S = 1.0


class RatioProgress(ProgressLine):
    """``progress_ratio`` as a bar (kept in thousandths), labelled ``40% · ETA 12s`` (the
    percentage alone once the run has ended)."""

    def label(self) -> str:
        ratio = None if self.done is None else self.done / STEPS
        return f"{ratio_text(ratio)} · {self.eta}" if self.eta else ratio_text(ratio)


class BakeoffWatchScreen(WatchScreen):
    """One errorbar bake-off, live, to its final status."""

    SCREEN_TITLE = BAKEOFF
    NOUN = BAKEOFF
    DEFAULT_CSS = """
    BakeoffWatchScreen #bkw-title { height: auto; padding: 0 1; }
    BakeoffWatchScreen #bkw-progress { margin: 1 1 0 1; }
    BakeoffWatchScreen #bkw-state { height: auto; padding: 1 1 0 1; }
    BakeoffWatchScreen #bkw-message { height: auto; padding: 0 1; }
    BakeoffWatchScreen #bkw-fill { height: 1fr; }
    """

    BINDINGS = [
        bindings.back("bakeoff_watch"),
        bindings.results("bakeoff_watch", "results", "Results"),
        bindings.cancel_run("bakeoff_watch", "Cancel bake-off"),
        bindings.refresh("bakeoff_watch"),
    ]

    clock = staticmethod(time.monotonic)
    """The watch's own time, for the rate behind the ETA (tests may replace it)."""

    def __init__(self, run_id: str, *, initial: assumed.Run | None = None) -> None:
        super().__init__(run_id)
        self.run: assumed.Run | None = initial
        self.progress = RunProgress(run_id)
        self.cancel = SendOnce(
            self,
            group="bakeoff_watch.cancel",
            once=True,
            busy_note="The cancel was already asked for; it is sent once.",
        )
        """A cancel is being confirmed or was sent: further presses only say so."""
        self._reload = Reload(self, self.load, interval=POLL_S, max_interval=15.0)  # no idle: an ended run stays
        self.readings: list[EarlyReading] = []
        """Each candidate's anytime-valid reading of the samples so far (diagnosis.early_stop)."""
        self.saved: float | None = None
        self._costs: MeasuredCosts | None = None
        self.state_text = Text()
        """What the state line says now (tests read it)."""

    @property
    def end_key(self) -> str:
        return bakeoff_key(self.run_id)  # the run's key in the Runs list

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text(""), id="bkw-title")
        yield RatioProgress(id="bkw-progress")
        yield Static(Text("reading the bake-off…"), id="bkw-state")
        yield Caption(id="bkw-message")
        yield Static("", id="bkw-fill")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.run is not None:
            if self.run.status in ACTIVE:  # watched while it runs: its end is news (bell, notification)
                self.follow_end()
            self.progress.add(self.clock(), self.run.progress_ratio)
            self._show()
        self.load()

    def on_unmount(self) -> None:
        self._reload.stop()

    # ----------------------------------------------------------------- reading

    @work(exclusive=True, group="bakeoff_watch.load", exit_on_error=False)
    async def load(self) -> None:
        client = self.ctx.errorbar
        if client is None:
            self._say("errorbar is not configured: this bake-off cannot be read", error=True)
            return
        try:
            run = await client.get_run(self.run_id)
        except BlahError as error:
            delay = self._reload.after_error(error)
            self._say(f"couldn't read the bake-off: {describe_error(error)} · {retry_note(delay)}", error=True)
            return
        before = self.run.status if self.run is not None else None
        if run.status in ACTIVE:
            self.follow_end()
            await self._read_partial(client, run)
        self.run = run
        if ended_since(run, before):
            self.announce_end(bakeoff_end(run))
        self.progress.add(self.clock(), run.progress_ratio)
        self._say("")
        self._show()
        self._reload.after_read(active=run.status in ACTIVE)

    async def _read_partial(self, client: ErrorbarClient, run: assumed.Run) -> None:
        """The samples so far (the queue answers while RUNNING) and each candidate's anytime-valid
        reading; unreadable samples leave the last readings as they were."""
        from application.bakeoffs.cost import measured_costs
        from application.bakeoffs.early_stop import per_sample_cost, run_readings
        from diagnosis.early_stop import remaining_cost

        try:
            samples = await client.samples(run.id)
            if self._costs is None:
                self._costs = measured_costs(await client.list_runs())
        except BlahError:
            return
        self.readings = run_readings(run, samples)
        if self.readings and all(r.decided for r in self.readings):
            per_sample = per_sample_cost(run, self._costs) if self._costs is not None else None
            self.saved = remaining_cost(
                max(r.read for r in self.readings), max(r.planned for r in self.readings), per_sample
            )

    # ----------------------------------------------------------------- drawing

    def _say(self, text: str, *, error: bool = False) -> None:
        self.query_one("#bkw-message", Caption).say(one_line(text, 400), error=error)

    def _show(self) -> None:
        run = self.run
        if run is None:
            return
        title = Text(one_line(run.id, 40), style="bold")
        title.append(" · ")
        title.append(one_line(run.name or DASH, 80), style="bold")
        title.append(
            f"\n{kind_text(run)} · baseline {one_line(baseline_text(run.baseline_model), 40)}"
            f" against {one_line(', '.join(run.candidate_models) or DASH, 80)}"
        )
        queued = iso_ms(run.created_at)
        title.append(
            f"\nqueued {fmt_time(queued) if queued is not None else one_line(run.created_at or DASH, 40)}", style="dim"
        )
        self.query_one("#bkw-title", Static).update(title)
        described = one_line(self.progress.describe(run.status, run.progress_ratio), 200)
        bar = self.query_one("#bkw-progress", RatioProgress)
        ratio = run.progress_ratio
        eta = described.split(" · ", 2)[-1] if run.status in ACTIVE and ratio is not None else None
        bar.update(None if ratio is None else round(ratio * STEPS), STEPS, None, eta)
        state = Text("Status: ", style="bold")
        state.append(described)
        final = final_sentence(run.status, run.error)
        if run.status == "DONE" and is_screening(run):
            final = "DONE: the screening finished; v opens its recommendation."
        if final is not None:
            state.append("\n\n")
            state.append(final, style="bold green" if run.status == "DONE" else "bold red")
        elif run.error:
            state.append(f"\n{one_line(run.error, 200)}", style="red")
        if any(r.read for r in self.readings):  # nothing sampled yet (PENDING): nothing to say
            state.append("\n")
            for reading in self.readings:
                state.append("\n" + one_line(reading.sentence(), 300))
            if run.status in ACTIVE and all(r.decided for r in self.readings):
                from application.bakeoffs.early_stop import saving_sentence

                state.append(
                    f"\n{saving_sentence(self.readings, self.saved)}; c cancels the rest (confirmed, sent once)",
                    style="bold",
                )
            elif run.status == "CANCELLED" and all(r.decided for r in self.readings):
                state.append("\nstopped early: the verdict was settled (the sequence's interval above)", style="bold")
        self.state_text = state
        self.query_one("#bkw-state", Static).update(state)

    # ----------------------------------------------------------------- actions

    def action_refresh(self) -> None:
        self._reload.now()
        self.load()

    def action_results(self) -> None:
        run = self.run
        if run is None or run.status != "DONE":
            status = one_line((run.status if run else None) or "not read yet", 20)
            why = (
                "a run that did not finish DONE has no results"
                if run is not None and run.terminal
                else "they come when it is DONE"
            )
            self.notify(f"No results: the bake-off is {status}; {why}.", severity="warning", markup=False)
            return
        if is_screening(run):
            from tui.screens.bakeoffs.screening_view import ScreeningScreen

            self.app.push_screen(ScreeningScreen(run))
            return
        self.blah_app.open_bakeoff(run.id)

    def action_cancel_run(self) -> None:
        run = self.run
        if not self.cancel.busy and (run is None or run.status not in ACTIVE):
            status = one_line((run.status if run else None) or "not read yet", 20)
            self.notify(
                f"Only a PENDING or RUNNING bake-off can be cancelled; this one is {status}.",
                severity="warning",
                markup=False,
            )
            return
        self.cancel.start(self._cancel_flow)

    async def _cancel_flow(self) -> None:
        client = self.ctx.errorbar
        run = self.run
        assert client is not None and run is not None
        body = Text("Cancel the bake-off ", end="")
        body.append(one_line(run.name or run.id, 80), style="bold")
        body.append(
            f" ({one_line(run.id, 40)})?\n\nIt stops where it is and gives no results; "
            "a slice already running may still finish it. This is sent once."
        )
        if not await self.cancel.confirm(
            "Cancel the bake-off?", body, label="Cancel bake-off", cancel_label="Keep running"
        ):
            return
        try:
            answer = await self.cancel.send(lambda: client.cancel_run(run.id))
        except BlahError as error:  # the queue refused: the person may try again
            self.notify(f"The queue did not cancel it: {describe_error(error)}", severity="error", markup=False)
            self._say(f"cancel refused: {describe_error(error)}", error=True)
            self.load()
            return
        self.notify(f"Cancel sent: the queue says {one_line(answer.status or '?', 20)}.", markup=False)
        self.load()  # read it again: a slice in flight can still land it DONE
