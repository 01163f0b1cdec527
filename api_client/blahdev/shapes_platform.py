"""The blah.dev wire models beyond the logs: models and evals, diagnosis, runs and results,
leaderboard, compare, health, the chatroom and inference (see ../shared/platform/CONTRACT.md;
the rules every model follows are in ``api_client.blahdev.shapes``, which re-exports these).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, computed_field

from api_client.blahdev.shapes_base import BlahModel, Millis
from api_client.blahdev.shapes_logs import LogEntry

# --------------------------------------------------------------------------- models / evals


class Model(BlahModel):
    id: str
    name: str | None = None
    description: str | None = None
    inference_uri: str | None = None
    is_official: bool | None = None
    submitted_by: str | None = None
    created_at: Millis | str | None = None
    updated_at: Millis | str | None = None
    chatroom_enabled: bool | None = None
    chat_template: str | None = None


class Eval(BlahModel):
    id: str
    name: str | None = None
    description: str | None = None
    prompt: str | None = None
    expected_behavior: str | None = None
    eval_type: str | None = None  # "semantic" | "rubric" (kept open)
    eval_criteria: str | None = None  # a JSON string on the live service
    submitted_by: str | None = None
    created_at: Millis | str | None = None
    updated_at: Millis | str | None = None
    # simulator extras (optional on the live service)
    subject: str | None = None
    instruction_type: str | None = None


class SearchResults(BlahModel):
    models: list[Model] = Field(default_factory=list)
    evals: list[Eval] = Field(default_factory=list)


# --------------------------------------------------------------------------- diagnosis


class DiagnoseExample(BlahModel):
    log_id: str | None = None
    excerpt: str | None = None


class DiagnoseFinding(BlahModel):
    kind: str
    count: int | None = None
    rate: float | None = None
    examples: list[DiagnoseExample] = Field(default_factory=list)
    usual_cause: str | None = None


class Diagnosis(BlahModel):
    model_id: str | None = None
    calls_examined: int | None = None
    window_from: Millis | None = None
    window_to: Millis | None = None
    findings: list[DiagnoseFinding] = Field(default_factory=list)


class FailureCluster(BlahModel):
    label: str | None = None
    size: int | None = None
    what_goes_wrong: str | None = None
    suggestion: str | None = None
    log_ids: list[str] = Field(default_factory=list)


class FailureClusters(BlahModel):
    judge_model: str | None = None
    calls_considered: int | None = None
    clusters: list[FailureCluster] = Field(default_factory=list)


# --------------------------------------------------------------------------- runs / results


class Run(BlahModel):
    id: str
    started_at: Millis | str | None = None
    completed_at: Millis | str | None = None
    status: str | None = None  # running/completed/failed (+ queued/cancelled/stalled); unknown kept
    total_evals: int | None = None
    total_models: int | None = None
    completed_count: int | None = None
    error: str | None = None
    model_ids: list[str] | None = None

    @property
    def total_items(self) -> int | None:
        if self.total_evals is None or self.total_models is None:
            return None
        return self.total_evals * self.total_models

    @property
    def progress(self) -> float | None:
        total = self.total_items
        if not total or self.completed_count is None:
            return None
        return self.completed_count / total


class RunStarted(BlahModel):
    """Answer of ``POST /runs``: a Run (201), or the older ``{"message"}`` form."""

    run: Run | None = None
    message: str | None = None


def parse_score_details(raw: str | None) -> dict[str, Any] | list[Any] | None:
    """The judge's breakdown parsed when it is a JSON object or array, else None."""
    if raw is None:
        return None
    text = raw.strip()
    if not text or text[0] not in "{[":
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) else None


class Result(BlahModel):
    id: str
    eval_run_id: str | None = None
    eval_id: str | None = None
    model_id: str | None = None
    response: str | None = None
    score: float | None = None
    score_details: str | None = None  # verbatim, always
    latency_ms: int | None = None
    error: str | None = None
    raw_data: str | None = None
    created_at: Millis | str | None = None
    log_id: str | None = None  # simulator extra

    @computed_field  # type: ignore[prop-decorator]  # mypy types no decorator over a property
    @property
    def score_details_parsed(self) -> dict[str, Any] | list[Any] | None:
        return parse_score_details(self.score_details)


class LeaderboardEntry(BlahModel):
    model_id: str
    model_name: str | None = None
    avg_score: float | None = None
    eval_count: int | None = None
    last_run_at: Millis | str | None = None


class CompareAnswer(BlahModel):
    response: str | None = None
    score: float | None = None
    result_id: str | None = None


class CompareRow(BlahModel):
    """One eval (one prompt on the live platform) and each compared model's latest answer to it."""

    eval_id: str | None = None
    prompt: str | None = None
    answers: dict[str, CompareAnswer] = Field(default_factory=dict)


class Comparison(BlahModel):
    models: list[str] = Field(default_factory=list)
    rows: list[CompareRow] = Field(default_factory=list)


# --------------------------------------------------------------------------- health


class HealthCheck(BlahModel):
    checked_at: Millis
    ok: bool | None = None
    latency_ms: int | None = None
    status_code: int | None = None
    error: str | None = None


class Health(BlahModel):
    model_id: str | None = None
    checks: list[HealthCheck] = Field(default_factory=list)  # newest first


# --------------------------------------------------------------------------- chatroom


class ChatroomMessage(BlahModel):
    id: str
    created_at: Millis
    author_kind: str | None = None  # "model" | "human"
    model_id: str | None = None
    author_name: str | None = None
    content: str | None = None
    log_id: str | None = None
    reply_to: str | None = None


class ChatroomMessageDetail(ChatroomMessage):
    log: LogEntry | None = None


class ChatroomPage(BlahModel):
    messages: list[ChatroomMessage] = Field(default_factory=list)  # newest first
    next_since: Millis | None = None


class ChatroomPosted(BlahModel):
    message: ChatroomMessage
    replies_expected_from: list[str] = Field(default_factory=list)


class ChatroomMuteState(BlahModel):
    model_id: str
    chatroom_enabled: bool


# --------------------------------------------------------------------------- infer / chat


class InferResult(BlahModel):
    model_id: str | None = None
    response: str | None = None
    error: str | None = None
    log_id: str | None = None
    latency_ms: int | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    max_tokens: int | None = None


class ChatJob(BlahModel):
    id: str
    model_id: str | None = None
    status: str | None = None  # queued | running | completed | failed
    response: str | None = None
    error: str | None = None
    log_id: str | None = None
    created_at: Millis | None = None
    completed_at: Millis | None = None
