"""Waiting in pilot tests: let the app run until something holds, and when it never does, say
what the app was showing, so a failure on a busy CI machine can be read without re-running it.

One definition for every pilot test (``tests.support.waiting.wait_for``); a generous default
timeout, because a 2-core CI machine running four workers is several times slower than a
laptop, and a wait that returns as soon as its condition holds costs nothing when it is long.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tests.support.notify_log import NotificationLog

DEFAULT_TIMEOUT_S = 30.0


async def wait_for(
    pilot: Pilot[Any], predicate: Callable[[], bool], *, timeout: float = DEFAULT_TIMEOUT_S, what: str = ""
) -> None:
    """Let the app run until ``predicate()`` holds; after ``timeout`` s fail naming ``what``,
    with the screen stack, the focused widget, the app's workers and its notifications."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        await pilot.pause(0.05)
    if predicate():
        return
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what or predicate}\n{app_state(pilot.app)}")


def app_state(app: Any) -> str:
    """A few lines on what ``app`` is doing: for failure messages only."""
    lines = [f"screens: {[type(s).__name__ for s in app.screen_stack]}", f"focused: {app.focused!r}"]
    try:
        workers = [f"{w.name or w.group}:{w.state.name}" for w in app.workers]
        lines.append(f"workers: {workers}")
        failed = [w for w in app.workers if w.error is not None]
        lines.extend(f"worker {w.name} failed: {w.error!r}" for w in failed)
    except Exception as error:  # a diagnostic must never hide the real failure
        lines.append(f"workers: unreadable ({error!r})")
    log = NotificationLog.current
    if log is not None:
        lines.append(f"notifications: {log.titled(app)}")
    return "\n".join(lines)
