"""Export from the Evaluations screens: a rollout or a whole evaluation as JSONL in the
platform's format (the lines `blah-tui blobfish export` writes: one ``blobfish.trace.v1`` per
line), written off the UI thread under the data directory; the person is told where (or why not)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker

from application.evaluations.evidence import Evaluation, Rollout
from application.evaluations.export import default_export_path, export_lines, write_jsonl
from common.format import plural
from tui import bindings
from tui.screens.evaluations.header import BlobfishHeaderScreen

__all__ = ["EvaluationExportScreen", "export_bindings", "export_evaluation", "exports_dir"]


def exports_dir() -> Path:
    from application.session.paths import data_dir

    return data_dir()


def export_evaluation(screen: Screen[Any], evaluation: Evaluation, rollout: Rollout | None = None) -> Worker[None]:
    """Write ``rollout`` (or every rollout of ``evaluation``) to a new JSONL file, in a worker of
    ``screen`` (a new export replaces one still writing); ``screen.exported`` is then its path."""
    path = default_export_path(exports_dir(), evaluation, rollout)
    what = "the rollout" if rollout is not None else f"the evaluation ({plural(len(evaluation.rollouts), 'rollout')})"

    async def run() -> None:
        lines = list(export_lines(evaluation, None if rollout is None else [rollout]))
        if not lines:
            screen.notify(f"nothing to export: the platform sent no trace for {what}", severity="warning", markup=False)
            return
        try:
            count = await asyncio.to_thread(write_jsonl, path, lines)
        except OSError as error:
            screen.notify(f"couldn't export {what}: {error}", severity="error", markup=False)
            return
        screen.exported = path  # type: ignore[attr-defined]  # the screens that export keep the path
        screen.notify(
            f"exported {what}: {count} line{'s' if count != 1 else ''} to {path}",
            title="Exported",
            markup=False,
            timeout=8,
        )

    return screen.run_worker(run(), group="evaluations-export", exclusive=True)


def export_bindings(area: str) -> list[Binding]:
    """``x`` the rollout in view, ``X`` every rollout of the evaluation
    (ids ``<area>.export``, ``<area>.export_all``)."""
    return [
        bindings.export(area, "Export rollout", action="export_rollout"),
        Binding("X", "export_evaluation", "Export all", id=f"{area}.export_all"),
    ]


class EvaluationExportScreen(BlobfishHeaderScreen):
    """A screen about one evaluation that exports it (see :func:`export_bindings`);
    ``exported`` is the last file written."""

    def __init__(self, evaluation: Evaluation) -> None:
        super().__init__()
        self.evaluation = evaluation
        self.exported: Path | None = None

    def rollout_in_view(self) -> Rollout | None:
        """What ``x`` exports (None: nothing under the cursor)."""
        return None

    def action_export_rollout(self) -> None:
        rollout = self.rollout_in_view()
        if rollout is not None:
            export_evaluation(self, self.evaluation, rollout)

    def action_export_evaluation(self) -> None:
        export_evaluation(self, self.evaluation)
