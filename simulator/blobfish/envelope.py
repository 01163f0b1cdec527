"""The publish rules for a ``blobfish.sdk-evaluation.v1`` envelope (documented limits).

One completed ``blobfish.job.v1`` job with 1-256 rollouts and the full set of its
``blobfish.trace.v1`` traces, in at most 1 MiB of JSON. A refusal raises ``BlobfishError``
with the (assumed) codes of ``shapes.py``. Unknown members are ignored, as the contract asks.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson

from simulator.blobfish.errors import BlobfishError
from simulator.blobfish.shapes import (
    ENVELOPE_SCHEMA,
    ERROR_INVALID_ENVELOPE,
    ERROR_TOO_LARGE,
    JOB_SCHEMA,
    TRACE_SCHEMA,
    Json,
)

MAX_ROLLOUTS = 256
MAX_BYTES = 1_048_576
"""1 MiB of JSON (ASSUMED, shapes.py: measured on the body as sent)."""


@dataclass(frozen=True)
class Envelope:
    """A body that passed every publish rule (not yet redacted)."""

    data: Json
    digest: str
    """SHA-256 of the raw bytes: the evidence's identity (shapes.EVIDENCE_IDENTITY)."""

    @property
    def job(self) -> Json:
        job: Json = self.data["job"]
        return job

    @property
    def job_id(self) -> str:
        return str(self.job["job_id"])


def _refuse(message: str) -> BlobfishError:
    return BlobfishError(400, ERROR_INVALID_ENVELOPE, message)


def too_large(size: int) -> BlobfishError:
    return BlobfishError(
        413,
        ERROR_TOO_LARGE,
        f"the envelope is {size} bytes; at most {MAX_BYTES} bytes (1 MiB) of JSON are "
        f"accepted: split the taskset into smaller jobs",
    )


def _object(value: Any, what: str) -> Json:
    if not isinstance(value, dict):
        raise _refuse(f"{what} must be a JSON object")
    return value


def parse(raw: bytes) -> Envelope:
    """Check ``raw`` against the publish rules; the parsed envelope, or a ``BlobfishError``."""
    if len(raw) > MAX_BYTES:
        raise too_large(len(raw))
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise _refuse(f"the body is not JSON ({exc.msg})") from None
    envelope = _object(data, "the body")
    if envelope.get("schema") != ENVELOPE_SCHEMA:
        raise _refuse(f"schema must be {ENVELOPE_SCHEMA!r}")
    job = _object(envelope.get("job"), "job")
    if job.get("schema") != JOB_SCHEMA:
        raise _refuse(f"job.schema must be {JOB_SCHEMA!r}")
    job_id = job.get("job_id")
    if not isinstance(job_id, str) or not job_id.strip():
        raise _refuse("job.job_id must be a non-empty string")
    if job.get("status") != "completed":
        raise _refuse(f"only a completed job can be published (job.status is {job.get('status')!r})")
    rollouts = job.get("rollouts")
    if not isinstance(rollouts, list):
        raise _refuse("job.rollouts must be a list")
    if not 1 <= len(rollouts) <= MAX_ROLLOUTS:
        raise _refuse(
            f"a job needs 1-{MAX_ROLLOUTS} rollouts; this one has {len(rollouts)}: split the taskset into smaller jobs"
        )
    traces = envelope.get("traces")
    if not isinstance(traces, list):
        raise _refuse("traces must be a list")
    trace_ids: set[str] = set()
    for n, trace in enumerate(traces):
        if _object(trace, f"traces[{n}]").get("schema") != TRACE_SCHEMA:
            raise _refuse(f"traces[{n}].schema must be {TRACE_SCHEMA!r}")
        trace_ids.add(str(trace.get("trace_id")))
    for n, rollout in enumerate(rollouts):
        trace_id = _object(rollout, f"job.rollouts[{n}]").get("trace_id")
        if trace_id is not None and str(trace_id) not in trace_ids:
            raise _refuse(
                f"job.rollouts[{n}] names trace {trace_id!r}, which the envelope does not hold; "
                f"publish the full set of the job's traces"
            )
    return Envelope(envelope, hashlib.sha256(raw).hexdigest())


def encode(envelope: Json) -> bytes:
    """The bytes an SDK would send for ``envelope`` (compact JSON)."""
    return orjson.dumps(envelope)
