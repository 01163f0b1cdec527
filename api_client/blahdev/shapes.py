"""Pydantic models for every blah.dev resource (see ../shared/platform/CONTRACT.md).

Rules that hold for every model here:
- unknown fields are ignored (the service adds fields at any time);
- a missing optional field stays ``None``: never ``0`` or ``""``;
- times are integers, milliseconds since the Unix epoch (UTC).

Import any of them from here. They are defined in three modules: the logs (``shapes_logs``:
a call, the totals, a page of calls), loaded with this one; and, loaded on first use (PEP 562),
every other resource (``shapes_platform``: models and evals, diagnosis, runs and results,
leaderboard, compare, health, chatroom, inference) and the platform's other services
(``shapes_services``: webhooks, games, training sets, lens). Why: the Logs screen and the
archive need only the logs' models at start-up, and defining the other ~30 pydantic models
costs ~4x what the logs' do (each ~1 ms, even with ``defer_build``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from api_client.blahdev.shapes_logs import ChatMessage, LogEntry, LogPage, LogSource, LogStats, SourceStats

if TYPE_CHECKING:
    from api_client.blahdev.shapes_platform import (
        ChatJob,
        ChatroomMessage,
        ChatroomMessageDetail,
        ChatroomMuteState,
        ChatroomPage,
        ChatroomPosted,
        CompareAnswer,
        CompareRow,
        Comparison,
        DiagnoseExample,
        DiagnoseFinding,
        Diagnosis,
        Eval,
        FailureCluster,
        FailureClusters,
        Health,
        HealthCheck,
        InferResult,
        LeaderboardEntry,
        Model,
        Result,
        Run,
        RunStarted,
        SearchResults,
        parse_score_details,
    )
    from api_client.blahdev.shapes_services import (
        Game,
        GameTurn,
        LensBundle,
        LensEvent,
        TrainingSet,
        UploadTicket,
        Webhook,
    )


# Written out so that ruff and mypy see the re-exports (the one list of the names: _LATER is read from it);
# tests/test_startup_imports.py holds it to the models defined.
__all__ = [
    "ChatJob",
    "ChatMessage",
    "ChatroomMessage",
    "ChatroomMessageDetail",
    "ChatroomMuteState",
    "ChatroomPage",
    "ChatroomPosted",
    "CompareAnswer",
    "CompareRow",
    "Comparison",
    "DiagnoseExample",
    "DiagnoseFinding",
    "Diagnosis",
    "Eval",
    "FailureCluster",
    "FailureClusters",
    "Game",
    "GameTurn",
    "Health",
    "HealthCheck",
    "InferResult",
    "LeaderboardEntry",
    "LensBundle",
    "LensEvent",
    "LogEntry",
    "LogPage",
    "LogSource",
    "LogStats",
    "Model",
    "Result",
    "Run",
    "RunStarted",
    "SearchResults",
    "SourceStats",
    "TrainingSet",
    "UploadTicket",
    "Webhook",
    "parse_score_details",
]

_SERVICES = frozenset({"Game", "GameTurn", "LensBundle", "LensEvent", "TrainingSet", "UploadTicket", "Webhook"})
_LATER: dict[str, str] = {
    name: "api_client.blahdev.shapes_services" if name in _SERVICES else "api_client.blahdev.shapes_platform"
    for name in __all__
    if name not in globals()  # the logs' models, imported above
}
"""Name -> the module that defines it, for the models loaded on first use."""


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LATER})
