"""Every ASSUMED shape of the Blobfish SDK-evaluation API, in one place.

The contract (/work/shared/platform/blobfish-CONTRACT.md, section 2) documents the routes and
the publish rules but not the JSON of the answers. What the simulator serves for those gaps
lives here, each with a comment ``ASSUMED: ...`` naming the assumption, so that the whole
guess can be replaced in this one module when the real schema is known. The three schema
names are documented; the documented limits (1-256 rollouts, 1 MiB) live with the rules that
enforce them (``envelope.py``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

Json = dict[str, Any]

ENVELOPE_SCHEMA = "blobfish.sdk-evaluation.v1"  # documented
JOB_SCHEMA = "blobfish.job.v1"  # documented
TRACE_SCHEMA = "blobfish.trace.v1"  # documented

# ASSUMED, in the rules rather than in a shape:
# - "at most 1 MiB of JSON" is measured on the request body as sent (envelope.MAX_BYTES);
# - job ids are local, so publication is keyed by (key scope, job id): two scopes may publish
#   the same job id as two evaluations (store.py);
# - the contract's signed-in browser session (the other way into evaluation routes) is not
#   simulated: every route needs a ``bf_`` key (auth.py).

TWO_DIFFERENT_KEYS_STATUS = 400
"""ASSUMED: ``X-API-Key`` and ``Authorization: Bearer`` naming two different keys is refused
(400 ``invalid_request``; the contract says "send one"); the same key twice is accepted."""

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
    return {
        key: evaluation[key]
        for key in ("evaluation_id", "job_id", "created_at", "rollout_count", "mean_reward", "metadata")
    }


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
    return {
        "evaluation_id": evaluation["evaluation_id"],
        "job_id": evaluation["job_id"],
        "dashboard_url": f"{origin.rstrip('/')}/evaluations/{evaluation['evaluation_id']}",
    }


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

SECRET_FIELD_NAMES = frozenset(
    {
        "api_key",
        "apikey",
        "x_api_key",
        "authorization",
        "proxy_authorization",
        "password",
        "passwd",
        "secret",
        "client_secret",
        "access_token",
        "refresh_token",
        "id_token",
        "auth_token",
        "session_token",
        "bearer_token",
        "private_key",
        "cookie",
        "set_cookie",
    }
)
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


# ---------------------------------------------------------------------------- evidence records
# The contract's "Record shapes (assumed; replace when the real schema is known)": what an SDK
# publishes. The server stores them as sent (masked); the seeded history builds them here.
# Optional members are left out when not recorded (``None`` below = absent, never 0).


def _present(**members: Any) -> Json:
    return {key: value for key, value in members.items() if value is not None}


def envelope_record(job: Json, traces: list[Json]) -> Json:
    """ASSUMED: ``{"schema": "blobfish.sdk-evaluation.v1", "traces": [Trace], "job": Job}``."""
    return {"schema": ENVELOPE_SCHEMA, "traces": traces, "job": job}


def job_record(job_id: str, taskset: str, metadata: Json, rollouts: list[Json], status: str = "completed") -> Json:
    """ASSUMED: ``{"schema": "blobfish.job.v1", job_id, status, taskset, metadata, rollouts}``."""
    return {
        "schema": JOB_SCHEMA,
        "job_id": job_id,
        "status": status,
        "taskset": taskset,
        "metadata": metadata,
        "rollouts": rollouts,
    }


def job_metadata(job: Json) -> Json:
    """ASSUMED: the Summary's ``metadata`` is the job's ``metadata`` object ({} without one)."""
    metadata = job.get("metadata")
    return metadata if isinstance(metadata, dict) else {}


def rollout_record(rollout_id: str, task_id: str, trace_id: str, steps: list[Json], grade: Json | None) -> Json:
    """ASSUMED: ``{rollout_id, task_id, reward, grade, trace_id, steps}``; no ``reward``/``grade``
    when the grader recorded nothing."""
    return _present(
        rollout_id=rollout_id,
        task_id=task_id,
        reward=grade["reward"] if grade else None,
        grade=grade,
        trace_id=trace_id,
        steps=steps,
    )


def step_record(
    index: int,
    turn: int,
    prompt: str,
    final_answer: str | None = None,
    grade: Json | None = None,
    training_samples: list[Json] | None = None,
) -> Json:
    """ASSUMED: ``{index, turn, prompt, final_answer, reward, grade, training_samples}``, each
    optional member absent when not captured."""
    return _present(
        index=index,
        turn=turn,
        prompt=prompt,
        final_answer=final_answer,
        reward=grade["reward"] if grade else None,
        grade=grade,
        training_samples=training_samples,
    )


def training_sample(token_ids: list[int], logprobs: list[float] | None = None, lineage: Json | None = None) -> Json:
    """ASSUMED: ``{token_ids, logprobs, lineage}``, logprobs and lineage only if captured."""
    return _present(token_ids=token_ids, logprobs=logprobs, lineage=lineage)


def grade_record(
    task_id: str,
    passed: bool,
    reward: float,
    explanation: str,
    assertions: list[Json],
    failed_conditions: list[str],
    advisory_conditions: list[str],
) -> Json:
    """ASSUMED (the benchmark verifier grade seen in scripts): ``{task_id, passed, reward,
    explanation, assertions: [{name, passed, details}], failed_conditions, advisory_conditions}``."""
    return {
        "task_id": task_id,
        "passed": passed,
        "reward": reward,
        "explanation": explanation,
        "assertions": assertions,
        "failed_conditions": failed_conditions,
        "advisory_conditions": advisory_conditions,
    }


def assertion_record(name: str, passed: bool, details: str) -> Json:
    return {"name": name, "passed": passed, "details": details}


def trace_record(trace_id: str, rollout_id: str, records: list[Json]) -> Json:
    """ASSUMED: ``{"schema": "blobfish.trace.v1", trace_id, rollout_id, records}``."""
    return {"schema": TRACE_SCHEMA, "trace_id": trace_id, "rollout_id": rollout_id, "records": records}


def completion_entry(
    turn: int,
    model: str,
    prompt_tokens: int | None = None,
    completion_tokens: int | None = None,
    reasoning_tokens: int | None = None,
) -> Json:
    """``{type: "completion", turn, model, usage: {prompt_tokens, completion_tokens,
    completion_tokens_details: {reasoning_tokens}}}`` (scripts); ``usage`` absent when the
    provider reported none, ``completion_tokens_details`` when it reported no reasoning."""
    usage = None
    if prompt_tokens is not None and completion_tokens is not None:
        details = {"reasoning_tokens": reasoning_tokens} if reasoning_tokens is not None else None
        usage = _present(
            prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, completion_tokens_details=details
        )
    return _present(type="completion", turn=turn, model=model, usage=usage)


def thinking_entry(turn: int, text: str) -> Json:
    """``{type: "thinking", turn, text}``; ASSUMED member name ``text``."""
    return {"type": "thinking", "turn": turn, "text": text}


def tool_entry(turn: int, name: str, args: Any, result: Any) -> Json:
    """``{type: "tool", turn, name, args, result}`` (scripts)."""
    return {"type": "tool", "turn": turn, "name": name, "args": args, "result": result}


def sandbox_tool_entry(entry_id: str, tool: str, args: Any, result: Any, timestamp: str) -> Json:
    """A sandbox-server entry ``{id: "trace_...", type, tool, args, result, timestamp}`` (tool
    name in ``tool``, no ``turn``, as the contract lists it)."""
    return {"id": entry_id, "type": "tool", "tool": tool, "args": args, "result": result, "timestamp": timestamp}


def final_entry(turn: int, text: str) -> Json:
    """``{type: "final", turn, text}``; ASSUMED member name ``text``."""
    return {"type": "final", "turn": turn, "text": text}


def verify_entry(turn: int, grade: Json) -> Json:
    """``{type: "verify", turn, grade}``; ASSUMED member name ``grade``."""
    return {"type": "verify", "turn": turn, "grade": grade}


# ---------------------------------------------------------------------------- benchmark runs
# Contract sections 3-4. Documented: the routes, 201/202/409/400/404 statuses, the refusal codes,
# `Location` + `Retry-After: 5` on the 202, `poll_after_seconds`, `progress: {done, total}`,
# `coverage: {hosted_tasks, official_suite}`, `credential_source`, `error.kind: "interrupted"`,
# `links.self`, the single run's members and the badge. Everything else below is ASSUMED.

BENCH_BADGE = (
    "self-run \u00b7 graded by the benchmark's own verifier \u00b7 "
    "not the frozen official suite unless suite:full"
)  # documented, byte for byte
BENCH_RETRY_AFTER_S = 5  # documented: the 202's Retry-After
BENCH_STATUSES = ("queued", "running", "completed", "failed", "interrupted")  # documented
ERROR_RUN_IN_PROGRESS = "run_in_progress"  # documented (409, with `run_id`)
ERROR_NOT_A_SUITE_RUN = "not_a_suite_run"  # documented (409)
ERROR_SUITE_RUN_NOT_COMPLETED = "suite_run_not_completed"  # documented (409)
ERROR_SUITE_RUN_NOT_GRADED = "suite_run_not_graded"  # documented (409)
ERROR_ALREADY_SUBMITTED = "already_submitted"  # documented (409, with `community_run_id`)
ERROR_INVALID_SUBMISSION = "invalid_submission"  # documented (400)
ERROR_EVIDENCE_EXPIRED = "evidence_expired"
"""ASSUMED: code of the 410 an expired session evidence link answers (30 minutes, documented)."""
ERROR_KIND_AUTH = "auth"
"""ASSUMED (the contract lists it as assumed): ``error.kind`` of a suite a rejected provider
credential stopped; ``error.task_id`` names the task (ASSUMED), ``error.message`` says the rest
were not attempted."""
ERROR_KIND_INTERRUPTED = "interrupted"  # documented
REJECTED_PROVIDER_KEY_MARK = "reject"
"""ASSUMED (a simulator fault, not platform behaviour): a provider ``api_key`` containing this
word is the credential the provider rejects."""


def bench_task_result(
    task_id: str,
    name: str,
    score: float,
    strict_pass: bool,
    passed_checks: int,
    total_checks: int,
    steps: list[Json],
    explanation: str,
    evidence_url: str,
) -> Json:
    """ASSUMED: one graded task inside a suite record's ``tasks`` (the single run's members plus
    ``task_id``, ``name`` and ``grader: {explanation}``)."""
    return {
        "task_id": task_id,
        "name": name,
        "score": score,
        "strict_pass": strict_pass,
        "passed_checks": passed_checks,
        "total_checks": total_checks,
        "steps": steps,
        "grader": {"explanation": explanation},
        "evidence_url": evidence_url,
    }


def bench_step(index: int, tool: str, arguments: Json, result: str) -> Json:
    """ASSUMED: one recorded tool call ``{index, tool, arguments, result}``."""
    return {"index": index, "tool": tool, "arguments": arguments, "result": result}


def bench_links(origin: str, slug: str, run_id: str) -> Json:
    """``links.self`` is documented; ``links.page`` ASSUMED."""
    return {"self": f"{origin}/api/v1/benchmarks/{slug}/runs/{run_id}", "page": f"{origin}/benchmarks/{slug}"}


def bench_error(kind: str, message: str, **extras: Any) -> Json:
    """``error.kind`` documented; ``message`` and extras (``task_id``) ASSUMED."""
    return {"kind": kind, "message": message, **extras}
