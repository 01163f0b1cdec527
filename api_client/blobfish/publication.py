"""The documented publish rules, checked on the machine before anything is sent.

A job must be completed, hold 1-256 rollouts, and fit in 1 MiB (1,048,576 bytes) of JSON
(measured on the bytes sent). The bytes are made ONCE: a retry must resend them verbatim
(the platform keys evidence by the exact bytes; re-serializing may read as changed evidence).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from api_client.blobfish import shapes as assumed
from api_client.blobfish.errors import PublishRefusedLocally

MAX_ROLLOUTS = 256
MAX_BYTES = 1_048_576
SPLIT_HINT = "split the taskset into several jobs and publish each"


@dataclass(frozen=True)
class Publication:
    """An envelope that passed the local rules, and the exact bytes to send (every time)."""

    body: bytes
    job_id: str
    rollout_count: int


def prepare(envelope: bytes | dict[str, Any]) -> Publication:
    """Check ``envelope`` (its bytes as they will be sent, or a dict serialized here once)."""
    body = envelope if isinstance(envelope, bytes) else orjson.dumps(envelope)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise PublishRefusedLocally(f"the envelope is not JSON ({exc.msg}); nothing was sent", rule="json") from None
    if not isinstance(data, dict) or data.get("schema") != assumed.ENVELOPE_SCHEMA:
        raise PublishRefusedLocally(
            f'not a {assumed.ENVELOPE_SCHEMA} envelope (its "schema" member says otherwise); nothing was sent',
            rule="schema",
        )
    job = assumed.job_of(data)
    if job is None:
        raise PublishRefusedLocally("the envelope holds no job object; nothing was sent", rule="schema")
    job_id = job.get("job_id")
    if not isinstance(job_id, str) or not job_id.strip():
        raise PublishRefusedLocally("the job has no job_id; nothing was sent", rule="schema")
    status = job.get("status")
    if status != "completed":
        shown = repr(status) if isinstance(status, str) else "absent"
        raise PublishRefusedLocally(
            f"job {job_id!r} is not completed (status {shown[:40]}); only a completed job can be "
            "published; nothing was sent",
            rule="completed",
        )
    rollouts = job.get("rollouts")
    count = len(rollouts) if isinstance(rollouts, list) else 0
    if not 1 <= count <= MAX_ROLLOUTS:
        raise PublishRefusedLocally(
            f"job {job_id!r} has {count} rollouts; a publication holds 1-{MAX_ROLLOUTS}: "
            + ("nothing to publish" if count == 0 else SPLIT_HINT)
            + "; nothing was sent",
            rule="rollouts",
        )
    if len(body) > MAX_BYTES:
        raise PublishRefusedLocally(
            f"job {job_id!r} is {len(body):,} bytes of JSON; at most {MAX_BYTES:,} (1 MiB) are accepted: "
            f"{SPLIT_HINT}; nothing was sent",
            rule="size",
        )
    return Publication(body, job_id, count)
