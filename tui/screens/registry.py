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
    from tui.screens.logs import LogsScreen

    return LogsScreen()


MODE_SPECS: list[ModeSpec] = [
    ModeSpec("logs", "1", "Logs", "Tail and search the model's calls", _logs),
]
