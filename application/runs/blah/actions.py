"""The three run writes (start, resume, cancel) and what their answers mean (no Textual).

Each write is sent ONCE. A write that times out (``OutcomeUnknownError``) is never retried:
its outcome is "unknown" until a read confirms it (for a start: a run that was not there
before, with the same models, appears in ``GET /runs``; for resume/cancel: the run's status
moved). Refusals are turned into plain sentences: 403 = the key lacks council tier, 409 = the
run is not in a state that allows it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from api_client.blahdev.shapes import Run
from api_client.errors import (
    AuthError,
    BlahError,
    ConflictError,
    MissingKeyError,
    NotFoundError,
    OutcomeUnknownError,
)
from application.error_text import council_refusal, platform_said, read_back_failed
from common.safe_strings import one_line

if TYPE_CHECKING:
    from api_client.blahdev.client import BlahClient

__all__ = ["WriteOutcome", "cancel_run", "explain_refusal", "resume_run", "start_run"]

OutcomeKind = Literal["done", "confirmed_after_timeout", "unknown", "refused", "failed"]
Sleep = Callable[[float], Awaitable[None]]

_VERBS = {"start": "Starting a run", "resume": "Resuming a run", "cancel": "Cancelling a run"}
_CONFLICT = {
    "resume": "This run is not stalled or failed, so there is nothing to resume.",
    "cancel": "This run is not running or queued, so there is nothing to cancel.",
    "start": "The platform refused to start this run now (conflict).",
}


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """What happened to one write, in words the person can act on."""

    kind: OutcomeKind
    message: str
    run: Run | None = None
    error: BlahError | None = None
    """The refusal or failure behind a "refused"/"failed" outcome (its kind, for an exit code)."""

    @property
    def ok(self) -> bool:
        return self.kind in ("done", "confirmed_after_timeout")

    @property
    def severity(self) -> Literal["information", "warning", "error"]:
        if self.ok:
            return "information"
        return "warning" if self.kind == "unknown" else "error"


def explain_refusal(action: Literal["start", "resume", "cancel"], error: BlahError) -> str:
    """A plain sentence for a refused write (403, 401, 409, no key, 404)."""
    verb = _VERBS[action]
    server = platform_said(error)
    if isinstance(error, MissingKeyError):
        return f"{verb} needs an API key with council tier; none is configured. Nothing was sent."
    if isinstance(error, AuthError):
        return council_refusal(f"{verb} needs", error)
    if isinstance(error, ConflictError):
        return f"{_CONFLICT[action]}{server}"
    if isinstance(error, NotFoundError):
        return f"The platform does not know this run (HTTP 404){server}."
    return f"{verb} failed: {one_line(str(error), max_len=200)}"


async def start_run(
    client: BlahClient,
    model_ids: Sequence[str],
    *,
    known_run_ids: Collection[str],
    confirm_attempts: int = 3,
    confirm_delay: float = 1.0,
    sleep: Sleep = asyncio.sleep,
) -> WriteOutcome:
    """POST /runs once. ``known_run_ids`` are the runs listed before asking (to spot the new one)."""
    try:
        started = await client.start_run(list(model_ids))
    except OutcomeUnknownError:
        return await _confirm_start(client, model_ids, known_run_ids, confirm_attempts, confirm_delay, sleep)
    except (AuthError, ConflictError, NotFoundError) as error:
        return WriteOutcome("refused", explain_refusal("start", error), error=error)
    except BlahError as error:
        return WriteOutcome("failed", explain_refusal("start", error), error=error)
    if started.run is not None:
        return WriteOutcome("done", f"Run {one_line(started.run.id, max_len=60)} started.", started.run)
    # The older answer form: {"message": ...} and no run; find it in the list.
    said = f" The platform said: {one_line(started.message, max_len=160)}" if started.message else ""
    found = await _find_new_run(client, model_ids, known_run_ids)
    if isinstance(found, Run):
        return WriteOutcome("done", f"Run {one_line(found.id, max_len=60)} started.{said}", found)
    return WriteOutcome("done", f"The run was accepted.{said}")


async def _find_new_run(
    client: BlahClient, model_ids: Sequence[str], known_run_ids: Collection[str]
) -> Run | BlahError | None:
    try:
        runs = await client.list_runs()
    except BlahError as error:
        return error
    wanted = set(model_ids)
    for run in runs:  # newest first
        if run.id in known_run_ids:
            continue
        if run.model_ids is None or set(run.model_ids) == wanted:
            return run
    return None


async def _confirm_start(
    client: BlahClient,
    model_ids: Sequence[str],
    known_run_ids: Collection[str],
    attempts: int,
    delay: float,
    sleep: Sleep,
) -> WriteOutcome:
    last: Run | BlahError | None = None
    for attempt in range(max(attempts, 1)):
        if attempt:
            await sleep(delay)
        last = await _find_new_run(client, model_ids, known_run_ids)
        if isinstance(last, Run):
            return WriteOutcome(
                "confirmed_after_timeout",
                f"The request timed out, but the platform lists a new run {one_line(last.id, max_len=60)} "
                "with these models: it did start.",
                last,
            )
    if isinstance(last, BlahError):
        why = f"checking the runs list failed too ({one_line(str(last), max_len=120)})"
    else:
        why = "no new run with these models is listed yet"
    return WriteOutcome(
        "unknown",
        f"Outcome unknown: the request timed out and {why}. It was not sent again; refresh the "
        "runs list before starting another.",
    )


async def _status_write(
    action: Literal["resume", "cancel"],
    call: Callable[[str], Awaitable[Run]],
    client: BlahClient,
    run_id: str,
    expect: Collection[str],
) -> WriteOutcome:
    rid = one_line(run_id, max_len=60)
    try:
        run = await call(run_id)
    except OutcomeUnknownError:
        try:
            run = await client.get_run(run_id)
        except BlahError as error:
            return WriteOutcome("unknown", read_back_failed(f"run {rid}", error))
        if run.status in expect:
            return WriteOutcome(
                "confirmed_after_timeout",
                f"The request timed out, but run {rid} is now {one_line(run.status, max_len=20)}.",
                run,
            )
        return WriteOutcome(
            "unknown",
            f"Outcome unknown: the request timed out and run {rid} is still "
            f"{one_line(run.status or 'of unknown status', max_len=20)}. It was not sent again.",
            run,
        )
    except BlahError as error:
        kind: OutcomeKind = "refused" if isinstance(error, (AuthError, ConflictError, NotFoundError)) else "failed"
        return WriteOutcome(kind, explain_refusal(action, error), error=error)
    return WriteOutcome("done", _done_message(action, rid, run.status), run)


def _done_message(action: Literal["resume", "cancel"], rid: str, status: str | None) -> str:
    """``Run X cancelled.``; the platform's status is added only when it is not what the verb says."""
    past, expected = ("resumed", "running") if action == "resume" else ("cancelled", "cancelled")
    if status == expected:
        return f"Run {rid} {past}."
    return f"Run {rid} {past}; the platform now says it is {one_line(status or 'of unknown status', max_len=20)}."


async def resume_run(client: BlahClient, run_id: str) -> WriteOutcome:
    """POST /runs/{id}/resume once; a timeout is checked with GET /runs/{id}."""
    return await _status_write("resume", client.resume_run, client, run_id, ("running", "queued", "completed"))


async def cancel_run(client: BlahClient, run_id: str) -> WriteOutcome:
    """POST /runs/{id}/cancel once; a timeout is checked with GET /runs/{id}."""
    return await _status_write("cancel", client.cancel_run, client, run_id, ("cancelled",))
