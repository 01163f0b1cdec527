"""The run statuses that matter to the Runs screens (CONTRACT.md, ``GET /runs``)."""

from __future__ import annotations

__all__ = ["ACTIVE_STATUSES", "ATTENTION_STATUSES", "CANCELLABLE_STATUSES", "RESUMABLE_STATUSES"]

ACTIVE_STATUSES = frozenset({"queued", "running"})
"""Statuses in which the run is still moving (polling continues at the normal pace)."""
ATTENTION_STATUSES = frozenset({"completed", "failed", "stalled", "cancelled"})
"""Statuses that end a run (or pause it: stalled) and are worth a notification."""
RESUMABLE_STATUSES = frozenset({"stalled", "failed"})
CANCELLABLE_STATUSES = frozenset({"running", "queued"})
