"""Every ASSUMED shape of the Blobfish SDK-evaluation API, in one place.

The contract (/work/shared/platform/blobfish-CONTRACT.md, section 2) documents the routes and
the publish rules but not the JSON of the answers. What the simulator serves for those gaps
lives here, each with a comment ``ASSUMED: ...`` naming the assumption, so that the whole
guess can be replaced in this one module when the real schema is known. What the contract
documents (schema names, the 1-256 rollouts and 1 MiB limits) lives with the code that
enforces it (``envelope.py``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

Json = dict[str, Any]

# ---------------------------------------------------------------------------- errors

ERROR_INVALID_REQUEST = "invalid_request"
"""ASSUMED: code of a 400 for a bad query value (limit, offset, format) or a malformed request;
the contract names `invalid_request` only for benchmark runs."""
ERROR_INVALID_ENVELOPE = "invalid_envelope"
"""ASSUMED (contract section 2): 400 for a bad schema, a job that is not completed, a rollout
count outside 1-256, a body that is not JSON, a rollout whose trace is missing."""
ERROR_JOB_CONFLICT = "job_conflict"
"""ASSUMED (contract section 2): 409 for other evidence under an already published job id."""
ERROR_TOO_LARGE = "too_large"
"""ASSUMED (contract section 2): 413 for a body over 1 MiB."""
ERROR_UNAUTHORIZED = "unauthorized"
"""ASSUMED: 401 without a key, with an unknown key or a key that is not ``bf_...``; no code is
documented."""
ERROR_NOT_FOUND = "not_found"
"""ASSUMED: 404 for an unknown evaluation id, and for another scope's evaluation (a private
record is not admitted to exist)."""
ERROR_METHOD_NOT_ALLOWED = "method_not_allowed"
"""ASSUMED: 405."""


def error_body(code: str, message: str, **extras: Any) -> Json:
    """ASSUMED (contract section 1): ``{"error": "<code>", "message": "<text>"}`` with any
    extras at the top level."""
    return {"error": code, "message": message, **extras}


# ---------------------------------------------------------------------------- listing

DEFAULT_LIMIT = 50
"""ASSUMED: the default page size (the documented example asks for ``limit=50``)."""
MAX_LIMIT = 100
"""ASSUMED: a larger ``limit`` is clamped to this silently (not refused), so a client must
follow ``next_offset`` rather than compute ``offset + limit``."""
NEWEST_FIRST = True
"""ASSUMED: the list is newest first (the benchmark run lists are documented so; this one is
not). New evaluations therefore appear at the head, shifting every offset by one."""


def next_offset(offset: int, served: int, total: int) -> int | None:
    """ASSUMED: ``next_offset`` is the offset after the page served, and ``null`` (present,
    not omitted) on the last page."""
    following = offset + served
    return following if following < total else None


def list_body(summaries: list[Json], following: int | None) -> Json:
    """ASSUMED: ``{"evaluations": [Summary], "next_offset": int|null}``."""
    return {"evaluations": summaries, "next_offset": following}


def summary(evaluation: Json) -> Json:
    """ASSUMED: Summary ``{evaluation_id, job_id, created_at, rollout_count, mean_reward,
    metadata}``; ``mean_reward`` is the mean of the rollouts' recorded rewards, ``null`` when
    no rollout recorded one (never 0)."""
    return {key: evaluation[key] for key in
            ("evaluation_id", "job_id", "created_at", "rollout_count", "mean_reward", "metadata")}


def detail(evaluation: Json) -> Json:
    """ASSUMED: detail = Summary + the redacted ``envelope`` as published."""
    return {**summary(evaluation), "envelope": evaluation["envelope"]}


JSONL_MEDIA_TYPE = "application/x-ndjson"
"""ASSUMED: ``?format=jsonl`` answers one ``blobfish.trace.v1`` per line (one per rollout, in
the envelope's order) as ``application/x-ndjson``; any other ``format`` than ``json``/``jsonl``
is a 400 ``invalid_request``."""


def receipt(evaluation: Json, origin: str) -> Json:
    """ASSUMED: the publish receipt ``{evaluation_id, job_id, dashboard_url}``; 201 when new,
    200 with the same receipt on an identical retry. ASSUMED dashboard path
    ``/evaluations/<evaluation-id>`` on the serving origin."""
    return {"evaluation_id": evaluation["evaluation_id"], "job_id": evaluation["job_id"],
            "dashboard_url": f"{origin.rstrip('/')}/evaluations/{evaluation['evaluation_id']}"}


EVIDENCE_IDENTITY = "sha256 of the raw request body"
"""ASSUMED: "the same evidence" means the same BYTES (contract section 6.5: a re-serialized
envelope may be refused as changed evidence). Only the digest is kept, never the raw body
(it may hold a secret)."""

# ---------------------------------------------------------------------------- times and ids

def iso_utc(epoch_s: float) -> str:
    """ASSUMED: ISO 8601 UTC with a ``Z``, whole seconds (``2026-12-01T15:19:42Z``)."""
    return dt.datetime.fromtimestamp(int(epoch_s), dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def evaluation_id(bits: int) -> str:
    """ASSUMED: evaluation ids are opaque; the simulator serves UUID-shaped strings."""
    h = f"{bits & ((1 << 128) - 1):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# ---------------------------------------------------------------------------- redaction

REDACTED = "[REDACTED]"
"""ASSUMED: what replaces a masked secret (which fields are masked is not documented)."""

SECRET_FIELD_NAMES = frozenset({
    "api_key", "apikey", "x_api_key", "authorization", "proxy_authorization", "password", "passwd",
    "secret", "client_secret", "access_token", "refresh_token", "id_token", "auth_token",
    "session_token", "bearer_token", "private_key", "cookie", "set_cookie",
})
"""ASSUMED: an object member with one of these names (lower-cased, ``-`` read as ``_``) has
its whole value masked, wherever it sits in the envelope."""
SECRET_FIELD_SUFFIXES = ("_api_key", "_secret", "_password", "_access_token", "_private_key")
"""ASSUMED: ... and so has a member whose name ends with one of these (``openai_api_key``).
Names such as ``token_ids``, ``prompt_tokens`` or ``eos_token`` are left alone."""

SECRET_VALUE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b((?i:bearer))\s+[A-Za-z0-9._~+/=-]{12,}"), r"\1 " + REDACTED),
    (re.compile(r"\bbf_[A-Za-z0-9_-]{12,}"), REDACTED),
    (re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}"), REDACTED),
    (re.compile(r"\bxai-[A-Za-z0-9_-]{16,}"), REDACTED),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
)
"""ASSUMED: key-shaped substrings of ANY string (a prompt, a tool result) are masked in place:
Blobfish ``bf_`` keys, ``sk-``/``sk-ant-`` (OpenAI, Anthropic), ``xai-``, AWS access key ids,
GitHub tokens, and the credential after ``Bearer``."""
