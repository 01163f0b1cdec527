"""Every benchmark-run and community-board shape the Blobfish client reads, in one module.

Contract sections 3-4 document some members (``run_id``, ``status``, ``progress``,
``poll_after_seconds``, ``error.kind``, ``coverage``, ``credential_source``, ``links.self``, the
single run's score members, the board's ``community_run_id``/``mine``/``badge``); the rest is
ASSUMED (as ``simulator/blobfish/shapes.py`` serves it) and read leniently: unknown members are
kept for ``--json``, an absent member stays ``None`` (not recorded), never 0.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict

from api_client.transport.lenient import Lenient

Json = dict[str, Any]

BENCHMARKS_PATH = "/api/v1/benchmarks"
DEFAULT_POLL_S = 5.0  # documented: "poll_after_seconds (5 if absent)"
ACTIVE_STATUSES = frozenset({"queued", "running"})  # documented: poll only while one of these
FINAL_STATUSES = frozenset({"completed", "failed", "interrupted"})  # documented
ERROR_KIND_INTERRUPTED = "interrupted"  # documented
ERROR_KIND_AUTH = "auth"  # ASSUMED (listed as assumed in the contract)
MAX_DISPLAY_NAME = 80  # documented
MAX_NOTES = 500  # documented
MAX_STEPS_RANGE = (1, 40)  # documented
MAX_TASKS_RANGE = (1, 100)  # documented
SINGLE_RUN_DEADLINE_S = 300.0
"""The single-task run answers within about four minutes: its call gets five."""

CODE_RUN_IN_PROGRESS = "run_in_progress"
CODE_NOT_A_SUITE_RUN = "not_a_suite_run"
CODE_SUITE_RUN_NOT_COMPLETED = "suite_run_not_completed"
CODE_SUITE_RUN_NOT_GRADED = "suite_run_not_graded"
CODE_ALREADY_SUBMITTED = "already_submitted"
CODE_INVALID_SUBMISSION = "invalid_submission"


class Progress(Lenient):
    done: int | None = None
    total: int | None = None


class Coverage(Lenient):
    hosted_tasks: int | None = None
    official_suite: bool | None = None


class RunError(Lenient):
    """``kind`` documented (``interrupted``); ``message``, ``task_id`` ASSUMED."""

    kind: str | None = None
    message: str | None = None
    task_id: str | None = None


class Links(Lenient):
    self_: str | None = None
    page: str | None = None

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
        defer_build=True,
        alias_generator=lambda name: "self" if name == "self_" else name,
    )


class TaskStep(Lenient):
    """One recorded step of a benchmark task, a tool call as the wire carries it. ASSUMED:
    ``{index, tool, arguments, result}``. Read as the product's ``common.records.ToolCall``
    by ``api_client.blobfish.records.rollout_from_task``."""

    index: int | None = None
    tool: str | None = None
    arguments: Any = None
    result: Any = None


class Grader(Lenient):
    explanation: str | None = None


class TaskResult(Lenient):
    """A graded task: the single run's record, or (ASSUMED) one of a suite's ``tasks``."""

    task_id: str | None = None
    name: str | None = None
    score: float | None = None
    strict_pass: bool | None = None
    passed_checks: int | None = None
    total_checks: int | None = None
    steps: list[TaskStep] | None = None
    grader: Grader | None = None
    evidence_url: str | None = None


class SingleRun(TaskResult):
    """201 of a single-task run: ``{kind: "task", run_id: "bmr_…", score, strict_pass,
    passed_checks, total_checks, steps, evidence_url, full_suite_command}`` (+ ASSUMED extras)."""

    kind: str | None = None
    run_id: str
    full_suite_command: str | None = None
    model: str | None = None
    provider: str | None = None
    credential_source: str | None = None
    created_at: str | None = None


class SuiteRun(Lenient):
    """A ``bmrs_`` suite job's whole record (every poll answers all of it)."""

    run_id: str
    kind: str | None = None
    status: str | None = None
    suite: str | None = None
    model: str | None = None
    provider: str | None = None
    credential_source: str | None = None
    progress: Progress | None = None
    poll_after_seconds: float | None = None
    error: RunError | None = None
    coverage: Coverage | None = None
    tasks: list[TaskResult] | None = None
    graded: int | None = None
    passed: int | None = None
    mean_score: float | None = None
    pass_rate: float | None = None
    created_at: str | None = None
    finished_at: str | None = None
    links: Links | None = None

    @property
    def is_final(self) -> bool:
        """Anything but ``queued``/``running`` ends the poll (an unknown status too)."""
        return self.status not in ACTIVE_STATUSES

    @property
    def self_url(self) -> str | None:
        return self.links.self_ if self.links else None


class RunList(Lenient):
    runs: list[SingleRun] = []
    suite_runs: list[SuiteRun] = []


class CommunityRow(Lenient):
    community_run_id: str
    run_id: str | None = None
    display_name: str | None = None
    notes: str | None = None
    model: str | None = None
    provider: str | None = None
    credential_source: str | None = None
    suite: str | None = None
    tasks: int | None = None
    graded: int | None = None
    passed: int | None = None
    mean_score: float | None = None
    pass_rate: float | None = None
    coverage: Coverage | None = None
    created_at: str | None = None
    finished_at: str | None = None
    submitted_at: str | None = None
    badge: str | None = None
    mine: bool | None = None


class Board(Lenient):
    """ASSUMED wrapper ``{"community_runs": [...]}``."""

    community_runs: list[CommunityRow] = []


class Deleted(Lenient):
    deleted: bool | None = None


def parse_single_or_suite(data: Any) -> SingleRun | SuiteRun:
    """A run record: a suite job when its id is ``bmrs_`` or its kind says so."""
    if isinstance(data, dict) and (str(data.get("run_id", "")).startswith("bmrs_") or data.get("kind") == "suite"):
        return SuiteRun.model_validate(data)
    return SingleRun.model_validate(data)
