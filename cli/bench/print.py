"""What `blah-tui bench` prints: a suite run, a single-task run, the run listing and the
community board, as aligned plain text (or inert JSON). Every value the platform sent is cut
to one inert line; what it did not send is a dash."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import TextIO

from api_client.blobfish.shapes_bench import (
    CommunityRow,
    RunList,
    SingleRun,
    SuiteRun,
    TaskResult,
)
from application.leaderboard.bench_board import coverage_sentence
from application.leaderboard.bench_error_bars import pass_rate_cell
from application.runs.bench.full_suite import full_suite_command
from cli.blobfish.command import _created
from cli.output import cell as _cell
from cli.output import number as _number
from cli.output import table
from common.format import DASH
from common.iso_time import parse_iso
from common.safe_strings import clip, one_line

NOT_A_SCORE = "interrupted: not a score; the tasks graded so far are below; a new run is needed"


def _flag(value: bool | None, yes: str, no: str) -> str:
    return DASH if value is None else (yes if value else no)


def _coverage(record: SuiteRun | CommunityRow) -> str:
    return coverage_sentence(record.coverage)


def _task_rows(tasks: Sequence[TaskResult]) -> list[list[str]]:
    return [
        [
            _cell(t.task_id, 16),
            _cell(t.name, 40),
            _number(t.score),
            _flag(t.strict_pass, "pass", "fail"),
            f"{_number(t.passed_checks)}/{_number(t.total_checks)}",
            _number(len(t.steps) if t.steps is not None else None),
            _cell(t.grader.explanation if t.grader else None, 50),
        ]
        for t in tasks
    ]


TASK_HEADERS = ("task", "name", "score", "strict", "checks", "steps", "grader")


def print_suite(record: SuiteRun, out: TextIO) -> None:
    progress = record.progress
    done = f"{_number(progress.done if progress else None)}/{_number(progress.total if progress else None)}"
    facts = [
        ("run", _cell(record.run_id, 60)),
        ("status", _cell(record.status, 20)),
        ("suite", _cell(record.suite, 20)),
        ("model", _cell(record.model, 60)),
        ("provider", _cell(record.provider, 30)),
        ("credential", _cell(record.credential_source, 20)),
        ("progress", done),
        ("coverage", _coverage(record)),
    ]
    if record.status == "completed":
        facts += [
            ("mean score", _number(record.mean_score)),
            ("pass rate", _number(record.pass_rate)),
            ("graded", f"{_number(record.graded)}, passed {_number(record.passed)}"),
        ]
    elif record.status == "interrupted":
        facts.append(("result", NOT_A_SCORE))
    elif record.status == "failed":
        facts.append(("result", "failed: no score"))
    if record.error is not None:
        facts.append(("error", f"{_cell(record.error.kind, 20)}: {_cell(record.error.message, 200)}"))
        if record.error.kind == "auth":
            where = f"task {_cell(record.error.task_id, 40)}" if record.error.task_id else "a task"
            facts.append(
                (
                    "stopped",
                    (f"the provider rejected the credential on {where}; the remaining tasks were not attempted"),
                )
            )
    facts += [("created", _created(record.created_at)), ("finished", _created(record.finished_at))]
    for name, value in facts:
        out.write(f"{name:<11} {value}\n")
    tasks = record.tasks or []
    if tasks:
        out.write("\n" + ("tasks graded before the interruption:\n" if record.status == "interrupted" else ""))
        table(TASK_HEADERS, _task_rows(tasks), out, {2})
        print_evidence(tasks, record.finished_at or record.created_at, out)


def print_evidence(tasks: Sequence[TaskResult], created_at: str | None, out: TextIO) -> None:
    """Each task's session evidence link, whole (a link cut short opens nothing)."""
    out.write(f"\nevidence ({_evidence_age(created_at)})\n")
    width = max(len(_cell(t.task_id, 16)) for t in tasks)
    for task in tasks:
        out.write(f"{_cell(task.task_id, 16):<{width}}  {_cell(task.evidence_url, 2000)}\n")


EVIDENCE_TTL = dt.timedelta(minutes=30)


def _evidence_age(created_at: str | None, now: dt.datetime | None = None) -> str:
    """Evidence links expire 30 minutes after their session; the scores are kept."""
    created = parse_iso(created_at)
    if created is None:
        return "expires 30 minutes after the session"
    if (now or dt.datetime.now(dt.UTC)) - created >= EVIDENCE_TTL:
        return "stale: evidence expires after 30 minutes; the scores above are kept"
    return "expires 30 minutes after the session"


def print_single(record: SingleRun, out: TextIO) -> None:
    facts = [
        ("run", _cell(record.run_id, 60)),
        ("task", _cell(record.name or record.task_id, 80)),
        ("model", _cell(record.model, 60)),
        ("credential", _cell(record.credential_source, 20)),
        ("score", _number(record.score)),
        ("strict pass", _flag(record.strict_pass, "yes", "no")),
        ("checks", f"{_number(record.passed_checks)}/{_number(record.total_checks)}"),
        ("grader", _cell(record.grader.explanation if record.grader else None, 200)),
        ("evidence", f"{_cell(record.evidence_url, 200)} ({_evidence_age(record.created_at)})"),
        ("full suite", _cell(record.full_suite_command, 300)),
    ]
    for name, value in facts:
        out.write(f"{name:<11} {value}\n")
    if record.steps:
        out.write("\n")
        rows = [
            [
                _number(s.index),
                _cell(s.tool, 24),
                _cell(json.dumps(s.arguments, ensure_ascii=False), 40),
                _cell(s.result if isinstance(s.result, str) else json.dumps(s.result), 50),
            ]
            for s in record.steps
        ]
        table(("#", "tool", "arguments", "result"), rows, out, {0})


def print_board(rows: Sequence[CommunityRow], out: TextIO) -> None:
    if not rows:
        out.write("no community runs on this board yet\n")
        return
    board = [
        [
            _cell(r.community_run_id, 26),
            _cell(r.display_name, 30),
            _cell(r.model, 24),
            _cell(r.credential_source, 10),
            _cell(r.suite, 8),
            f"{_number(r.tasks)}/{_number(r.graded)}/{_number(r.passed)}",
            _number(r.mean_score),
            pass_rate_cell(r),
            "official" if r.coverage and r.coverage.official_suite else "self-run",
            _created(r.submitted_at),
            "mine" if r.mine else "",
        ]
        for r in rows
    ]
    table(
        (
            "community run",
            "name",
            "model",
            "credential",
            "suite",
            "tasks/graded/passed",
            "mean",
            "pass rate [95% CI]",
            "coverage",
            "submitted",
            "",
        ),
        board,
        out,
        {6},
    )
    out.write(
        "\npass rates: 95% Wilson intervals from each row's graded/passed counts · mean scores: the "
        "board's averages (it sends no per-task scores): no interval, no tier\n"
    )
    badges = {r.badge for r in rows if r.badge}
    for badge in sorted(badges):
        out.write(f"\n{one_line(badge, None)}\n")


def print_runs(listing: RunList, out: TextIO) -> None:
    out.write("suite runs\n")
    if listing.suite_runs:
        rows = [
            [
                _cell(r.run_id, 26),
                _cell(r.status, 12),
                _cell(r.suite, 8),
                _cell(r.model, 24),
                (
                    f"{_number(r.progress.done if r.progress else None)}/"
                    f"{_number(r.progress.total if r.progress else None)}"
                ),
                _number(r.mean_score) if r.status == "completed" else DASH,
                _cell(r.credential_source, 10),
                _created(r.created_at),
            ]
            for r in listing.suite_runs
        ]
        table(("run", "status", "suite", "model", "done", "mean", "credential", "created"), rows, out, {5})
    else:
        out.write("  none\n")
    out.write("\nsingle-task runs\n")
    if listing.runs:
        rows = [
            [
                _cell(r.run_id, 26),
                _cell(r.model, 24),
                _number(r.score),
                _flag(r.strict_pass, "pass", "fail"),
                _cell(r.credential_source, 10),
                _created(r.created_at),
            ]
            for r in listing.runs
        ]
        table(("run", "model", "score", "strict", "credential", "created"), rows, out, {2})
    else:
        out.write("  none\n")
    print_full_suite_commands(listing, out)


def print_full_suite_commands(listing: RunList, out: TextIO) -> None:
    """Each run's full-suite command (the frozen release on Harbor, same model) on a line of its
    own, to copy; a suite run's from a same-model sandbox run when its record has none."""
    runs: list[SuiteRun | SingleRun] = [*listing.suite_runs, *listing.runs]
    if not runs:
        return
    out.write("\nfull-suite commands (the frozen release on Harbor, with the same model)\n")
    for run in runs:
        found = full_suite_command(run, listing)
        model = f"{_cell(run.provider, 30)}/{_cell(run.model, 60)}" if run.provider else _cell(run.model, 60)
        source = f", from sandbox run {_cell(found.from_run, 40)}" if found.from_run else ""
        out.write(f"  {_cell(run.run_id, 40)} ({model}{source}):\n")
        if found.command:
            out.write(f"    {clip(found.command, 2000)}\n")
        else:
            out.write(
                "    not sent: the platform gives it with a sandbox-task run "
                "(blah-tui bench run SLUG --model M --provider P)\n"
            )
