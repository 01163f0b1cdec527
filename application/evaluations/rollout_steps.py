"""Blobfish rollout steps in the Blobfish profile's archive, so full-text search finds them as
it finds blah.dev calls (no Textual).

Each step of each rollout of a published evaluation becomes one archive row:

- the step read as a call by ``common.records.step_call``, as the Inspector, ``blah-tui open``
  and diagnosis read it: ``id`` ``<rollout>#<step from 1>`` (stable: ingesting again adds
  nothing; ASSUMED: a rollout's id is unique among the account's evaluations, as the
  platform's ``<job>-r<n>`` are), ``source`` ``"blobfish"`` (the platform marker),
  ``prompt`` the step's prompt and ``response`` its final answer (the searchable text),
  ``eval_id`` the evaluation, ``run_id`` the rollout, ``result_id`` the task;
- ``model_id`` the job's ``metadata.model`` (not the completion's);
- ``created_at`` the evaluation's publication time, ``None`` (stored NULL, shown "not given")
  when the platform gave none: a missing time stays missing, never 0 (such rows come first in
  the archive's order).

The archive is the profile's own (``api_client.archives.files.profile_archives_dir``): one per
Blobfish profile, beside that profile's other archives.

    archive = open_steps_archive(data_dir(), profile)
    stats = await ingest_evaluations(client, archive)
    hits = search_steps(archive, "strawberry")
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from api_client.archives.archive import Archive
from application.evaluations.evidence import Evaluation, EvaluationSummary
from common.iso_time import iso_ms
from common.records import Call, step_call

__all__ = [
    "PLATFORM_MARKER",
    "STEPS_ARCHIVE_NAME",
    "IngestStats",
    "StepHit",
    "ingest_evaluations",
    "open_steps_archive",
    "search_steps",
    "step_entries",
]

PLATFORM_MARKER = "blobfish"
"""The ``source`` of every Blobfish step row: what tells it from a blah.dev call."""
STEPS_ARCHIVE_NAME = "blobfish-steps"
"""The archive's "model" in its file name and meta (Blobfish has no model per archive)."""
DETAILS_IN_FLIGHT = 4


class EvaluationReader(Protocol):
    """What ingesting needs of ``BlobfishClient``."""

    async def list_evaluations(self) -> list[EvaluationSummary]: ...

    async def get_evaluation(self, evaluation_id: str) -> Evaluation: ...


@dataclass(frozen=True)
class IngestStats:
    evaluations: int  # read from the platform
    steps: int  # rows the evaluations hold
    new_steps: int  # rows not in the archive before


@dataclass(frozen=True)
class StepHit:
    """One step the search found, as stored (verbatim, untrusted text)."""

    evaluation_id: str | None
    rollout_id: str | None
    task_id: str | None
    step: int
    model: str | None
    prompt: str | None
    final_answer: str | None
    created_at: int | None  # ms; None: the platform gave no time

    def as_json(self) -> dict[str, object]:
        return {
            "evaluation_id": self.evaluation_id,
            "rollout_id": self.rollout_id,
            "task_id": self.task_id,
            "step": self.step,
            "model": self.model,
            "prompt": self.prompt,
            "final_answer": self.final_answer,
        }


def open_steps_archive(data_dir: Path | str, profile_name: str, origin: str) -> Archive:
    """The steps archive of the Blobfish profile ``profile_name`` at ``origin``."""
    return Archive.for_model(data_dir, PLATFORM_MARKER, origin, STEPS_ARCHIVE_NAME, profile_name)


def _model_of(evaluation: Evaluation) -> str | None:
    """The job's ``metadata.model`` (not the summary's: a step row names the job's model)."""
    model = (evaluation.job_metadata or {}).get("model")
    return model if isinstance(model, str) else None


def step_entries(detail: Evaluation) -> list[Call]:
    """The archive rows of one evaluation's steps (see the module's docstring)."""
    created = iso_ms(detail.summary.created_at)
    model = _model_of(detail)
    return [
        step_call(rollout, step, created_at=created, evaluation_id=detail.evaluation_id).replace(model_id=model)
        for rollout in detail.rollouts
        for step in rollout.steps
    ]


async def ingest_evaluations(client: EvaluationReader, archive: Archive) -> IngestStats:
    """Read every published evaluation's detail and store its steps; returns what was read
    and how many rows were new. The archive is written off the event loop."""
    summaries = await client.list_evaluations()
    gate = asyncio.Semaphore(DETAILS_IN_FLIGHT)

    async def detail(summary: EvaluationSummary) -> Evaluation:
        async with gate:
            return await client.get_evaluation(summary.evaluation_id)

    details = await asyncio.gather(*(detail(s) for s in summaries))
    entries = [entry for d in details for entry in step_entries(d)]
    new = await asyncio.to_thread(archive.add, entries)
    return IngestStats(evaluations=len(details), steps=len(entries), new_steps=new)


def search_steps(archive: Archive, text: str, *, limit: int = 100) -> tuple[int, list[StepHit]]:
    """(how many steps match ``text``, the first ``limit`` of them, oldest first)."""
    result = archive.search(text, limit=limit)
    hits = []
    for log_id in result.ids:
        entry = archive.find(log_id)
        if entry is None or entry.source != PLATFORM_MARKER:
            continue
        hits.append(
            StepHit(
                evaluation_id=entry.eval_id,
                rollout_id=entry.run_id,
                task_id=entry.result_id,
                step=_step_number(entry.id),
                model=entry.model_id,
                prompt=entry.prompt,
                final_answer=entry.response,
                created_at=entry.created_at,
            )
        )
    return result.count, hits


def _step_number(row_id: str) -> int:
    """The step's 0-based place in its rollout (what ``StepHit.step`` has always said), from
    its id's ``#<step from 1>``."""
    tail = row_id.rsplit("#", 1)[-1]
    return int(tail) - 1 if tail.isdigit() and tail != "0" else 0


def describe(stats: IngestStats) -> str:
    """``3 evaluations, 7 steps (2 new)``."""
    return f"{stats.evaluations} evaluations, {stats.steps} steps ({stats.new_steps} new)"
