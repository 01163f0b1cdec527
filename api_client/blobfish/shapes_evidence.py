"""A Blobfish evaluation's evidence (the detail's ``envelope``), parsed once into the types the
whole app reads: ``Evaluation`` and its ``Rollout``s, steps, tool calls and grades.

Every shape here is ASSUMED (blobfish-CONTRACT.md, "Record shapes") and read leniently:
unknown members are ignored, a member that is absent stays ``None`` (never 0; an empty tuple
means the record says "none"). Tool records come in two shapes (``{type: "tool", turn, name,
...}`` and the sandbox server's ``{id: "trace_...", type, tool, ...}`` without a ``turn``); a
record without a turn belongs to the turn of the record before it.

The client (``BlobfishClient.get_evaluation``) parses the detail's body here, once, into the
product's own rollout types (``common.records``: ``Rollout``, ``RolloutStep``, ``ToolCall``,
``Grade``), which diagnosis, the screens and the exports read as they are; ``parse_rollout``
is the one function that maps Blobfish's rollout and trace records to them. Nothing is
dumped back to JSON to be read again: what the platform sent is kept (``raw``) for ``--json``
and the exports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from api_client.blobfish.shapes import Summary
from common.records.rollout import Assertion, Grade, Rollout, RolloutStep, ToolCall, TrainingSample

__all__ = [
    "PLATFORM",
    "Assertion",
    "Evaluation",
    "Grade",
    "Rollout",
    "RolloutStep",
    "ToolCall",
    "TrainingSample",
    "parse_evaluation",
    "parse_rollout",
    "result_failed",
]

PLATFORM = "blobfish"

Json = Mapping[str, Any]


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _map(value: Any) -> Json:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# ---------------------------------------------------------------------------- the types


@dataclass(frozen=True)
class Evaluation:
    """One evaluation, whole: its summary, taskset and rollouts."""

    summary: Summary
    taskset: str | None
    status: str | None
    rollouts: tuple[Rollout, ...]
    max_tokens: int | None = None
    traces: tuple[Json, ...] = ()
    """The envelope's ``blobfish.trace.v1`` records in their order, as sent (what the platform's
    JSONL export holds, one per line)."""
    job_metadata: Json | None = field(default=None, compare=False, repr=False)
    """The job's ``metadata`` as sent (``None``: the job has none)."""
    raw: Json = field(default_factory=dict, compare=False, repr=False)
    """The detail's body as the platform sent it (``blobfish show --json`` prints it)."""

    @property
    def evaluation_id(self) -> str:
        return self.summary.evaluation_id

    @property
    def model(self) -> str | None:
        return self.summary.model

    @property
    def failed_count(self) -> int | None:
        """Rollouts the grader failed; ``None`` when no rollout carries a verdict."""
        verdicts = [r.passed for r in self.rollouts if r.passed is not None]
        return sum(not passed for passed in verdicts) if verdicts else None

    def rollout(self, rollout_id: str) -> Rollout | None:
        return next((r for r in self.rollouts if r.rollout_id == rollout_id), None)


# ---------------------------------------------------------------------------- the reading


def result_failed(record: Json) -> bool:
    """Whether a tool record's result reads as a failure: an explicit ``ok: false`` or
    ``error`` member on the record or its result, or a result text that starts like an error
    report (``FAILED``, ``ERROR``, ``Error:``, ``Traceback``). A reading of the text, not a
    value the platform sent: the screens say "failed" only in that sense."""
    if record.get("ok") is False or record.get("error"):
        return True
    result = record.get("result")
    if isinstance(result, Mapping):
        return bool(result.get("error")) or result.get("ok") is False
    if isinstance(result, str):
        head = result.lstrip()
        return head.startswith(("FAILED", "ERROR", "Error:", "Traceback"))
    return False


def _grade(data: Any) -> Grade | None:
    if not isinstance(data, Mapping):
        return None
    assertions = tuple(
        Assertion(_str(a.get("name")), _bool(a.get("passed")), _str(a.get("details")))
        for a in _list(data.get("assertions"))
        if isinstance(a, Mapping)
    )
    return Grade(
        passed=_bool(data.get("passed")),
        reward=_num(data.get("reward")),
        explanation=_str(data.get("explanation")),
        assertions=assertions,
        failed_conditions=tuple(str(c) for c in _list(data.get("failed_conditions"))),
        advisory_conditions=tuple(str(c) for c in _list(data.get("advisory_conditions"))),
    )


def _samples(data: Any) -> tuple[TrainingSample, ...] | None:
    if not isinstance(data, list):
        return None  # not captured
    samples = []
    for sample in data:
        if not isinstance(sample, Mapping):
            continue
        ids = sample.get("token_ids")
        logprobs = sample.get("logprobs")
        lineage = sample.get("lineage")
        samples.append(
            TrainingSample(
                tuple(i for i in ids if isinstance(i, int)) if isinstance(ids, list) else None,
                tuple(float(p) for p in logprobs if isinstance(p, int | float)) if isinstance(logprobs, list) else None,
                lineage if isinstance(lineage, Mapping) else None,
            )
        )
    return tuple(samples)


@dataclass
class _Turn:
    model: str | None = None
    usage: Json | None = None
    thinking: list[str] = field(default_factory=list)
    tools: list[ToolCall] = field(default_factory=list)


def _turns(records: list[Any]) -> dict[int | None, _Turn]:
    turns: dict[int | None, _Turn] = {}
    current: int | None = None
    for record in records:
        if not isinstance(record, Mapping):
            continue
        turn = _int(record.get("turn"))
        if turn is not None:
            current = turn
        slot = turns.setdefault(current, _Turn())
        kind = record.get("type")
        if kind == "completion":
            slot.model = _str(record.get("model"))
            usage = record.get("usage")
            slot.usage = usage if isinstance(usage, Mapping) else None
        elif kind == "thinking" and isinstance(record.get("text"), str):
            slot.thinking.append(record["text"])
        elif kind == "tool":
            name = _str(record.get("name")) or _str(record.get("tool"))
            slot.tools.append(ToolCall(name, record.get("args"), record.get("result"), result_failed(record)))
    return turns


def _step(data: Json, turns: dict[int | None, _Turn], position: int) -> RolloutStep:
    turn = _int(data.get("turn"))
    slot = turns.get(turn, _Turn())
    usage = slot.usage or {}
    details = _map(usage.get("completion_tokens_details"))
    final = data.get("final_answer")
    index = _int(data.get("index"))
    return RolloutStep(
        index=index if index is not None else position,
        turn=turn,
        prompt=_str(data.get("prompt")),
        final_answer=final if isinstance(final, str) else None,
        reward=_num(data.get("reward")),
        grade=_grade(data.get("grade")),
        training_samples=_samples(data.get("training_samples")),
        model=slot.model,
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        reasoning_tokens=_int(details.get("reasoning_tokens")),
        thinking=tuple(slot.thinking),
        tool_calls=tuple(slot.tools),
    )


def _rollout(data: Json, trace: Json | None, model: str | None, max_tokens: int | None) -> Rollout:
    turns = _turns(_list((trace or {}).get("records")))
    steps = tuple(_step(s, turns, k) for k, s in enumerate(_list(data.get("steps"))) if isinstance(s, Mapping))
    return Rollout(
        rollout_id=str(data.get("rollout_id") or ""),
        task_id=_str(data.get("task_id")),
        reward=_num(data.get("reward")),
        grade=_grade(data.get("grade")),
        trace_id=_str(data.get("trace_id")),
        steps=steps,
        max_tokens=max_tokens,
        model=model,
        source=PLATFORM,
        raw={"rollout": data, "trace": trace},
    )


def parse_rollout(data: Json, trace: Json | None, model: str | None = None) -> Rollout:
    """One rollout record and its trace (either may be all there is: an exported line)."""
    return _rollout(data, trace, model, None)


def parse_evaluation(detail: Json) -> Evaluation:
    """The detail answer (Summary + ``envelope``) read into an ``Evaluation``, once. A summary
    that does not hold (no ``evaluation_id``, a member of the wrong type) raises pydantic's
    ``ValidationError`` (the client says it as an invalid response)."""
    summary = Summary.model_validate({k: v for k, v in detail.items() if k != "envelope"})
    envelope = _map(detail.get("envelope"))
    job = _map(envelope.get("job"))
    job_metadata = job.get("metadata") if isinstance(job.get("metadata"), Mapping) else None
    metadata = job_metadata or summary.metadata or {}
    traces: dict[str, Json] = {}
    in_order = tuple(t for t in _list(envelope.get("traces")) if isinstance(t, Mapping))
    for trace in in_order:
        for key in ("trace_id", "rollout_id"):
            if isinstance(trace.get(key), str):
                traces.setdefault(trace[key], trace)
    model = _str(metadata.get("model")) or summary.model
    max_tokens = _int(metadata.get("max_tokens"))
    rollouts = []
    for data in _list(job.get("rollouts")):
        if not isinstance(data, Mapping):
            continue
        its_trace = traces.get(str(data.get("trace_id"))) or traces.get(str(data.get("rollout_id")))
        rollouts.append(_rollout(data, its_trace, model, max_tokens))
    return Evaluation(
        summary,
        _str(job.get("taskset")),
        _str(job.get("status")),
        tuple(rollouts),
        max_tokens,
        in_order,
        job_metadata,
        detail,
    )
