"""The whole history (``W`` on the Diagnosis screen): the diagnosis of every call in the model's
local archive, on the same streamed path as ``blah-tui report MODEL --offline``
(``application.diagnosis.archive_report``), beside the screen's view of the most recent calls.

The diagnosis runs in a thread worker (the process pool it starts for a big archive is
spawn-safe from a thread) with a progress line: calls read of the archive's count, after each
range of the archive. ``W`` again stops it (or runs it again once done), and leaving the screen
stops it. Done, it shows the report as the shell prints it (the same markdown: untrusted text
only in code spans and blocks), and on top where the calls came from: the archive, its time
range and how many calls were read. An archive that holds nothing for the model says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Markdown
from textual.worker import Worker, get_current_worker

from api_client.archives.schema import ArchiveError
from application.diagnosis.archive_report import (
    ArchiveDiagnosis,
    DiagnosisCancelled,
    diagnose_model_archive,
    model_archive_path,
    report_markdown,
)
from tui import bindings
from tui.base_screen import BlahScreen, describe_error
from widgets.bars import ProgressLine
from widgets.caption import Caption
from widgets.footer import KeyFooter
from widgets.safe_text import one_line
from widgets.status_header import StatusHeader

__all__ = ["DiagnosisWholeScreen"]


class DiagnosisWholeScreen(BlahScreen):
    """The diagnosis of every call of the model's local archive (``report --offline``)."""

    SCREEN_TITLE = "Diagnosis · whole history"

    DEFAULT_CSS = """
    DiagnosisWholeScreen #whole-status { height: auto; padding: 0 1; }
    DiagnosisWholeScreen #whole-progress { padding: 0 1; &.hidden { display: none; } }
    DiagnosisWholeScreen #whole-scroll { height: 1fr; }
    DiagnosisWholeScreen #whole-report { padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("W", "run_or_stop", "Stop / run again", id="diagnosis_whole.run"),
        bindings.back("diagnosis_whole", "back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.result: ArchiveDiagnosis | None = None
        """The last diagnosis done (None: none yet, or it failed or was stopped)."""
        self.problem: str | None = None
        """Why there is no diagnosis to show (no archive, nothing in it, stopped, failed)."""
        self.running = False
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Caption(id="whole-status")
        yield ProgressLine(id="whole-progress", classes="hidden")
        with VerticalScroll(id="whole-scroll"):
            yield Markdown(id="whole-report")
        yield KeyFooter()

    # Textual calls the on_mount of every class of the MRO (each may be async): not an override
    async def on_mount(self) -> None:  # type: ignore[override]
        self.query_one("#whole-scroll").focus()
        await self.start()

    def on_model_switched(self, model_id: str) -> None:
        """Another model: its own archive, from the start (a run for the one before is dropped)."""
        self.call_later(self.start)

    @property
    def status(self) -> Caption:
        return self.query_one("#whole-status", Caption)

    # ------------------------------------------------------------------ running

    async def start(self) -> None:
        """Diagnose the archive (again); what was shown before is cleared."""
        if self._worker is not None:  # a run for another model, or stopping: its outcome is no longer shown
            self._worker.cancel()
            self._worker = None
        self.result = None
        self.problem = None
        await self.query_one("#whole-report", Markdown).update("")
        path = model_archive_path(self.ctx)
        if path is None:
            self._say_problem(
                "there is no local archive for this session (archiving is off and no file was "
                "opened), so the whole history cannot be read"
            )
            return
        self.running = True
        self.status.say(f"reading the whole local archive {one_line(str(path), 200)} and diagnosing every call…")
        progress = self.query_one("#whole-progress", ProgressLine)
        progress.update(0, None, None, None)
        progress.remove_class("hidden")
        self._worker = self._diagnose(path, self.ctx.model_id, self.ctx.trained_template)

    def stop(self) -> None:
        """Stop the diagnosis after the range of the archive being read (said when it has stopped)."""
        if self._worker is not None and self.running:
            self._worker.cancel()
            self.status.say("stopping after the part of the archive being read…")

    @work(thread=True, exclusive=True, group="diagnosis-whole", exit_on_error=False)
    def _diagnose(self, path: Path, model_id: str, template: str | None) -> None:
        worker = get_current_worker()
        started = time.monotonic()

        def on_progress(done: int, total: int) -> None:
            elapsed = time.monotonic() - started
            rate = done / elapsed if elapsed > 0 and done else None
            eta = f"{max(0.0, (total - done) / rate):.0f}s" if rate else None
            if not worker.is_cancelled:
                self.app.call_from_thread(self._progress, done, total, rate, eta)

        try:
            result = diagnose_model_archive(
                path,
                model_id=model_id,
                trained_template=template,
                on_progress=on_progress,
                cancelled=lambda: worker.is_cancelled,
            )
        except DiagnosisCancelled as stopped:
            self._from_thread(worker, self._stopped, str(stopped))
            return
        except ArchiveError as error:
            if not Path(error.path).exists():
                reason = (
                    f"there is no local archive of model {model_id!r} for this profile ({error.path}): open the "
                    "Logs screen (it stores calls as they arrive) or run `blah-tui export` to fill it"
                )
            else:
                reason = f"cannot read the local archive: {error}"
            self._from_thread(worker, self._say_problem, reason)
            return
        except Exception as error:
            self._from_thread(worker, self._say_problem, f"couldn't diagnose the archive: {describe_error(error)}")
            return
        self._from_thread(worker, self._show, result)

    def _from_thread(self, worker: Worker[None], call: Callable[..., object], *args: object) -> None:
        """Run ``call`` on the app's thread, unless this run is no longer the screen's (or the screen is gone)."""
        if worker is not self._worker or self.gone:
            return
        self.app.call_from_thread(call, *args)

    def _progress(self, done: int, total: int, rate: float | None, eta: str | None) -> None:
        self.query_one("#whole-progress", ProgressLine).update(done, total, rate, eta)

    def _finished(self) -> None:
        self.running = False
        self.query_one("#whole-progress", ProgressLine).add_class("hidden")

    def _stopped(self, how: str) -> None:
        self._finished()
        self.problem = f"{how}; press W to run it again"
        self.status.say(self.problem)

    def _say_problem(self, reason: str) -> None:
        self._finished()
        self.problem = reason
        self.status.say(reason, error=True)

    async def _show(self, result: ArchiveDiagnosis) -> None:
        self._finished()
        if not result.whole.calls:
            self.problem = (
                f"the local archive {one_line(str(result.path), 200)} holds no calls of this model: "
                "there is nothing to diagnose"
            )
            self.status.say(self.problem)
            await self.query_one("#whole-report", Markdown).update("")
            return
        self.result = result
        self.status.say(result.headline)
        await self.query_one("#whole-report", Markdown).update(report_markdown(result))

    # ------------------------------------------------------------------ actions

    async def action_run_or_stop(self) -> None:
        if self.running:
            self.stop()
        else:
            await self.start()

    def action_back(self) -> None:
        self.stop()
        self.dismiss()
