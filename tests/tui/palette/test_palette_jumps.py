"""The command palette's jumps: to a model (the app follows it), a run (watched), a call by
its typed id (the inspector) and a chatroom message (the call behind it), and what it says
when the platform cannot be reached."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.palette import run_hit, search
from tests.support.runs import make_app, wait_for
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.runs.screen import RunsScreen
from tui.screens.runs.watch import RunWatchScreen

SIZE = (140, 45)


async def test_palette_jumps_to_a_model_a_run_and_a_call(sim: SimulatorServer, client: BlahClient) -> None:
    peer = sim.peer_model_ids[0]
    peer_name = sim.world.models[peer]["name"]
    run_id = next(iter(sim.world.runs))
    log_id = (await client.get_logs(sim.person_model_id, limit=1)).logs[0].id
    app = make_app(sim, client, start_mode="runs", persist_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")

        await run_hit(pilot, peer_name, lambda text: text == f"Model {peer_name} · {peer}")
        assert app.ctx.model_id == peer

        await run_hit(pilot, run_id, lambda text: text.startswith(f"Run {run_id} · "))
        await wait_for(pilot, lambda: isinstance(app.screen, RunWatchScreen), what="the run")
        screen = app.screen
        assert isinstance(screen, RunWatchScreen) and screen.run_id == run_id

        await run_hit(pilot, log_id, lambda text: text == f"Open call {log_id} in the inspector")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the inspector")
        inspector = app.screen
        assert isinstance(inspector, InspectorScreen) and inspector.log_id == log_id


async def test_palette_opens_a_chatroom_messages_call(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.chatroom(limit=50)
    message = next(m for m in page.messages if m.log_id and m.author_name and m.content)
    expected_prefix = f"Message {message.author_name}: "
    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        words = (message.content or "").split()[:4]
        await run_hit(
            pilot,
            f"{message.author_name} {' '.join(words)}",
            lambda text: text.startswith(expected_prefix) and " ".join(words) in text,
        )
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the message's call")
        inspector = app.screen
        assert isinstance(inspector, InspectorScreen)
        # several messages may read alike; the one opened is a message's call by that author
        by_author = {m.log_id for m in page.messages if m.author_name == message.author_name}
        assert inspector.log_id in by_author


async def test_a_failed_load_is_said_in_the_palette(fresh_sim: SimulatorServer) -> None:
    # no retries: the palette should say so at once rather than after the client's backoff
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, max_attempts=1, deadline=5.0) as client:
        app = make_app(fresh_sim, client, start_mode="runs")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
            fresh_sim.stop()  # the platform goes away before the palette opens
            await search(pilot, "runs", lambda text: text.startswith("Runs: couldn't load:"))
            await pilot.press("escape")
