"""What the Blobfish suite watch says, without Textual: the state sentence, the pace, a task's
line, and how long its evidence link stays valid.

The rules (issue 18, the platform's honesty boundary): ``interrupted`` is final, never "running"
and never a score (the tasks graded so far, and that a new run is needed); a suite a rejected
credential stopped names the task and says the rest were not attempted; a number the record
does not carry is not shown (``—``), never 0.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from api_client.blobfish.shapes_bench import ERROR_KIND_AUTH, SingleRun, SuiteRun, TaskResult
from common.format import DASH, format_duration
from common.iso_time import parse_iso

__all__ = [
    "EVIDENCE_TTL_S",
    "SuiteState",
    "evidence_validity",
    "pace_per_s",
    "suite_state",
    "task_checks",
]

EVIDENCE_TTL_S = 30 * 60.0
"""Documented: session evidence expires after 30 minutes (then the link answers 410)."""

Tone = Literal["success", "primary", "secondary", "warning", "error"]


@dataclass(frozen=True)
class SuiteState:
    """The watch's headline: one sentence, its tone, and whether the run has ended."""

    status: str
    sentence: str
    tone: Tone
    final: bool


def _pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.0f}%"


def _score(value: float | None) -> str:
    return DASH if value is None else f"{value:.2f}"


def graded_count(run: SuiteRun) -> int:
    """Tasks graded so far: the record's ``graded`` when sent, else its task list's length."""
    if run.graded is not None:
        return run.graded
    return len(run.tasks or [])


def _coverage(run: SuiteRun) -> str:
    coverage = run.coverage
    if coverage is None:
        return "coverage: not sent"
    hosted = DASH if coverage.hosted_tasks is None else str(coverage.hosted_tasks)
    official = {True: "yes", False: "no", None: DASH}[coverage.official_suite]
    text = f"coverage: {hosted} hosted task(s), official suite {official}"
    if coverage.official_suite is not True:
        text += " (a self-run, not the official leaderboard)"
    return text


def suite_state(run: SuiteRun | SingleRun) -> SuiteState:
    """The sentence for the run's status (see the module's docstring for the rules)."""
    if isinstance(run, SingleRun):
        checks = task_checks(run)
        return SuiteState(
            "completed",
            f"sandbox task graded: score {_score(run.score)} · strict pass "
            f"{_yes_no(run.strict_pass)} · checks {checks} · a single task, not a suite score",
            "success",
            True,
        )
    status = run.status or "unknown"
    graded = graded_count(run)
    total = run.progress.total if run.progress and run.progress.total is not None else None
    if status == "interrupted":
        return SuiteState(
            status,
            f"interrupted: not a score. {graded} task(s) graded before the runner stopped "
            "(below); the job will not continue: a new run is needed.",
            "warning",
            True,
        )
    if status == "failed":
        error = run.error
        if error is not None and error.kind == ERROR_KIND_AUTH:
            task = error.task_id or "a task the record does not name"
            rest = f"the remaining {total - graded} task(s)" if total is not None else "the remaining tasks"
            return SuiteState(
                status,
                f"failed: the provider credential was rejected on task {task}; "
                f"{rest} were not attempted. {graded} task(s) graded before it.",
                "error",
                True,
            )
        why = (error.message or error.kind) if error is not None else None
        return SuiteState(
            status, f"failed: {why or 'the record gives no reason'}. {graded} task(s) graded.", "error", True
        )
    if status == "completed":
        return SuiteState(
            status,
            f"completed: mean score {_score(run.mean_score)} · pass rate "
            f"{_pct(run.pass_rate)} · {graded} graded, {DASH if run.passed is None else run.passed} "
            f"passed · {_coverage(run)}",
            "success",
            True,
        )
    if status == "queued":
        return SuiteState(status, "queued: waiting for the runner", "secondary", False)
    if status == "running":
        return SuiteState(status, f"running: {graded} task(s) graded so far", "primary", False)
    return SuiteState(status, f"status {status!r}: not one the contract documents; polling stopped", "warning", True)


def _yes_no(value: bool | None) -> str:
    return {True: "yes", False: "no", None: DASH}[value]


def task_checks(task: TaskResult) -> str:
    if task.passed_checks is None and task.total_checks is None:
        return DASH
    passed = DASH if task.passed_checks is None else str(task.passed_checks)
    total = DASH if task.total_checks is None else str(task.total_checks)
    return f"{passed}/{total}"


def strict_text(task: TaskResult) -> str:
    return _yes_no(task.strict_pass)


def score_text(task: TaskResult) -> str:
    return _score(task.score)


def pace_per_s(history: list[tuple[float, int]]) -> float | None:
    """Tasks per second from (clock, done) pairs since the first task was done; None until
    the pace is known."""
    first = next(((t, d) for t, d in history if d > 0), None)
    if first is None or not history:
        return None
    last_t, last_done = history[-1]
    if last_done <= first[1] or last_t <= first[0]:
        return None
    return (last_done - first[1]) / (last_t - first[0])


def eta_text(eta_s: float | None, state: SuiteState) -> str:
    if state.final:
        return "done" if state.status == "completed" else f"none ({state.status})"
    if eta_s is None:
        return "after two graded tasks"  # the progress line says "ETA" before it
    return format_duration(eta_s)


def evidence_validity(graded_by: float | None, now: float) -> str:
    """How long a task's session evidence stays valid. ``graded_by``: a wall-clock time (epoch
    seconds) the task had been graded by (when the watch first saw it, or the run's end), so
    the link expires at the latest 30 minutes after it; None: that time is not known."""
    if graded_by is None:
        return "valid 30 min after the task ran, then 410 Gone"
    expires = graded_by + EVIDENCE_TTL_S
    at = dt.datetime.fromtimestamp(expires, dt.UTC).strftime("%H:%M:%SZ")
    if now >= expires:
        return f"expired (410 Gone) by {at}: session evidence lasts 30 min; the scores stay"
    return (
        f"valid 30 min after the task ran: expires by {at} ({format_duration(expires - now)} left at most), "
        "then 410 Gone"
    )


def finished_epoch(run: SuiteRun | SingleRun) -> float | None:
    """The run's end (or a single run's creation) as epoch seconds, when the record says."""
    text = run.created_at if isinstance(run, SingleRun) else run.finished_at
    when = parse_iso(text)
    return when.timestamp() if when else None
