"""The top-level areas of the app, in the order of their number keys."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen


@dataclass(frozen=True)
class ModeSpec:
    name: str
    key: str
    title: str
    description: str
    factory: Callable[[], Screen[None]]


def _logs() -> Screen[None]:
    from tui.screens.logs.screen import LogsScreen

    return LogsScreen()


def _diagnosis() -> Screen[None]:
    from tui.screens.diagnosis.screen import DiagnosisScreen

    return DiagnosisScreen()


def _chatroom() -> Screen[None]:
    from tui.screens.chatroom.screen import ChatroomScreen

    return ChatroomScreen()


def _models() -> Screen[None]:
    from tui.screens.models.screen import ModelsScreen

    return ModelsScreen()


def _playground() -> Screen[None]:
    from tui.screens.playground.screen import PlaygroundScreen

    return PlaygroundScreen()


def _games() -> Screen[None]:
    from tui.screens.games.screen import GamesScreen

    return GamesScreen()


def _runs() -> Screen[None]:
    from tui.screens.runs.screen import RunsScreen

    return RunsScreen()


def _leaderboard() -> Screen[None]:
    from tui.screens.leaderboard.screen import LeaderboardScreen

    return LeaderboardScreen()


def _compare() -> Screen[None]:
    from tui.screens.compare.screen import CompareScreen

    return CompareScreen()


def _health() -> Screen[None]:
    from tui.screens.health.screen import HealthScreen

    return HealthScreen()


def _webhooks() -> Screen[None]:
    from tui.screens.webhooks.screen import WebhooksScreen

    return WebhooksScreen()


def _training() -> Screen[None]:
    from tui.screens.training.screen import TrainingSetsScreen

    return TrainingSetsScreen()


def _evaluations() -> Screen[None]:
    from tui.screens.evaluations.screen import EvaluationsScreen

    return EvaluationsScreen()


def _lens() -> Screen[None]:
    from tui.screens.lens.screen import LensScreen

    return LensScreen()


MODE_SPECS: list[ModeSpec] = [
    ModeSpec("logs", "1", "Logs", "Tail and search the model's calls", _logs),
    ModeSpec(
        "diagnosis",
        "2",
        "Diagnosis",
        "What the model gets wrong, from its calls, beside the platform's reading",
        _diagnosis,
    ),
    ModeSpec("runs", "3", "Runs", "Eval runs: start, watch, resume, cancel; results", _runs),
    ModeSpec(
        "leaderboard", "4", "Leaderboard", "Standings of the latest run and the change since the previous", _leaderboard
    ),
    ModeSpec("chatroom", "5", "Chatroom", "Read the room, talk to it, mute a looping model", _chatroom),
    ModeSpec("models", "6", "Models", "Search models and evals, switch model, register one", _models),
    ModeSpec("compare", "7", "Compare", "Your model and peers on the same evals, losses first", _compare),
    ModeSpec("health", "8", "Health", "Is it the model or its host? Health checks, uptime, outages", _health),
    ModeSpec("playground", "9", "Playground", "Call the model directly: infer and chat", _playground),
    ModeSpec("games", "0", "Games", "Games between models, with the judge's reasoning", _games),
    # No number key (1-0 are taken): reached through the command palette.
    ModeSpec("webhooks", "", "Webhooks", "Be told when a run finishes: webhooks and a local receiver", _webhooks),
    ModeSpec("training", "", "Training sets", "Training sets: list, build from suggestions, upload", _training),
    ModeSpec("lens", "", "Lens", "BLAH Lens: what each layer predicts, streamed", _lens),
]

PLATFORM_AREAS: list[ModeSpec] = [
    ModeSpec("evaluations", "E", "Evaluations", "Blobfish SDK evaluations: rollouts, replay, findings", _evaluations),
]
"""Areas of another platform: offered (key, palette) only when its client is configured
(``AppContext.blobfish`` for Evaluations), so they are kept out of ``MODE_SPECS``."""

PLATFORM_AREA_NEEDS: dict[str, str] = {"evaluations": "blobfish"}
"""Area name -> the ``AppContext`` member it needs."""


@dataclass(frozen=True)
class WorkflowSpec:
    """A workflow found in the palette by the words a person would type ("bake-off", "cheaper",
    "errorbar", "checkpoint"): it goes to ``area`` and runs that area screen's ``action``.

    The title carries the nouns, since the palette matches titles; ``needs`` names the
    ``AppContext`` member (a platform's client) without which it is not offered."""

    title: str
    description: str
    area: str
    action: str
    needs: str | None = None


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "Bake-offs (errorbar): is it safe to switch to a cheaper model?",
        "The queue's bake-offs: verdict, win rates with intervals, calibration, gate, evidence",
        "compare",
        "bakeoffs",
        needs="errorbar",
    ),
    WorkflowSpec(
        "New bake-off (errorbar): test a cheaper model against yours",
        "A baseline against candidates on your logged traffic, judged both ways; the plan first",
        "runs",
        "new_bakeoff",
        needs="errorbar",
    ),
    WorkflowSpec(
        "Checkpoints: did my new checkpoint get better?",
        "Failure rates per kind and per eval, before and after, with intervals",
        "compare",
        "checkpoints",
    ),
    WorkflowSpec(
        "Start a benchmark run (Blobfish)",
        "A benchmark suite on a model and provider, confirmed, then watched",
        "runs",
        "start_bench",
        needs="blobfish",
    ),
    WorkflowSpec(
        "Whole-history diagnosis: every call of the local archive",
        "The report --offline gives, in the Diagnosis area",
        "diagnosis",
        "whole_history",
    ),
]
"""Workflows offered in the palette beside "Go to <area>" (tests/tui/app/test_palette_workflows.py)."""
