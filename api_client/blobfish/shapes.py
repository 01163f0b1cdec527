"""Every ASSUMED shape the Blobfish client reads, in one module (pydantic v2).

The contract (/work/shared/platform/blobfish-CONTRACT.md, section 2) documents the routes but
not the JSON of the answers; what is read here is the contract's ASSUMED shapes, read
leniently: unknown members are kept (``extra="allow"``, so ``--json`` prints what the platform
sent), and a member that is absent stays ``None`` (not recorded), never 0. When the real schema
is known, this module is the one to replace. An evaluation's evidence (its rollouts, steps,
traces) is read once into the app's own types in ``shapes_evidence``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from api_client.transport.lenient import Lenient
from common.iso_time import iso_ms

Json = dict[str, Any]

API_PREFIX = "/api/v1"
EVALUATIONS_PATH = "/api/v1/evaluations"
DEFAULT_BASE_URL = "https://blobfish.ai"
ENVELOPE_SCHEMA = "blobfish.sdk-evaluation.v1"  # documented
JOB_SCHEMA = "blobfish.job.v1"  # documented
TRACE_SCHEMA = "blobfish.trace.v1"  # documented

PAGE_LIMIT = 100
"""ASSUMED: the largest page the server serves (a larger ``limit`` is clamped, so the client
follows ``next_offset`` rather than computing offsets)."""

# ASSUMED error codes (contract section 2: `409 job_conflict`, `400 invalid_envelope`, `413 too_large`).
CODE_JOB_CONFLICT = "job_conflict"
CODE_INVALID_ENVELOPE = "invalid_envelope"
CODE_TOO_LARGE = "too_large"
CODE_UNAUTHORIZED = "unauthorized"
CODE_NOT_FOUND = "not_found"
CODE_RUN_IN_PROGRESS = "run_in_progress"  # documented (benchmark runs)
CODE_ALREADY_SUBMITTED = "already_submitted"  # documented (community board)


class Summary(Lenient):
    """ASSUMED: ``{evaluation_id, job_id, created_at, rollout_count, mean_reward, metadata}``."""

    evaluation_id: str
    job_id: str | None = None
    created_at: str | None = None
    rollout_count: int | None = None
    mean_reward: float | None = None
    metadata: Json | None = None

    @property
    def model(self) -> str | None:
        """ASSUMED: the model's name is ``metadata.model`` (the SDK's ``publish(metadata=...)``)."""
        value = (self.metadata or {}).get("model")
        return value if isinstance(value, str) else None

    @property
    def created_ms(self) -> int | None:
        return iso_ms(self.created_at)


class EvaluationPage(Lenient):
    """ASSUMED: ``{"evaluations": [Summary], "next_offset": int|null}`` (null on the last page)."""

    evaluations: list[Summary] = Field(default_factory=list)
    next_offset: int | None = None


class Receipt(Lenient):
    """ASSUMED: ``{evaluation_id, job_id, dashboard_url}`` (201 new, 200 identical retry)."""

    evaluation_id: str
    job_id: str | None = None
    dashboard_url: str | None = None


def job_of(envelope: Any) -> Json | None:
    """The envelope's ``job`` object (the documented wrapping), or None."""
    if isinstance(envelope, dict) and isinstance(envelope.get("job"), dict):
        job: Json = envelope["job"]
        return job
    return None


DATASET_RECEIPT_MEMBERS = ("dataset_id", "record_count", "byte_count", "sha256")
"""ASSUMED: Studio's dataset receipt ``{dataset_id, record_count, byte_count, sha256}`` (the page
names record count, byte count and SHA-256; the names are the contract's guess). No HTTP route
for dataset export is documented, so the client reads none: the app's own export receipt
(``application.evaluations.dataset_export``) is measured on the file it wrote and uses these
names, without ``dataset_id`` (no dataset exists on the platform)."""
