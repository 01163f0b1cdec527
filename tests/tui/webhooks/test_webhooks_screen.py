"""The Webhooks screen on a real simulator: listen here, a run's end reaching the app, a
forged delivery refused, create and delete confirmed and sent once."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.chatroom import make_app, wait_for
from tests.support.notify_log import NotificationLog
from tui.app import BlahApp
from tui.screens.runs.screen import RunsScreen
from tui.screens.webhooks.form import WebhookFormScreen
from tui.screens.webhooks.listen import listener_for
from tui.screens.webhooks.screen import WebhooksScreen
from widgets.confirm import ConfirmScreen

SIZE = (140, 45)


def status_of(screen: WebhooksScreen) -> str:
    found = screen.query("#wh-status")
    return str(found.first().render()) if found else ""


async def open_webhooks(pilot: Pilot[Any]) -> WebhooksScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, WebhooksScreen), what="webhooks screen")
    screen = app.screen
    assert isinstance(screen, WebhooksScreen)
    await wait_for(pilot, lambda: "webhook" in status_of(screen), what="list loaded")
    return screen


async def listen_here(pilot: Pilot[Any], screen: WebhooksScreen) -> None:
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), what="confirmation")
    await pilot.press("y", "y")  # a double press must not register twice
    session = listener_for(screen.blah_app)
    await wait_for(pilot, lambda: session.listening and session.webhook is not None, what="listening")


async def test_run_completed_reaches_the_app_refreshes_runs_and_stop_removes_it(
    fresh_sim: SimulatorServer, notifications: NotificationLog
) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="runs")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
            runs_screen = app.screen
            assert isinstance(runs_screen, RunsScreen)
            app.switch_mode("webhooks")
            screen = await open_webhooks(pilot)
            await listen_here(pilot, screen)
            session = listener_for(app)
            hooks = [h for h in fresh_sim.world.webhooks.values() if h["url"] == session.url]
            assert len(hooks) == 1, "one registration per confirmation"
            assert hooks[0]["_secret"] and hooks[0]["event_types"] == ["run.completed", "run.failed", "run.stalled"]

            started = await client.start_run([fresh_sim.person_model_id])
            run_id = started.run.id if started.run else None
            assert run_id is not None
            await wait_for(
                pilot,
                lambda: any(d.run_id == run_id for d in session.deliveries),
                timeout=30,
                what="run.completed delivered",
            )
            assert any(run_id in n and "completed" in n and "webhook" in n for n in notifications.messages(app))
            # The Runs screen (not polling: nothing was active when it loaded) refreshed at once.
            await wait_for(
                pilot,
                lambda: any(r.id == run_id and r.status == "completed" for r in runs_screen.runs),
                what="runs list refreshed by the webhook",
            )
            assert "run.completed" in str(screen.query_one("#wh-received").get_row_at(0))
            assert "this app listens here" in str(screen.query_one("#wh-table").get_row_at(0))

            # Stopping removes the registration and closes the receiver.
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm stop")
            await pilot.press("y")
            await wait_for(pilot, lambda: not session.listening and not screen.webhooks, what="stopped")
            assert fresh_sim.world.webhooks == {}


async def test_forged_delivery_is_refused_and_not_notified(
    fresh_sim: SimulatorServer, notifications: NotificationLog
) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="webhooks")
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_webhooks(pilot)
            await listen_here(pilot, screen)
            session = listener_for(app)
            assert session.url is not None and session.receiver is not None
            # Someone else registers our receiver's URL with their own secret.
            forged = await client.create_webhook(session.url, ["chatroom.message"], secret="not-the-apps-secret")
            before = len(notifications.messages(app))
            await client.post_chatroom("ping")
            await wait_for(
                pilot,
                lambda: any(d["webhook_id"] == forged.id for d in fresh_sim.world.deliveries),
                what="forged delivery attempted",
            )
            await pilot.pause(0.3)  # the models' replies are chatroom messages too
            attempts = [d for d in fresh_sim.world.deliveries if d["webhook_id"] == forged.id]
            assert attempts and all(d["status_code"] == 401 for d in attempts)
            assert session.receiver.stats.rejected >= 1 and session.receiver.stats.accepted == 0
            assert list(session.deliveries) == []
            assert not any("ping" in n for n in notifications.messages(app)[before:])
            url = session.url
            assert url is not None
        # The app exited: its receiver no longer listens.
        with pytest.raises(httpx.ConnectError):
            async with sim_http.AsyncClient(trust_env=False) as http:
                await http.post(url, content=b"{}")


async def test_without_a_key_the_list_says_so(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url) as client:
        app = make_app(fresh_sim, client, start_mode="webhooks")
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_webhooks(pilot)
            assert "listing them needs an API key" in status_of(screen)
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            await pilot.press("y")
            await wait_for(
                pilot,
                lambda: "needs an API key" in str(screen.query_one("#wh-message").render()),
                what="the write refused before sending",
            )
            assert not listener_for(app).listening and fresh_sim.world.webhooks == {}


async def test_create_and_delete_are_confirmed_and_sent_once(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="webhooks")
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_webhooks(pilot)
            assert "returned no webhooks" in status_of(screen)
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, WebhookFormScreen), what="form")
            form = app.screen
            form.query_one("#wf-url", Input).value = "ftp://nope"
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, WebhookFormScreen)
            assert "http" in str(form.query_one("#wf-problem").render())
            form.query_one("#wf-url", Input).value = "https://hooks.example.net/blah"
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm create")
            await pilot.press("y", "y")
            await wait_for(pilot, lambda: len(screen.webhooks) == 1, what="created and listed")
            assert len(fresh_sim.world.webhooks) == 1 and screen.write.sent == 1
            hook = screen.webhooks[0]
            assert hook.url == "https://hooks.example.net/blah" and hook.event_types == ["run.completed"]

            await pilot.press("d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm delete")
            await pilot.press("n")  # said no: nothing sent
            await pilot.pause(0.1)
            assert len(fresh_sim.world.webhooks) == 1
            await pilot.press("d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirm delete")
            await pilot.press("y", "y")
            await wait_for(pilot, lambda: not screen.webhooks, what="deleted")
            assert fresh_sim.world.webhooks == {} and screen.write.sent == 2


def test_new_areas_are_in_the_palette_without_a_number_key() -> None:
    names = {"webhooks", "training", "lens"}
    assert names <= set(BlahApp.MODES)
    keys = {b.key for b in BlahApp.BINDINGS if not isinstance(b, tuple) and b.id and b.id.startswith("mode.")}
    assert "" not in keys and all(
        f"mode.{n}" not in {b.id for b in BlahApp.BINDINGS if not isinstance(b, tuple)} for n in names
    )
