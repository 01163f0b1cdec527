"""Labelling pairs in the bake-off view, the calibration panel and the verdict it feeds, and
the keys that open the criteria, evidence and failure-cluster views or delete a run
(``LabelActions``, mixed into ``BakeoffScreen``).

On the samples' highlighted row a person presses ``c`` (the candidate's answer was better),
``b`` (the baseline's), ``=`` (a tie), ``w`` (one of those with a critique) or ``u`` (remove
their label). Only that key's verdict is posted, once; the row shows it, the cursor moves to
the next pair, and the verdict, the calibration panel and the app's own reading (its
prediction-powered win rate rests on the labels) are redrawn from the queue's answer
(``GET .../pairwise``) and the labels now on the samples. Labels are sent one after another
(a lock), so a fast run of presses keeps its order and a later press overwrites an earlier one,
as the person meant.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding

from api_client.errors import BlahError, OutcomeUnknownError
from application.bakeoffs.calibration import JUDGE_VERDICT, LabelRefused, check_label, next_pair, panel, recompute
from application.bakeoffs.decision import Decision, DecisionInputs, decide
from application.bakeoffs.readings import SwitchReadings
from application.bakeoffs.samples import with_label
from common.safe_strings import one_line
from tui import bindings
from tui.base_screen import describe_error
from tui.screens.bakeoffs.calibration_panel import CritiqueDialog, calibration_block, verdict_block
from tui.screens.bakeoffs.detail import readings_text
from tui.send_once import SendOnce
from widgets.key_table import KeyTable

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed
    from application.bakeoffs.samples import SampleRow

__all__ = ["VERDICT_CELL", "LabelActions"]

VERDICT_CELL = {"candidate": "cand", "baseline": "base", "tie": "tie"}


class LabelActions:
    """Needs the host screen's ``run``, ``rows``, ``samples``, ``_pairwise``, ``readings``, ``ctx``,
    ``notify``, ``query_one``, ``draw_panel``, ``app`` and ``load_runs`` (``BakeoffScreen`` has them)."""

    LABEL_BINDINGS: ClassVar[list[Binding]] = [
        Binding("c", "label('candidate')", "Candidate better", id="bakeoffs.label_candidate"),
        Binding("b", "label('baseline')", "Baseline better", id="bakeoffs.label_baseline"),
        Binding("equals_sign", "label('tie')", "Tie", key_display="=", id="bakeoffs.label_tie"),
        Binding("w", "label_critique", "Label with why", id="bakeoffs.label_critique"),
        Binding("u", "label_remove", "Remove label", id="bakeoffs.label_remove"),
        Binding("e", "evidence", "Evidence", id="bakeoffs.evidence"),
        Binding("i", "criteria", "Criteria", id="bakeoffs.criteria"),
        Binding("f", "clusters", "Failure clusters", id="bakeoffs.clusters"),
        bindings.delete("bakeoffs", "delete_run", "Delete run"),
    ]
    """The keys of the actions below, for the host's BINDINGS (after its own)."""

    run: assumed.Run | None
    rows: list[SampleRow]
    samples: list[assumed.Sample]
    _pairwise: Any
    readings: SwitchReadings | None
    _label_lock: asyncio.Lock | None = None
    verdict_text: Text = Text("")
    decision: Decision | None = None
    """The run's one decision (verdict, figures, readings), the same as `bakeoff verdict`'s."""
    calibration_text: Text = Text("")
    readings_text: Text = Text("")

    # ----------------------------------------------------------------- drawing

    def show_calibration(self) -> None:
        """Redraw the verdict, the calibration panel and the app's own reading for the shown run."""
        host: Any = self
        run = self.run
        if run is None:
            self.decision = None
            self.verdict_text = self.calibration_text = Text("")
        else:
            gate = getattr(host, "gate", None)
            self.decision = decide(DecisionInputs(run, self.samples, self._pairwise, gate=gate))
            self.readings = self.decision.readings
            self.verdict_text = verdict_block(self.decision.verdict)  # the gate's checks: in the gate panel
            if run.eval_kind == "criterion" or run.status != "DONE":
                self.calibration_text = Text("")
            else:
                answers = [row.answer for row in self.rows]
                self.calibration_text = calibration_block(panel(run, self._pairwise), recompute(answers))
        host.draw_panel("bakeoff-verdict", self.verdict_text)
        host.draw_panel("bakeoff-calibration", self.calibration_text)
        self.readings_text = readings_text(self.readings if run is not None else None)
        host.draw_panel("bakeoff-readings", self.readings_text)

    # ----------------------------------------------------------------- label keys

    def _highlighted(self) -> SampleRow | None:
        host: Any = self
        key = host.query_one("#bakeoff-samples", KeyTable).current_key
        return next((row for row in self.rows if row.key == key), None)

    def action_label(self, verdict_given: str) -> None:
        self._label(verdict_given, None)

    def action_label_remove(self) -> None:
        self._label(None, None)

    def action_label_critique(self) -> None:
        row = self._checked_row(None)
        if row is None:
            return
        host: Any = self

        def chosen(answer: tuple[str, str] | None) -> None:
            if answer is not None:
                self._label(answer[0], answer[1] or None)

        host.app.push_screen(CritiqueDialog(f"#{row.index} {row.arm}"), chosen)

    def _checked_row(self, verdict_given: str | None, critique: str | None = None) -> SampleRow | None:
        host: Any = self
        run = self.run
        if run is None or host.ctx.errorbar is None:
            return None
        row = self._highlighted()
        try:
            if run.eval_kind != "criterion" and run.status != "DONE":
                raise LabelRefused(f"{run.id} is {run.status}: its pairs can be labelled once it is DONE")
            if run.eval_kind != "criterion" and row is None:
                raise LabelRefused("no pair is highlighted: move to a sample row first")
            check_label(run, row.index if row else 0, row.arm if row else "", verdict_given, critique)
        except LabelRefused as refused:
            host.notify(one_line(str(refused), 300), severity="warning", markup=False)
            return None
        return row

    def _label(self, verdict_given: str | None, critique: str | None) -> None:
        row = self._checked_row(verdict_given, critique)
        if row is None:
            return
        host: Any = self
        self.send_label(row, verdict_given, critique)
        if verdict_given is not None and row.outcome not in JUDGE_VERDICT:
            host.notify(
                f"#{row.index} {row.arm} got no judge reading ({row.outcome or 'no outcome'}): your label is "
                "kept, but it cannot measure the judge",
                markup=False,
            )
        if verdict_given is not None:  # on to the next unlabelled pair, in sample order
            pending = {r.key for r in self.rows if r.answer.human_verdict is None} - {row.key}
            following = next_pair([r for r in self.rows if r.key in pending or r.key == row.key], row.key)
            if following is not None:
                host.query_one("#bakeoff-samples", KeyTable).move_to_key(following)

    @work(group="bakeoffs.labels", exit_on_error=False)
    async def send_label(self, row: SampleRow, verdict_given: str | None, critique: str | None) -> None:
        host: Any = self
        client, run = host.ctx.errorbar, self.run
        if client is None or run is None:
            return
        if self._label_lock is None:
            self._label_lock = asyncio.Lock()
        async with self._label_lock:
            try:
                if verdict_given is None:
                    await client.delete_pair_label(run.id, row.index, row.arm)
                    pairwise = await client.pairwise(run.id)
                else:
                    answer = await client.add_pair_label(run.id, row.index, row.arm, verdict_given, critique)
                    pairwise = answer.pairwise or await client.pairwise(run.id)
            except OutcomeUnknownError:
                host.notify(
                    f"the answer to the label on #{row.index} was lost: it may or may not be saved "
                    "(not resent); r reads the run again",
                    severity="warning",
                    markup=False,
                )
                return
            except BlahError as error:
                host.notify(
                    f"the label on #{row.index} was not saved: {describe_error(error)}", severity="error", markup=False
                )
                return
        if self.run is None or self.run.id != run.id:
            return
        labelled = row.labelled(verdict_given)
        self.rows = [labelled if r.key == row.key else r for r in self.rows]
        table = host.query_one("#bakeoff-samples", KeyTable)
        try:
            table.update_cell(row.key, "label", VERDICT_CELL.get(verdict_given or "", ""))
        except Exception:
            pass
        self._pairwise = pairwise
        # the prediction-powered win rate is the labels' too: decided again from the samples (with
        # the label on its answer now) and the queue's new pairwise, not left as the run opened
        self.samples = with_label(self.samples, labelled)
        self.show_calibration()

    # ----------------------------------------------------------------- other views

    def action_criteria(self) -> None:
        from tui.screens.bakeoffs.criteria_view import CriteriaScreen

        host: Any = self
        host.app.push_screen(CriteriaScreen())

    def action_clusters(self) -> None:
        from tui.screens.bakeoffs.clusters_view import FailureClustersScreen

        host: Any = self
        host.app.push_screen(FailureClustersScreen())

    def action_evidence(self) -> None:
        from tui.screens.bakeoffs.evidence_view import EvidenceScreen

        host: Any = self
        run = self.run
        if run is None:
            return
        if run.status != "DONE":
            host.notify(
                f"{run.id} is not finished yet: evidence exists only for a DONE run", severity="warning", markup=False
            )
            return
        threshold_name = "min_pass_rate" if run.eval_kind == "criterion" else "min_win_rate"
        host.app.push_screen(EvidenceScreen(run.id, {threshold_name: host.threshold}))

    def action_delete_run(self) -> None:
        host: Any = self
        run = self.run
        if run is None or host.ctx.errorbar is None:
            return
        if not run.terminal:
            host.notify(
                f"{run.id} is {run.status}: a live run can't be deleted; cancel it first",
                severity="warning",
                markup=False,
            )
            return
        body = Text(
            f"{one_line(run.id, 40)} · {one_line(run.name or '—', 60)} · {run.status}\n"
            "Deleting is irreversible: its samples, answers, verdicts, labels and evidence go too."
        )

        deleter = self._deleter()
        deleter.start(lambda: self._delete_flow(deleter, run.id, body))

    def _deleter(self) -> SendOnce:
        """The delete's send-once flow (made on first use: this class is mixed into the screen)."""
        deleter: SendOnce | None = getattr(self, "_delete_write", None)
        if deleter is None:
            host: Any = self
            deleter = self._delete_write = SendOnce(
                host, group="bakeoffs.delete", busy_note="a delete is already being asked for or sent"
            )
        return deleter

    async def _delete_flow(self, deleter: SendOnce, run_id: str, body: Text) -> None:
        if await deleter.confirm("Delete this run?", body, label="Delete", danger=True):
            await self.delete_run(deleter, run_id)

    async def delete_run(self, deleter: SendOnce, run_id: str) -> None:
        host: Any = self
        client = host.ctx.errorbar
        if client is None:
            return
        try:
            await deleter.send(lambda: client.delete_run(run_id))
        except BlahError as error:
            host.notify(f"{run_id} was not deleted: {describe_error(error)}", severity="error", markup=False)
            return
        host.notify(f"deleted {run_id}", markup=False)
        host.runs = [r for r in host.runs if r.id != run_id]
        self.run, self.rows, self.samples, self._pairwise, self.readings = None, [], [], None, None
        host.draw_panel("bakeoff-head", Text(f"{run_id} was deleted", style="dim"))
        for gone in ("bakeoff-results", "bakeoff-gate", "bakeoff-comparison"):
            host.draw_panel(gone, Text(""))
        host.query_one("#bakeoff-samples", KeyTable).clear()
        self.show_calibration()
        host.load_runs()
