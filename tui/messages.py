"""What the app tells its screens: the connection state, model events and run changes.

Their own module, so a screen that listens for them imports this and never ``tui.app`` (the
app imports the screens; a screen importing the app made a cycle)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

__all__ = ["MISSING_MODEL_STATE", "ConnectionState", "ModelEvent", "RunChanged"]

#: The header's state when the platform answers but has no such model.
MISSING_MODEL_STATE = "no such model"


@dataclass(frozen=True)
class ConnectionState:
    state: str  # "connected" | "connecting" | "error" | "offline" | MISSING_MODEL_STATE
    detail: str = ""


@dataclass(frozen=True)
class ModelEvent:
    """Published on ``BlahApp.model_signal``: ``kind`` is "switched" (the app is now about
    ``model_id``) or "chatroom" (``model_id`` was muted or unmuted in the chatroom)."""

    kind: str
    model_id: str


class RunChanged(Message):
    """A run changed on the platform (a webhook said so). Posted to every screen; the screens
    showing runs handle ``on_run_changed`` (the Runs list reloads, the watch of that run polls)."""

    bubble = False

    def __init__(self, run_id: str, status: str | None, event: str) -> None:
        super().__init__()
        self.run_id = run_id
        self.status = status
        self.event = event
