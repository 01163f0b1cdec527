"""Export a rollout, or a whole evaluation, as JSONL in the platform's own format: the same
lines as `blah-tui blobfish export` (which saves Blobfish's ``?format=jsonl`` answer), so a
file from either is interchangeable and `blah-tui open` reads both.

A line is one ``blobfish.trace.v1`` record (the rollout's trace: every tool call, completion
and verdict), verbatim as the platform served it (it masks secrets before it stores anything),
written as compact JSON the way the platform writes it; a whole evaluation is every trace of
its envelope, in the envelope's order. A rollout whose trace the platform did not send has no
line (nothing is made up); :func:`export_lines` callers learn that from the count. The file is
written to a temporary name beside it and renamed at the end: a failed export leaves nothing.

Files written by earlier versions of the app (one ``{"platform", "evaluation_id", "rollout",
"trace", ...}`` object per line) are still read by `blah-tui open`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from application.evaluations.evidence import Evaluation, Rollout
from common.atomic_write import atomic_writer

__all__ = ["default_export_path", "export_lines", "trace_line", "write_jsonl"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(name: str) -> str:
    return _SAFE.sub("_", name).strip("._")[:60] or "x"


def default_export_path(
    data_dir: Path, evaluation: Evaluation, rollout: Rollout | None = None, now: datetime | None = None
) -> Path:
    """``<data>/exports/blobfish-<evaluation>[-<rollout>]-<UTC time>.jsonl``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    name = f"blobfish-{_safe(evaluation.evaluation_id)}"
    if rollout is not None:
        name += f"-{_safe(rollout.rollout_id)}"
    return data_dir / "exports" / f"{name}-{stamp}.jsonl"


def trace_line(trace: Mapping[str, Any]) -> str:
    """One trace as the platform's JSONL line: compact JSON, UTF-8 as is, members in the
    order sent. Text holding a lone UTF-16 surrogate (which the platform sends as a ``\\udXXX``
    escape) is written with the same escape."""
    try:
        return orjson.dumps(trace).decode("utf-8") + "\n"
    except TypeError:
        return json.dumps(trace, ensure_ascii=True, separators=(",", ":")) + "\n"


def export_lines(evaluation: Evaluation, rollouts: Iterable[Rollout] | None = None) -> Iterator[str]:
    """The platform's lines: every trace of the evaluation (``rollouts`` None), else the trace of
    each rollout given (those the platform sent a trace for)."""
    if rollouts is None:
        traces: Iterable[Any] = evaluation.traces or (r.raw.get("trace") for r in evaluation.rollouts)
    else:
        traces = (r.raw.get("trace") for r in rollouts)
    for trace in traces:
        if isinstance(trace, Mapping):
            yield trace_line(trace)


def write_jsonl(path: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` to ``path`` atomically; how many lines were written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with atomic_writer(path) as out:
        for line in lines:
            out.write(line)
            count += 1
    return count
