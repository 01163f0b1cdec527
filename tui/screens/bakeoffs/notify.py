"""A bake-off the person watches is announced when it ends, as blah.dev runs are
(``tui.run_end``: one notifier per app, each transition said once, the bell with it
when ``bell_on_run_end`` is on).

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
from tui.run_end import Severity, notifier_for

if TYPE_CHECKING:
    from api_client.errorbar import shapes as assumed

__all__ = ["end_message", "follow_bakeoff", "note_bakeoff"]


def _key(run_id: str) -> str:
    return f"{KEY_PREFIX}{run_id}"


def follow_bakeoff(app: App[Any], run_id: str) -> None:
    notifier_for(app).follow(_key(run_id))


def end_message(run: assumed.Run) -> tuple[str, Severity]:
    """What the notification says of a bake-off that ended."""
    what = f"{'Screening' if (run.sample_filters or {}).get('screening') else 'Bake-off'} " \
           f"{one_line(run.id, 40)} ({one_line(run.name or '—', 60)})"
    if run.status == "DONE":
        screening = screening_of(run)
        said = f": {verdict(screening).sentence}" if screening is not None else "; v opens its results"
        return f"{what} finished{said}", "information"
    if run.status == "CANCELLED":
        return f"{what} was cancelled", "warning"
    why = f": {one_line(run.error, 160)}" if run.error else ""
    return f"{what} ended in {one_line(run.status or '?', 20)}{why}", "error"


def note_bakeoff(app: App[Any], run: assumed.Run, before: str | None, *, bell: bool) -> bool:
    """A bake-off was read; ``before``: its status at the last read (None: never read). A
    followed one seen ending is announced once (True when this call announced it)."""
    notifier = notifier_for(app)
    key = _key(run.id)
    if not notifier.follows(key) or not run.terminal or before not in ACTIVE:
        return False
    message, severity = end_message(run)
    return notifier.announce(app, key, run.status or "?", message, severity, bell=bell)
