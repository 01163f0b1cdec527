"""What the test's apps were asked to notify, read through the public ``App.notify``.

Textual's own toast list drops a toast when it times out, so a test that read it could miss
a notification on a busy machine. ``record_notifications`` (an autouse fixture in
``tests/conftest.py``) wraps ``App.notify`` for every test; ``said(app)`` and the
``notifications`` fixture read what it recorded, timed-out toasts included.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from textual.app import App


@dataclass(frozen=True)
class Shown:
    """One notification as the app was asked to show it."""

    app: App[Any]
    message: str
    title: str
    severity: str


class NotificationLog:
    """Every ``App.notify`` call of the test, oldest first; ``messages(app)`` for one app's."""

    current: NotificationLog | None = None
    """The running test's log (set by the autouse fixture)."""

    def __init__(self) -> None:
        self.shown: list[Shown] = []

    def messages(self, app: App[Any] | None = None) -> list[str]:
        return [n.message for n in self.shown if app is None or n.app is app]

    def titled(self, app: App[Any] | None = None) -> list[tuple[str, str]]:
        return [(n.title, n.message) for n in self.shown if app is None or n.app is app]


def recording_notify(log: NotificationLog) -> Any:
    """A stand-in for ``App.notify`` that records each call in ``log``, then shows it."""
    real = App.notify
    signature = inspect.signature(real)

    def notify(self: App[Any], *args: Any, **kwargs: Any) -> None:
        given = signature.bind(self, *args, **kwargs)
        given.apply_defaults()
        args_ = given.arguments
        log.shown.append(Shown(self, str(args_["message"]), str(args_["title"]), str(args_["severity"])))
        real(self, *args, **kwargs)

    return notify


def said(app: App[Any]) -> list[str]:
    """Every notification ``app`` was asked to show in this test, oldest first."""
    log = NotificationLog.current
    assert log is not None, "the record_notifications fixture is not active"
    return log.messages(app)
