"""Export a rollout, or a whole evaluation, as JSONL: one rollout per line, as published.

A line is ``{"platform", "evaluation_id", "job_id", "taskset", "metadata", "rollout",
"trace"}``: the rollout record (steps, grade, captured training samples) and its trace
(every tool call, completion and verdict) verbatim, as the platform served them (it masks
secrets before it stores anything). Nothing absent is filled in. The file is written to a
temporary name beside it and renamed at the end: a failed export leaves nothing behind.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from common.atomic_write import atomic_writer
from application.blobfish.evidence import PLATFORM, Evaluation
from diagnosis.rollout_record import Rollout

__all__ = ["default_export_path", "export_lines", "write_jsonl"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(name: str) -> str:
    return _SAFE.sub("_", name).strip("._")[:60] or "x"


def default_export_path(data_dir: Path, evaluation: Evaluation, rollout: Rollout | None = None,
                        now: datetime | None = None) -> Path:  # fmt: skip
    """``<data>/exports/blobfish-<evaluation>[-<rollout>]-<UTC time>.jsonl``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    name = f"blobfish-{_safe(evaluation.evaluation_id)}"
    if rollout is not None:
        name += f"-{_safe(rollout.rollout_id)}"
    return data_dir / "exports" / f"{name}-{stamp}.jsonl"


def export_lines(evaluation: Evaluation, rollouts: Iterable[Rollout] | None = None) -> Iterator[str]:
    """One JSON line per rollout (all of the evaluation's when ``rollouts`` is None)."""
    summary = evaluation.summary
    for rollout in evaluation.rollouts if rollouts is None else rollouts:
        line = {
            "platform": PLATFORM,
            "evaluation_id": summary.evaluation_id,
            "job_id": summary.job_id,
            "taskset": evaluation.taskset,
            "metadata": dict(summary.metadata),
            "rollout": rollout.raw.get("rollout"),
            "trace": rollout.raw.get("trace"),
        }
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_jsonl(path: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` to ``path`` atomically; how many lines were written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with atomic_writer(path) as out:
        for line in lines:
            out.write(line)
            count += 1
    return count
