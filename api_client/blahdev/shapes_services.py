"""Models of blah.dev's services beyond logs, evals and the chatroom: webhooks, games,
training sets, lens. Same rules as ``api_client.blahdev.shapes`` (which re-exports them)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from api_client.blahdev.shapes_base import BlahModel, Millis

# --------------------------------------------------------------------------- webhooks


class Webhook(BlahModel):
    id: str
    url: str
    event_types: list[str] = Field(default_factory=list)
    created_at: Millis | str | None = None
    secret: str | None = None  # only returned once, on creation, where supported


# --------------------------------------------------------------------------- games


class GameTurn(BlahModel):
    index: int | None = None
    model_id: str | None = None
    author_name: str | None = None
    content: str | None = None
    score: float | None = None
    judge_reasoning: str | None = None
    log_id: str | None = None
    created_at: Millis | None = None


class Game(BlahModel):
    id: str
    game_type: str | None = None  # evidence_locker | comedy_night
    status: str | None = None
    created_at: Millis | None = None
    completed_at: Millis | None = None
    model_ids: list[str] | None = None
    winner_model_id: str | None = None
    turns: list[GameTurn] | None = None  # present on GET /games/{id}


# --------------------------------------------------------------------------- training sets


class TrainingSet(BlahModel):
    id: str
    name: str | None = None
    filename: str | None = None
    size_bytes: int | None = None
    status: str | None = None  # pending_upload | ready | ...
    example_count: int | None = None
    created_at: Millis | None = None


class UploadTicket(BlahModel):
    training_set_id: str | None = None
    upload_url: str
    method: str = "PUT"
    headers: dict[str, str] = Field(default_factory=dict)
    expires_at: Millis | None = None
    max_bytes: int | None = None


# --------------------------------------------------------------------------- lens


class LensBundle(BlahModel):
    model_id: str | None = None
    available: bool | None = None
    version: str | None = None
    captures: list[str] = Field(default_factory=list)
    layers: int | None = None
    template_fingerprint: str | None = None
    chat_template: str | None = None


class LensEvent(BlahModel):
    """One NDJSON line of ``POST /models/{id}/lens/analyze``.

    ``type`` is ``start``, ``layer``, ``token``, ``done`` or ``error``; the other fields
    are set according to it. Unknown events are kept (``type`` as sent).
    """

    type: str
    layer: int | None = None
    position: int | None = None
    token: str | None = None
    top_k: list[dict[str, Any]] | None = None  # [{"token": str, "prob": float}]
    message: str | None = None
    layers: int | None = None
    tokens: list[str] | None = None
