"""The diagnosis of a model's whole local archive: one path for ``blah-tui report MODEL --offline``
and the Diagnosis screen's whole-history view (``W``). No Textual.

``diagnose_model_archive`` runs ``application.diagnosis.whole.diagnose_archive`` (streamed, a
process pool over archive ranges when the archive is big, memory bounded by what the report
shows) and says where the calls came from: the archive's path, how many calls it holds and their
time range (``ArchiveDiagnosis.where`` / ``read``), the same sentences in the shell and on the
screen. ``report_markdown`` is the report as ``report --offline`` prints it (untrusted text only
inside code spans and blocks, see ``diagnosis.markdown``).

It can be stopped (``cancelled``: asked after each range of the archive; a pool's ranges not yet
started are dropped), which the screen does when the person leaves or presses the key again.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from api_client.archives.bulk import ArchiveSpan, archive_span
from application.diagnosis.whole import WholeDiagnosis, diagnose_archive
from common.format import format_utc
from common.safe_strings import one_line

if TYPE_CHECKING:
    from application.session.context import AppContext

__all__ = [
    "PLATFORM_ONLY",
    "ArchiveDiagnosis",
    "DiagnosisCancelled",
    "diagnose_model_archive",
    "model_archive_path",
    "read_sentence",
    "report_markdown",
    "source_note",
]

#: What a local source cannot give (the platform's own answers).
PLATFORM_ONLY = ("/models/{id}/diagnose", "/models/{id}/results", "/models/{id}/health", "/models/{id}/lens")


class DiagnosisCancelled(Exception):
    """The person stopped the diagnosis before it was done."""


def _when(ms: int | None) -> str:
    return format_utc(ms, zone=" UTC", missing="unknown")


def read_sentence(whole: WholeDiagnosis, *, where: str, held: int, limit: int | None) -> str:
    """ "Read all N calls of WHERE; the calls read run from … to …." (``held``: calls the source holds)."""
    some = limit is not None and whole.calls < held
    return (
        f"Read {'the ' if some else 'all '}{whole.calls} {'most recent ' if some else ''}calls of {where}"
        + (f"; the calls read run from {_when(whole.oldest_ms)} to {_when(whole.newest_ms)}" if whole.calls else "")
        + "."
    )


def source_note() -> str:
    """What a report from a local source leaves out, as the report's last paragraph says it."""
    return (
        "The platform was not asked ("
        + ", ".join(f"`{p}`" for p in PLATFORM_ONLY)
        + "): its own diagnosis, the judged results, the health checks and the Lens bundle are not in this "
        "report."
    )


@dataclass(frozen=True)
class ArchiveDiagnosis:
    """The report of the archive's calls, the archive read (``span``) and the ``limit`` asked."""

    whole: WholeDiagnosis
    span: ArchiveSpan
    path: Path
    limit: int | None

    def _where(self, path: str) -> str:
        span = self.span
        return (
            f"the local archive {path}, which holds {span.calls} calls from "
            f"{_when(span.oldest_ms)} to {_when(span.newest_ms)}"
            + ("" if span.history_complete else " (it does not reach back to the model's first call)")
        )

    @property
    def where(self) -> str:
        """The archive, how many calls it holds and their time range, in words."""
        return self._where(one_line(str(self.path), 300))

    @property
    def read(self) -> str:
        """What was read, from where: "Read all N calls of the local archive PATH, which holds …"."""
        return read_sentence(self.whole, where=self.where, held=self.span.calls, limit=self.limit)

    @property
    def read_markdown(self) -> str:
        """``read`` as markdown: the path in a code span, the rest escaped prose."""
        from diagnosis.markdown import code_span, plain

        marker = "\0PATH\0"
        sentence = read_sentence(self.whole, where=self._where(marker), held=self.span.calls, limit=self.limit)
        before, after = sentence.split(marker, 1)
        return plain(before) + code_span(str(self.path), limit=300) + plain(after)

    @property
    def headline(self) -> str:
        """One short line: how many calls of the archive were read and the time range they span."""
        span, whole = self.span, self.whole
        some = self.limit is not None and whole.calls < span.calls
        return (
            f"Whole history: {'the ' if some else 'all '}{whole.calls} {'most recent ' if some else ''}calls of "
            f"the local archive, from {_when(whole.oldest_ms)} to {_when(whole.newest_ms)}"
            + ("" if span.history_complete else " (the archive does not reach back to the model's first call)")
            + "; where they came from: at the end"
        )


def diagnose_model_archive(
    path: Path,
    *,
    model_id: str,
    trained_template: str | None,
    limit: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ArchiveDiagnosis:
    """The report of the archive's ``limit`` most recent calls (all by default).

    ``trained_template``: from the person's config (the template source says "config"), as the
    shell's ``report`` takes it. ``on_progress(calls read, calls to read)`` after each range.
    Raises ArchiveError (no archive, not readable) and DiagnosisCancelled (``cancelled()`` said so)."""

    def progress(done: int, total: int) -> None:
        if cancelled is not None and cancelled():
            raise DiagnosisCancelled(f"stopped after {done} of {total} calls")
        if on_progress is not None:
            on_progress(done, total)

    if cancelled is not None and cancelled():
        raise DiagnosisCancelled("stopped before it started")
    _start_resource_tracker()
    if on_progress is not None:  # how many there are to read, before the first range is done
        span = archive_span(path)
        on_progress(0, span.calls if limit is None else min(limit, span.calls))
    whole, span = diagnose_archive(
        path,
        model=model_id,
        trained_template=trained_template,
        template_source="config" if trained_template else "unknown",
        limit=limit,
        on_progress=progress,
    )
    return ArchiveDiagnosis(whole, span, Path(path), limit)


_TRACKER_LOCK = threading.Lock()


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker where it can be started.

    A pool's first process starts the tracker, handing it ``sys.stderr.fileno()``; in the app
    Textual holds ``sys.stderr`` with a stand-in whose ``fileno()`` is -1, and starting the
    pool failed ("bad value(s) in fds_to_keep"). The tracker is started once per process: here,
    when stderr has no descriptor, with stderr pointed at the null device for that moment (the
    tracker only writes there to warn of leaked semaphores)."""
    from multiprocessing import resource_tracker

    try:
        if sys.stderr is not None and sys.stderr.fileno() >= 0:
            return
    except (AttributeError, OSError, ValueError):
        pass
    with _TRACKER_LOCK, open(os.devnull, "w", encoding="utf-8") as sink:
        held, sys.stderr = sys.stderr, sink
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = held


def report_markdown(result: ArchiveDiagnosis) -> str:
    """The report as ``blah-tui report MODEL --offline`` prints it, with where the calls came from."""
    from diagnosis import render_markdown

    lines = ["", "## Where the calls came from", "", result.read_markdown, "", source_note()]
    return render_markdown(result.whole.report).rstrip("\n") + "\n" + "\n".join(lines) + "\n"


def model_archive_path(ctx: AppContext) -> Path | None:
    """The session's local archive of its model: the profile's file for the platform (the one
    ``report --offline`` reads), else the archive the session opened (a dump loaded offline);
    None when there is neither."""
    from api_client.archives.archive import Archive
    from application.session.paths import data_dir

    if ctx.base_url:
        return Archive.path_for(data_dir(), ctx.base_url, ctx.model_id, ctx.profile)
    return ctx.archive.path if ctx.archive is not None else None
