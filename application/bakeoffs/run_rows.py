"""Bake-offs (errorbar eval-run queue) as rows of the Runs list, and what their watch says of
a run's end. Textual-free: the Runs screen and the bake-off watch draw these.

The queue sends ``progress_ratio`` (0-1), a status (PENDING, RUNNING, DONE, ERROR,
CANCELLED), ``created_at`` and ``error``; it sends no start or end time, so neither is made up:
an ended run's end reads "not given".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from application.bakeoffs.words import baseline_text, ended_text, kind_text
from common.format import DASH
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["ACTIVE", "KEY_PREFIX", "BakeoffRow", "final_sentence", "ratio_text"]

KEY_PREFIX = "errorbar:"
"""A bake-off row's key in the Runs table: never equal to a blah.dev run id or a Blobfish key."""
ACTIVE = ("PENDING", "RUNNING")


def ratio_text(ratio: float | None) -> str:
    """``40%``; ``—`` when the queue sent no ratio."""
    return DASH if ratio is None else f"{ratio * 100:.0f}%"


@dataclass(frozen=True)
class BakeoffRow:
    """One bake-off as the Runs list shows it (values as sent; None: not sent)."""

    run: assumed.Run

    @property
    def key(self) -> str:
        return f"{KEY_PREFIX}{self.run.id}"

    @property
    def is_active(self) -> bool:
        return self.run.status in ACTIVE

    @property
    def kind(self) -> str:
        return kind_text(self.run)

    def ended_text(self) -> str:
        """The Ended and Took cells: the dash while running, "not given" once ended (the
        queue sends no end time)."""
        return ended_text(self.run)

    def progress_text(self) -> str:
        return ratio_text(self.run.progress_ratio)

    def models_text(self) -> str:
        """``2 vs Qwen/Qwen3-32B``: the candidates against the baseline."""
        return f"{len(self.run.candidate_models)} vs {baseline_text(self.run.baseline_model)}"

    def changed_from(self, other: BakeoffRow | None) -> bool:
        return other is None or (other.run.status, other.run.progress_ratio) != (
            self.run.status,
            self.run.progress_ratio,
        )


def final_sentence(status: str | None, error: str | None) -> str | None:
    """What the watch says once the run has ended (None while it has not). A run that did not
    finish DONE never has results, and says so."""
    if status == "DONE":
        return "DONE: the bake-off finished; v opens its results in Compare's Bake-offs view."
    if status == "ERROR":
        why = f" ({one_line(error, 200)})" if error else " (the queue gave no reason)"
        return f"FAILED: the bake-off ended in ERROR{why}. A failed run has no results."
    if status == "CANCELLED":
        why = f" ({one_line(error, 200)})" if error else ""
        return f"CANCELLED: the bake-off was cancelled{why}. A cancelled run has no results."
    return None
