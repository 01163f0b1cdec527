"""Blobfish JSONL lines read as calls, for `blah-tui open` (pure: no IO, no Textual).

Two kinds of line are Blobfish evidence, and both are read:

- the platform's format (``?format=jsonl``, `blah-tui blobfish export`, and the app's own
  export since it writes the same lines): one ``blobfish.trace.v1`` record per line;
- what earlier versions of the app exported: ``{"platform": "blobfish", "evaluation_id",
  "rollout", "trace", ...}`` per line.

Each step becomes one call by ``common.records.step_call``, as everywhere (the Inspector,
the steps archive's search, diagnosis): id ``<rollout>#<step from 1>``, ``source``
``"blobfish"``, ``model_id`` the completion's model, ``eval_id`` the evaluation, ``run_id``
the rollout, ``result_id`` the task, ``response`` the step's final answer (or the trace's
``final`` text of its turn). A trace alone has no prompts (they live in the job's rollout
records, which the platform's JSONL does not carry): its calls have none, never a made-up
one. ``created_at`` is the record's own timestamp when it has one, else ``None`` (not given,
never 0; the archive stores NULL and puts such rows first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from api_client.blobfish.shapes_evidence import parse_rollout
from application.evaluations.rollout_steps import PLATFORM_MARKER
from common.iso_time import iso_ms
from common.records import Call, step_call

__all__ = ["blobfish_entries", "is_blobfish_line"]

TRACE_SCHEMA = "blobfish.trace.v1"


def _is_trace(value: Mapping[str, Any]) -> bool:
    return value.get("schema") == TRACE_SCHEMA or (
        "records" in value and isinstance(value.get("records"), list) and ("trace_id" in value or "rollout_id" in value)
    )


def _is_legacy(value: Mapping[str, Any]) -> bool:
    return value.get("platform") == PLATFORM_MARKER and isinstance(value.get("rollout"), Mapping)


def is_blobfish_line(value: Any) -> bool:
    return isinstance(value, Mapping) and "created_at" not in value and (_is_trace(value) or _is_legacy(value))


def _millis(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 10**11 else value * 1000
    if isinstance(value, float):
        return int(value * 1000) if value < 10**11 else int(value)
    if isinstance(value, str):
        return iso_ms(value)
    return None


def _turn_facts(records: list[Any]) -> tuple[list[int | None], dict[int | None, str], dict[int | None, int]]:
    """The turns in order, each turn's final text, and each turn's first timestamp."""
    turns: list[int | None] = []
    finals: dict[int | None, str] = {}
    times: dict[int | None, int] = {}
    current: int | None = None
    for record in records:
        if not isinstance(record, Mapping):
            continue
        turn = record.get("turn")
        if isinstance(turn, int) and not isinstance(turn, bool):
            current = turn
        if current not in turns:
            turns.append(current)
        if record.get("type") == "final" and isinstance(record.get("text"), str):
            finals[current] = record["text"]
        stamp = _millis(record.get("timestamp"))
        if stamp is not None:
            times.setdefault(current, stamp)
    return turns, finals, times


def blobfish_entries(value: Mapping[str, Any]) -> list[Call]:
    """The calls of one Blobfish line (see the module's docstring); [] for a line with no step."""
    if _is_legacy(value):
        rollout_data, trace = value["rollout"], value.get("trace")
        metadata = value.get("metadata")
        model = metadata.get("model") if isinstance(metadata, Mapping) else None
        evaluation = value.get("evaluation_id") if isinstance(value.get("evaluation_id"), str) else None
    else:
        trace = value
        rollout_data = {"rollout_id": value.get("rollout_id"), "trace_id": value.get("trace_id")}
        model, evaluation = None, None
    records = trace.get("records") if isinstance(trace, Mapping) else None
    turns, finals, times = _turn_facts(records if isinstance(records, list) else [])
    if "steps" not in rollout_data:
        rollout_data = {**rollout_data, "steps": [{"index": i, "turn": t} for i, t in enumerate(turns)]}
    rollout = parse_rollout(
        rollout_data, trace if isinstance(trace, Mapping) else None, model if isinstance(model, str) else None
    )
    # A step without a final answer in its rollout record has its turn's ``final`` text.
    steps = tuple(
        replace(s, final_answer=finals[s.turn]) if s.final_answer is None and s.turn in finals else s
        for s in rollout.steps
    )
    rollout = replace(rollout, rollout_id=rollout.rollout_id or rollout.trace_id or "trace", steps=steps)
    return [step_call(rollout, step, created_at=times.get(step.turn), evaluation_id=evaluation) for step in steps]
