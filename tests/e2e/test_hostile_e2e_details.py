"""Hostile text end to end, the detail screens: the longest untrusted texts, delivered by the
simulator (``inject_hostile``): the worst hostile calls in the Inspector (prompt, reply, error and
turns; the 1 MB line too), the judge's reasoning of results, and a notification (toast)
announcing a run that failed with a hostile error. Every frame is checked segment by segment
(no ``@click`` meta, no link, no raw control character); no injected action may fire.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from api_client.blahdev.client import BlahClient
from simulator.blahdev import runs as sim_runs
from simulator.server import SimulatorServer
from tests.support.hostile_e2e import (
    SIZE,
    Injected,
    Watch,
    back_to,
    check_frame,
    frame_text,
    hostile_app,
    inject_hostile,
    press_now,
    settle,
    wait_until,
)
from tests.support.hostile_payloads import assert_inert
from tests.support.notify_log import NotificationLog
from tui.run_watch import notifier_for

#: The payloads most likely to do harm (terminal escapes of every family, markup actions, bidi,
#: the 1 MB line, a lone surrogate). Every payload is also shown in the lists and in the screen
#: Enter opens (test_hostile_e2e.py); opening and closing the Inspector costs about a second of
#: CPU each (Textual restyling the screens), so not all 37 are opened one by one here.
INSPECTED = (
    "osc52-bel",
    "osc8-link",
    "osc0-title",
    "csi-clear",
    "c1-csi-clear",
    "dcs",
    "markup-click",
    "markup-textual-var",
    "bidi-override",
    "one-mb-line",
    "lone-surrogate",
)


@pytest.fixture(scope="module")
def hostile_sim() -> Iterator[tuple[SimulatorServer, Injected]]:
    server = SimulatorServer(seed=19, speed=20.0, live=False)
    injected = inject_hostile(server.world)
    server.start()
    try:
        yield server, injected
    finally:
        server.stop()


async def test_inspector_and_judge_reasoning_from_the_platform(hostile_sim: tuple[SimulatorServer, Injected]) -> None:
    """The longest untrusted texts, fetched over HTTP: hostile calls in the Inspector (prompt,
    reply, error, turns; the 1 MB line too) and the judge's reasoning of results."""
    server, injected = hostile_sim
    from tui.screens.inspector.screen import InspectorScreen
    from tui.screens.runs.results_detail import ResultDetailScreen

    async with BlahClient(server.base_url, api_key=server.council_key) as client:
        app = hostile_app(server, client)
        watch = Watch(app)
        async with app.run_test(size=SIZE):
            await wait_until(lambda: app.current_mode == "logs", 20)
            wanted = [i for i in injected.log_ids if server.world.truth[i].removeprefix("hostile:") in INSPECTED]
            assert len(wanted) == len(INSPECTED)
            for log_id in wanted:
                app.open_log(log_id)
                shown = await wait_until(
                    lambda log_id=log_id: (
                        isinstance(app.screen, InspectorScreen)
                        and getattr(app.screen, "entry", None) is not None
                        and app.screen.entry.id == log_id
                    ),
                    20,
                )
                assert shown, f"the inspector never showed {log_id}: {app.screen_stack}"
                await asyncio.sleep(0.05)
                check_frame(app, f"inspector {server.world.truth[log_id]}")
                await back_to(app, 1)
            for result_id in injected.result_ids[:4]:
                app.push_screen(ResultDetailScreen(result_id))
                await wait_until(lambda: isinstance(app.screen, ResultDetailScreen), 10)
                await settle(app, 6)
                check_frame(app, f"result {result_id}")
                await back_to(app, 1)
            assert app.is_running and not watch.fired and app._exception is None


async def test_a_hostile_run_error_in_a_notification(
    hostile_sim: tuple[SimulatorServer, Injected], notifications: NotificationLog
) -> None:
    """A run the person follows (as after starting it from the app) fails with a hostile error:
    the announcement (a toast) and the table show it inertly; no raw control character."""
    server, _ = hostile_sim
    payload = "[@click=app.quit]boom[/] \x1b]52;c;SGVsbG8=\x07 \x1b[2J failed\u202e"
    async with BlahClient(server.base_url, api_key=server.council_key) as client:
        app = hostile_app(server, client)
        watch = Watch(app)
        async with app.run_test(size=SIZE):
            press_now(app, "3")
            await wait_until(lambda: app.current_mode == "runs", 20)
            await settle(app)
            started = await client.start_run([server.person_model_id])
            assert started.run is not None
            run_id = started.run.id
            notifier_for(app).follow(run_id)  # the person's own run: its end is news
            press_now(app, "r")  # the screen sees it running ...
            await wait_until(lambda: any(r.id == run_id for r in getattr(app.screen, "runs", [])), 10)
            sim_runs.fail_run(server.world, run_id, payload)  # ... then failing with a hostile error
            announced = await wait_until(lambda: any("boom" in n for n in notifications.messages(app)), 20)
            assert announced, "the failed run was never announced"
            for title, message in notifications.titled(app):
                assert_inert(message)
                assert_inert(title)
            assert await wait_until(lambda: "boom" in frame_text(app), 10), "the toast was never drawn"
            check_frame(app, "runs with a failed-run toast")
            assert app.is_running and not watch.fired
