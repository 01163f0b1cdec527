"""What the app does with a webhook that reached the local receiver.

``BlahApp.handle_webhook_event`` calls :func:`dispatch_webhook_event`: a run event becomes the
app's one "run ended" announcement (shared with the Runs screens, so it is never said twice),
and a ``RunChanged`` message to every screen: the Runs list reloads on it, and a watch screen
following that run polls at once. Every piece of platform text is sanitised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from textual.app import App
from textual.screen import Screen

from application.webhooks.receiver import WebhookDelivery
from tui.messages import RunChanged
from widgets.safe_text import one_line

if TYPE_CHECKING:
    from tui.app_protocol import BlahAppApi

__all__ = ["delivery_summary", "dispatch_webhook_event"]

Severity = Literal["information", "warning", "error"]
_RUN_SEVERITY: dict[str, Severity] = {"completed": "information", "failed": "error", "stalled": "warning"}


def delivery_summary(delivery: WebhookDelivery) -> str:
    """One sanitised line: ``run run_00012 completed (12/38)`` or ``Alice: hello…``."""
    run = delivery.run
    if run is not None:
        status = delivery.run_status or delivery.event.removeprefix("run.")
        done, total = run.get("completed_count"), run.get("total_evals")
        progress = f" ({done}/{total} items)" if isinstance(done, int) and isinstance(total, int) else ""
        return f"run {one_line(delivery.run_id or '(no id)', max_len=60)} {one_line(status, max_len=20)}{progress}"
    message = delivery.message
    if message is not None:
        author = message.get("author_name") or message.get("model_id") or "someone"
        content = message.get("content")
        return (
            f"{one_line(str(author), max_len=40)}: {one_line(content if isinstance(content, str) else '', max_len=100)}"
        )
    return f"event {one_line(delivery.event, max_len=40)}"


def dispatch_webhook_event(app: BlahAppApi, delivery: WebhookDelivery) -> None:
    """Notify, post ``RunChanged`` and refresh what shows the run (runs in the app's loop)."""
    from tui.run_watch import BLAH_RUN, RunEnd, announce_end

    event = one_line(delivery.event, max_len=40)
    run_id = delivery.run_id
    if delivery.event.startswith("run.") and run_id is not None:
        status = delivery.run_status or delivery.event.removeprefix("run.")
        severity = _RUN_SEVERITY.get(status, "information")
        bell = app.ctx.settings.bell_on_run_end
        as_app = cast("App[object]", app)
        announce_end(
            as_app, RunEnd(run_id, BLAH_RUN, status, f"{delivery_summary(delivery)} (webhook)", severity), bell=bell
        )
        for screen in _all_screens(app):
            if screen.is_attached:
                screen.post_message(RunChanged(run_id, status, delivery.event))
        return
    if delivery.event == "chatroom.message":
        app.notify(delivery_summary(delivery), title="Chatroom (webhook)", markup=False, timeout=4)
        return
    app.notify(delivery_summary(delivery), title=f"Webhook: {event}", markup=False)


def _all_screens(app: BlahAppApi) -> list[Screen[Any]]:
    screens: list[Screen[Any]] = []
    for mode in app.MODES:
        try:
            screens.extend(app.get_screen_stack(mode))
        except KeyError:
            continue
    return screens
