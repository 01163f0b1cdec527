"""Blobfish benchmark runs in the Runs area, without Textual: which slugs to list, the rows,
and starting a run once.

Which benchmarks are listed: the contract documents no route that lists benchmarks (only a
slug's own ``/runs``), so Runs lists ``DEFAULT_BENCH_SLUG`` (the benchmark the platform's page
and the simulator use as their example), the benchmarks the session was told of (the demo's),
and those this person has run or whose community board they opened, in any session
(``application.runs.bench.known``).

Starting is a write sent once: a lost answer is settled by the client's own check of the run
list (``BenchmarkClient.start_suite``/``start_single``); a second suite while one runs is 409
``run_in_progress``, reported with the running run's id so the screen can offer to follow it.
The provider key is read from the environment variable the person named, at send time, and
goes into that one request body only: it is never kept here, put into a message or returned.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from api_client.blobfish.benchmarks import (
    BenchRefusedLocally,
    RunInProgressError,
    RunNotStartedError,
)
from api_client.blobfish.shapes_bench import SingleRun, SuiteRun
from api_client.errors import BlahError, OutcomeUnknownError
from application.runs.bench.known import remember_slug
from common.format import DASH
from common.iso_time import iso_ms

__all__ = [
    "DEFAULT_BENCH_SLUG",
    "SUITES",
    "BenchRequest",
    "BenchRow",
    "BenchSlugs",
    "BenchStartOutcome",
    "bench_rows",
    "env_name_problem",
    "start_bench",
]

DEFAULT_BENCH_SLUG = "counselbench-100"
"""Listed even before anything is run here (see the module's docstring for why)."""
SUITES: tuple[str, ...] = ("none", "sample", "full")
"""``none``: the single public sandbox task (inline, up to four minutes); ``sample``: the first
10 hosted tasks; ``full``: every hosted task."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SLUG = re.compile(r"[a-z0-9][a-z0-9._-]{0,99}")


class BenchSlugs:
    """The slugs Runs lists: the default first, then each one run here, in the order first run."""

    def __init__(self, default: str = DEFAULT_BENCH_SLUG, known: Sequence[str] = ()) -> None:
        self._slugs: list[str] = list(dict.fromkeys([default, *known]))

    def add(self, slug: str) -> None:
        """A slug run here: listed from now on, and in later sessions."""
        if slug not in self._slugs:
            self._slugs.append(slug)
        remember_slug(slug, "run")

    @property
    def slugs(self) -> list[str]:
        return list(self._slugs)


@dataclass(frozen=True)
class BenchRequest:
    """What the start dialog asked for. ``key_env``: the NAME of the environment variable that
    holds the provider key (never the key), or None to use the account's own credential."""

    slug: str
    provider: str
    model: str
    suite: str  # one of SUITES
    max_tasks: int | None = None
    key_env: str | None = None
    max_steps: int | None = None
    """Tool calls per task, 1-40; None: the platform's default (24)."""

    @property
    def is_suite(self) -> bool:
        return self.suite != "none"


def env_name_problem(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """Why ``name`` cannot name the provider key's variable (None: it can). Says whether the
    variable is set, never what it holds."""
    if not _ENV_NAME.fullmatch(name):
        return f"{name[:40]!r} is not an environment variable's name (letters, digits and _)"
    env = os.environ if environ is None else environ
    if not env.get(name):
        return f"${name} is not set in this app's environment (the key is read from it, never typed here)"
    return None


def slug_problem(slug: str) -> str | None:
    return None if _SLUG.fullmatch(slug) else "a benchmark slug is lower-case letters, digits, '.', '_' and '-'"


@dataclass(frozen=True)
class BenchRow:
    """One Blobfish run as the Runs list shows it (every value as sent; None: not sent)."""

    slug: str
    run_id: str
    kind: Literal["suite", "task"]
    status: str | None
    suite: str | None
    model: str | None
    provider: str | None
    done: int | None
    total: int | None
    created_at: str | None
    finished_at: str | None
    error: str | None
    record: SuiteRun | SingleRun

    @property
    def key(self) -> str:
        """The row's key in the table: never equal to a blah.dev run id."""
        return f"blobfish:{self.slug}:{self.run_id}"

    @property
    def is_active(self) -> bool:
        return self.kind == "suite" and self.status in ("queued", "running")

    def progress_text(self) -> str:
        done = DASH if self.done is None else str(self.done)
        total = DASH if self.total is None else str(self.total)
        return f"{done}/{total}"

    @property
    def took_s(self) -> float | None:
        """From creation to the end, when the record gives both (a suite's queue time included)."""
        start, end = iso_ms(self.created_at), iso_ms(self.finished_at)
        return (end - start) / 1000 if start is not None and end is not None and end >= start else None

    def model_text(self) -> str:
        if self.model and self.provider:
            return f"{self.provider}/{self.model}"
        return self.model or DASH


def _suite_row(slug: str, run: SuiteRun) -> BenchRow:
    progress = run.progress
    error = run.error.message or run.error.kind if run.error else None
    return BenchRow(
        slug,
        run.run_id,
        "suite",
        run.status,
        run.suite,
        run.model,
        run.provider,
        progress.done if progress else None,
        progress.total if progress else None,
        run.created_at,
        run.finished_at,
        error,
        run,
    )


def _task_row(slug: str, run: SingleRun) -> BenchRow:
    # A single-task run answers when it is over: its record is final ("completed").
    return BenchRow(
        slug, run.run_id, "task", "completed", None, run.model, run.provider, 1, 1, run.created_at, None, None, run
    )


def bench_rows(slug: str, runs: Any) -> list[BenchRow]:
    """The rows of one slug's ``RunList``: suite jobs first (newest first), then single runs."""
    return [*(_suite_row(slug, r) for r in runs.suite_runs), *(_task_row(slug, r) for r in runs.runs)]


# ---------------------------------------------------------------------------- starting

StartKind = Literal["started", "in_progress", "not_started", "refused"]


@dataclass(frozen=True)
class BenchStartOutcome:
    """What came of one start. ``run_id`` is the run to watch: the new one (``started``) or the
    one already running (``in_progress``)."""

    kind: StartKind
    message: str
    slug: str
    run_id: str | None = None
    record: SuiteRun | SingleRun | None = None
    location: str | None = None
    retry_after: float | None = None

    @property
    def severity(self) -> Literal["information", "warning", "error"]:
        if self.kind == "started":
            return "information"
        return "warning" if self.kind == "in_progress" else "error"


async def start_bench(
    client: Any, request: BenchRequest, environ: Mapping[str, str] | None = None, known_slugs: Sequence[str] = ()
) -> BenchStartOutcome:
    """Send ``request`` once with ``client`` (a ``BenchmarkClient``) and say what came of it.
    ``known_slugs``: where to look for a running suite a 409 names (it may run on another
    benchmark: one suite per account)."""
    slug = request.slug
    api_key: str | None = None
    if request.key_env:
        problem = env_name_problem(request.key_env, environ)
        if problem:
            return BenchStartOutcome("refused", f"Nothing was sent: {problem}.", slug)
        api_key = (os.environ if environ is None else environ)[request.key_env]
    try:
        if request.is_suite:
            started = await client.start_suite(
                slug,
                provider=request.provider,
                model=request.model,
                suite=request.suite,
                api_key=api_key,
                max_tasks=request.max_tasks,
                max_steps=request.max_steps,
            )
            record = started.record
            how = " (its answer was lost; the run list shows it started)" if started.settled_from_list else ""
            return BenchStartOutcome(
                "started",
                f"Suite run {record.run_id} started{how}.",
                slug,
                record.run_id,
                record,
                started.location,
                started.retry_after,
            )
        single = await client.start_single(
            slug, provider=request.provider, model=request.model, api_key=api_key, max_steps=request.max_steps
        )
        return BenchStartOutcome("started", f"Sandbox task run {single.run_id} graded.", slug, single.run_id, single)
    except RunInProgressError as error:
        running = error.run_id
        on = slug
        if running:
            try:
                found = await client.find_run(running, [slug, *known_slugs])
            except BlahError:
                found = None
            on = found[0] if found else slug
        where = f" ({running}{'' if on == slug else f' on {on}'})" if running else " (the run list did not show which)"
        return BenchStartOutcome(
            "in_progress",
            f"A suite run is already in progress for this account{where}; "
            "one suite runs at a time. Nothing new was started.",
            on,
            running,
        )
    except RunNotStartedError:
        return BenchStartOutcome(
            "not_started",
            "Outcome unknown: the answer was lost, and the run list shows no new "
            "run, so nothing started (a sandbox task may still show up within four minutes). "
            "Check the list before starting again.",
            slug,
        )
    except OutcomeUnknownError:
        return BenchStartOutcome(
            "not_started",
            "Outcome unknown: the answer was lost and the run list could not be "
            "read; check the list before starting again.",
            slug,
        )
    except BenchRefusedLocally as error:
        return BenchStartOutcome("refused", f"{error}.", slug)
    except BlahError as error:
        return BenchStartOutcome("refused", f"The platform refused the run: {error}", slug)
    finally:
        api_key = None
