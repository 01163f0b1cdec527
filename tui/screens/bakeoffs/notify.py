"""A bake-off's end, said as every run's end is said (``tui.run_watch``: one notifier per app, each
transition said once, the bell with it when ``bell_on_run_end`` is on).

Followed: a bake-off queued or screened from this app, and one opened in its watch while it is
still PENDING or RUNNING. Both the Runs list and the watch report what they see; whichever sees
the end first announces it, the other stays quiet. A bake-off's key in the notifier is its Runs
row key (``errorbar:<id>``), never equal to a blah.dev run id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

from application.bakeoffs.run_rows import ACTIVE, KEY_PREFIX
from application.bakeoffs.screening import screening_of, verdict
from common.safe_strings import one_line
from tui.run_watch import BAKEOFF, SCREENING, RunEnd, announce_end, notifier_for

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["bakeoff_end", "bakeoff_key", "ended_since", "follow_bakeoff", "note_bakeoff"]


def bakeoff_key(run_id: str) -> str:
    return f"{KEY_PREFIX}{run_id}"


def follow_bakeoff(app: App[Any], run_id: str) -> None:
    notifier_for(app).follow(bakeoff_key(run_id))


def bakeoff_end(run: assumed.Run) -> RunEnd:
    """What the announcement says of a bake-off that ended."""
    noun = SCREENING if (run.sample_filters or {}).get("screening") else BAKEOFF
    what = f"{noun} {one_line(run.id, 40)} ({one_line(run.name or '—', 60)})"
    status = run.status or "?"
    if run.status == "DONE":
        screening = screening_of(run)
        said = f": {verdict(screening).sentence}" if screening is not None else "; v opens its results"
        return RunEnd(bakeoff_key(run.id), noun, status, f"{what} finished{said}", "information")
    if run.status == "CANCELLED":
        return RunEnd(bakeoff_key(run.id), noun, status, f"{what} was cancelled", "warning")
    why = f": {one_line(run.error, 160)}" if run.error else ""
    return RunEnd(bakeoff_key(run.id), noun, status, f"{what} ended in {one_line(status, 20)}{why}", "error")


def ended_since(run: assumed.Run, before: str | None) -> bool:
    """``run`` has ended since it was read as ``before`` (None: never read): news."""
    return run.terminal and before in ACTIVE


def note_bakeoff(app: App[Any], run: assumed.Run, before: str | None, *, bell: bool) -> bool:
    """A bake-off was read in the Runs list; ``before``: its status at the last read (None: never
    read). A followed one seen ending is announced once (True when this call announced it)."""
    if not notifier_for(app).follows(bakeoff_key(run.id)) or not ended_since(run, before):
        return False
    return announce_end(app, bakeoff_end(run), bell=bell)
