"""Marking evaluations on the Evaluations list (``space``) and exporting the marked ones at
once (``x``): one JSONL file in the platform's format, and its receipt (records, bytes,
SHA-256 of the file written, computed by the app: Blobfish has no HTTP dataset export).

An export takes 1-50 evaluations (the page's limit on source ids); more marked is refused
before anything is written, naming the limit. Marked rows still being read are read first;
the file holds the evaluations in the order they were marked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from textual.screen import Screen
from textual.worker import Worker

from application.evaluations.dataset_export import (
    MAX_SOURCES,
    SelectionRefused,
    check_selection,
    dataset_export_path,
    write_evaluations,
)
from application.evaluations.diagnosed import read_diagnosed
from application.evaluations.evidence import Evaluation
from application.evaluations.listing import EvaluationRow
from application.evaluations.source import EvaluationSource
from tui.base_screen import describe_error
from tui.screens.evaluations.exporting import exports_dir
from widgets.safe_text import one_line

__all__ = ["Marks", "export_marked", "utc_now"]

Say = Callable[[str, bool], None]


def utc_now() -> datetime:
    """When an export is named for (tests fix it)."""
    return datetime.now(UTC)


class Marks:
    """The evaluation ids marked for export, in the order they were marked."""

    def __init__(self) -> None:
        self._ids: dict[str, None] = {}

    def __contains__(self, evaluation_id: object) -> bool:
        return evaluation_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)

    def toggle(self, evaluation_id: str) -> bool:
        """Mark or unmark; True when it is marked now."""
        if evaluation_id in self._ids:
            del self._ids[evaluation_id]
            return False
        self._ids[evaluation_id] = None
        return True

    def ordered(self) -> list[str]:
        return list(self._ids)

    def keep_only(self, present: Iterable[str]) -> None:
        """Forget marks of evaluations no longer listed (after a reload)."""
        still = set(present)
        self._ids = {i: None for i in self._ids if i in still}

    def line(self) -> str:
        """What the marks line says ("" when nothing is marked)."""
        count = len(self._ids)
        if not count:
            return ""
        if count > MAX_SOURCES:
            return (
                f"{count} marked: over the {MAX_SOURCES} one export takes (Blobfish's limit); "
                f"space unmarks {count - MAX_SOURCES}"
            )
        return (
            f"{count} marked · x exports {'them' if count > 1 else 'it'} as one JSONL file "
            f"(1-{MAX_SOURCES} per export) · space unmarks"
        )


async def _evaluation(row: EvaluationRow, source: EvaluationSource | None) -> Evaluation:
    """The row's evaluation, read now if the list has not read it yet (the way the list reads it)."""
    if row.evaluation is not None:
        return row.evaluation
    if source is None:
        raise LookupError(f"evaluation {row.evaluation_id} has not been read")
    return (await read_diagnosed(source, row.evaluation_id)).evaluation


def export_marked(
    screen: Screen[Any], rows: list[EvaluationRow], source: EvaluationSource | None, say: Say
) -> Worker[None]:
    """Write the marked ``rows`` to one new JSONL file in a worker of ``screen``; the receipt (or
    why not) is said on the screen's outcome line. ``screen.export_receipt`` is then the receipt."""

    def tell(message: str, error: bool) -> None:
        say(message, error)
        screen.notify(
            one_line(message, max_len=600),
            title="Export",
            markup=False,
            timeout=10,
            severity="warning" if error else "information",
        )

    async def run() -> None:
        try:
            check_selection(len(rows))
        except SelectionRefused as refused:
            tell(f"Not exported: {refused}. Nothing was written.", True)
            return
        try:
            evaluations = [await _evaluation(row, source) for row in rows]
        except Exception as error:
            tell(f"Not exported: an evaluation could not be read ({describe_error(error)}). Nothing was written.", True)
            return
        path = dataset_export_path(exports_dir(), len(evaluations), utc_now())
        try:
            receipt = await asyncio.to_thread(write_evaluations, path, evaluations)
        except (OSError, SelectionRefused) as error:
            tell(f"Not exported: {error}.", True)
            return
        # the screens that export keep what they wrote (a Screen[Any] here: the mixin is not a type)
        screen.export_receipt = receipt  # type: ignore[attr-defined]
        screen.exported = path  # type: ignore[attr-defined]
        tell(
            f"Exported {len(evaluations)} evaluation{'s' if len(evaluations) != 1 else ''} to {path}: "
            f"{receipt.sentence()}",
            False,
        )

    return screen.run_worker(run(), group="evaluations-export", exclusive=True)
