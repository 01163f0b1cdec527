"""Pydantic shapes of the simulator's API, for validation of requests and for /api/spec.

Response handlers return pre-serialised JSON (fast), so these response models document
the wire shapes; they mirror CONTRACT.md and are kept in step with the world's dicts by
tests that validate real responses against them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Wire(BaseModel):
    model_config = ConfigDict(extra="allow")


class Error(Wire):
    error: str = Field(description="Human-readable reason.")


class Model(Wire):
    id: str
    name: str
    description: str | None
    inference_uri: str
    is_official: bool
    submitted_by: str
    created_at: int
    updated_at: int
    chatroom_enabled: bool = Field(description="False when muted in the chatroom (simulator extra).")
    chat_template: str | None = Field(None, description="Template the model was trained with; ABSENT when unknown.")


class Eval(Wire):
    id: str
    name: str
    description: str | None
    prompt: str = Field(description="The one prompt of this eval (a run asks it once of every model).")
    expected_behavior: str | None
    eval_type: Literal["semantic", "rubric"]
    eval_criteria: str = Field(description='A JSON string: {"criteria": {name: description}}.')
    submitted_by: str
    created_at: int
    updated_at: int
    subject: str | None = None
    instruction_type: str | None = None


class SearchResults(Wire):
    models: list[Model]
    evals: list[Eval]


class ChatTurn(Wire):
    role: str
    content: str


class LogEntry(Wire):
    id: str
    model_id: str
    source: Literal["eval", "chatroom", "chat", "test"]
    created_at: int
    prompt: str = Field(
        description="Exact text sent to the model, after its chat template. Chatroom "
        "prompts are always rendered in llama2 [INST] format, whatever the model's template."
    )
    messages: list[ChatTurn] | None
    response: str | None
    error: str | None
    latency_ms: int | None
    max_tokens: int | None
    prompt_tokens: int | None
    completion_tokens: int | None
    finish_reason: Literal["stop", "length", "error"] | None
    eval_id: str | None
    run_id: str | None
    result_id: str | None
    message_id: str | None


class SourceStats(Wire):
    total: int
    errors: int
    mean_latency_ms: float | None


class LogStats(SourceStats):
    by_source: dict[str, SourceStats]


class LogPage(Wire):
    logs: list[LogEntry] = Field(description="Newest first; at most `limit`.")
    next_since: int | None
    next_before: int | None
    stats: LogStats | None = Field(None, description="Only with stats=true; over every matching entry.")


class DiagnoseExample(Wire):
    log_id: str
    excerpt: str


class DiagnoseFinding(Wire):
    kind: Literal["loop", "truncation", "empty", "continuation"]
    count: int
    rate: float
    examples: list[DiagnoseExample]
    usual_cause: str


class Diagnosis(Wire):
    model_id: str
    calls_examined: int
    window_from: int | None
    window_to: int | None
    findings: list[DiagnoseFinding]


class FailureCluster(Wire):
    label: str
    size: int
    what_goes_wrong: str
    suggestion: str
    log_ids: list[str]


class FailureClusters(Wire):
    judge_model: str
    calls_considered: int
    clusters: list[FailureCluster]


class Run(Wire):
    id: str
    started_at: int
    completed_at: int | None
    status: Literal["queued", "running", "completed", "failed", "cancelled", "stalled"]
    total_evals: int = Field(description="Number of evals (one prompt each) in the run.")
    total_models: int
    completed_count: int = Field(
        description="Results so far: finished (eval, model) units, of total_evals*total_models."
    )
    error: str | None
    model_ids: list[str]


class Result(Wire):
    id: str
    eval_run_id: str
    eval_id: str
    model_id: str
    response: str | None
    score: float | None = Field(description="0-1; null when the call failed (never invented).")
    score_details: str | None = Field(
        description="Judge breakdown: usually a JSON string {judge_model, "
        "reasoning, criteria, verdict}, sometimes plain text; for a failed call, "
        "plain text saying it was not judged. Present on every read."
    )
    latency_ms: int | None
    error: str | None
    raw_data: str
    created_at: int
    log_id: str = Field(description="Simulator extra: the call behind this result.")


class LeaderboardEntry(Wire):
    model_id: str
    model_name: str | None
    avg_score: float | None
    eval_count: int
    last_run_at: int | None


class CompareAnswer(Wire):
    response: str | None
    score: float | None
    result_id: str | None


class CompareRow(Wire):
    eval_id: str
    prompt: str = Field(description="The eval's prompt.")
    answers: dict[str, CompareAnswer]


class Comparison(Wire):
    models: list[str]
    rows: list[CompareRow]


class HealthCheck(Wire):
    checked_at: int
    ok: bool
    latency_ms: int | None
    status_code: int | None
    error: str | None


class Health(Wire):
    model_id: str
    checks: list[HealthCheck] = Field(description="Newest first.")


class ChatroomMessage(Wire):
    id: str
    created_at: int
    author_kind: Literal["model", "human"]
    model_id: str | None
    author_name: str
    content: str
    log_id: str | None
    reply_to: str | None


class ChatroomMessageDetail(ChatroomMessage):
    log: LogEntry | None


class ChatroomPage(Wire):
    messages: list[ChatroomMessage]
    next_since: int | None


class ChatroomPosted(Wire):
    message: ChatroomMessage
    replies_expected_from: list[str]


class MuteState(Wire):
    model_id: str
    chatroom_enabled: bool


class InferResult(Wire):
    model_id: str
    response: str | None
    error: str | None
    log_id: str
    latency_ms: int | None
    finish_reason: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    max_tokens: int


class ChatJob(Wire):
    id: str
    model_id: str
    status: Literal["queued", "running", "completed", "failed"]
    response: str | None
    error: str | None
    log_id: str | None
    created_at: int
    completed_at: int | None


class Webhook(Wire):
    id: str
    url: str
    event_types: list[str]
    created_at: int
    secret: str | None = Field(None, description="Only in the answer of the POST that created it.")


class Deleted(Wire):
    id: str
    deleted: bool


class GameTurn(Wire):
    index: int
    model_id: str
    author_name: str
    content: str | None
    score: float | None
    judge_reasoning: str
    log_id: str
    created_at: int


class Game(Wire):
    id: str
    game_type: Literal["evidence_locker", "comedy_night"]
    status: Literal["running", "completed"]
    created_at: int
    completed_at: int | None
    model_ids: list[str]
    winner_model_id: str | None
    turns: list[GameTurn] | None = Field(None, description="Only on GET /games/{id}.")


class TrainingSet(Wire):
    id: str
    name: str
    filename: str
    size_bytes: int | None
    status: Literal["pending_upload", "ready", "invalid"]
    example_count: int | None
    created_at: int


class UploadTicket(Wire):
    training_set_id: str
    upload_url: str
    method: Literal["PUT"]
    headers: dict[str, str]
    expires_at: int
    max_bytes: int


class LensBundle(Wire):
    model_id: str
    available: bool
    version: str | None = None
    captures: list[str] = []
    layers: int | None = None
    template_fingerprint: str | None = None
    chat_template: str | None = None


# ---------------------------------------------------------------- requests


class RegisterModel(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    inference_uri: str = Field(
        min_length=1,
        max_length=500,
        description="A full http(s) URL, an OpenRouter path `org/model`, or "
        "`openai-compatible:https://host#model-name`.",
    )
    description: str | None = Field(None, max_length=1000)
    api_key: str | None = Field(None, description="Stored, never returned.")
    is_official: bool = False


class NewEval(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    prompt: str = Field(min_length=1, max_length=20000)
    eval_type: Literal["semantic", "rubric"]
    eval_criteria: str
    description: str | None = Field(None, max_length=1000)
    expected_behavior: str | None = Field(None, max_length=2000)


class StartRun(BaseModel):
    model_ids: list[str] = Field(min_length=1, max_length=10)


class InferRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=20000)
    max_tokens: int = Field(128, ge=1, le=2048)


class ChatRequest(BaseModel):
    model_id: str
    messages: list[ChatTurn] = Field(min_length=1, max_length=100)
    max_tokens: int = Field(128, ge=1, le=2048)


class WebhookCreate(BaseModel):
    url: str = Field(
        min_length=1,
        max_length=2000,
        description="Any http(s) URL is accepted; deliveries "
        "are only made to loopback hosts (127.0.0.0/8, localhost, ::1) by the simulator.",
    )
    event_types: list[Literal["run.completed", "run.failed", "run.stalled", "chatroom.message"]] = Field(min_length=1)
    secret: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="When set, deliveries carry X-Blah-Signature: sha256=<hex "
        "HMAC-SHA256 of the raw body keyed with the secret>.",
    )


class ChatroomPost(BaseModel):
    content: str = Field(min_length=1, max_length=2000)
    reply_from: str | None = Field(None, description="One model to answer; omitted: every unmuted model.")


class ChatroomToggle(BaseModel):
    enabled: bool


class GameCreate(BaseModel):
    game_type: Literal["evidence_locker", "comedy_night"]


class UploadRequest(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    filename: str = Field(min_length=1, max_length=255)
    size_bytes: int = Field(ge=1, description="Must not exceed max_bytes (10 MB): 413 otherwise.")


class LensAnalyze(BaseModel):
    prompt: str = Field(min_length=1, max_length=4000)
    max_new_tokens: int = Field(1, ge=1, le=16)
    top_k: int = Field(5, ge=1, le=20)
