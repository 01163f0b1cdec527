"""The chatroom screen's edges: a refused mute (member key) pressed twice, a post whose answer
never came, and hostile room text, against the real simulator."""

from __future__ import annotations

import httpx

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import (
    SIZE,
    RecordingTransport,
    frame_segments,
    make_app,
    open_chatroom,
    post_in_room,
    screen_text,
    wait_for,
)
from tests.support.hostile_payloads import assert_segments_inert
from tests.support.notify_log import said
from widgets.confirm import ConfirmScreen


async def test_double_press_mutes_once_and_member_key_gets_council_message(sim: SimulatorServer) -> None:
    """Refused (403): the shared world is not changed, so the session simulator is fine."""
    spy = RecordingTransport()
    async with BlahClient(sim.base_url, api_key=sim.member_key, transport=spy) as client:
        app = make_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            target = screen.room.highlighted_message()
            assert target is not None and target.model_id
            target_id = target.model_id
            await pilot.press("m", "m")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            await pilot.press("y", "y")
            await wait_for(
                pilot,
                lambda: spy.count("POST", "/chatroom") >= 1 and not screen.mute_flow.busy(target_id),
                what="mute answered",
            )
            await pilot.pause(0.3)
            assert spy.count("POST", f"/models/{target.model_id}/chatroom") == 1
            assert any("council tier" in n for n in said(app))
            assert app.chatroom_enabled.get(target.model_id) is not False  # nothing changed
    assert sim.world.models[target_id]["chatroom_enabled"] is True


class TimeoutAfterSending(RecordingTransport):
    """Lets the POST /chatroom reach the server, then pretends the answer never came."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "POST" and request.url.path.endswith("/chatroom"):
            await response.aread()
            raise httpx.ReadTimeout("simulated: no answer", request=request)
        return response


async def test_post_that_times_out_is_checked_not_resent(fresh_sim: SimulatorServer) -> None:
    spy = TimeoutAfterSending()
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=spy) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            await post_in_room(pilot, screen, "did this land")
            await wait_for(pilot, lambda: any("It was posted" in n for n in said(app)), what="outcome checked")
            assert spy.count("POST", "/chatroom") == 1
            assert sum(1 for m in screen.feed.messages if m.content == "did this land") == 1


async def test_hostile_room_text_is_inert_on_screen(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chatroom(pilot, app)
        hostile = [m for m in screen.feed.messages if m.content and ("[@click" in m.content or "\x1b" in m.content)]
        assert hostile, "the seeded room carries hostile text"
        screen.room.highlighted = screen.room.get_option_index(hostile[-1].id)
        await pilot.pause()
        assert_segments_inert(frame_segments(app))
        assert "[@click=app.quit]x[/]" in screen_text(app)  # shown as text, not run


class HoldsThePrompt(RecordingTransport):
    """Holds the answer for one message's prompt until the test lets it through."""

    def __init__(self) -> None:
        super().__init__()
        import asyncio

        self.release = asyncio.Event()
        self.answered = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        held = request.method == "GET" and request.url.path.split("/")[-2:-1] == ["chatroom"]
        if held:
            await self.release.wait()
        response = await super().handle_async_request(request)
        if held:
            self.answered.set()
        return response


async def test_a_prompt_that_loads_after_leaving_the_room_does_not_open_over_another_area(sim: SimulatorServer) -> None:
    spy = HoldsThePrompt()
    async with BlahClient(sim.base_url, api_key=sim.council_key, transport=spy) as client:
        app = make_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            assert screen.room.highlighted_message() is not None
            await pilot.press("p")  # the prompt behind the highlighted message: held
            await pilot.press("1")  # meanwhile, off to Logs
            await wait_for(pilot, lambda: app.current_mode == "logs", what="the Logs area")
            spy.release.set()
            await wait_for(pilot, spy.answered.is_set, what="the prompt's answer")
            await wait_for(
                pilot,
                lambda: not any(w.group == "chatroom-prompt" for w in app.workers),
                what="the prompt's worker to end",
            )
            await pilot.pause(0.2)
            assert app.current_mode == "logs"
            assert type(app.screen).__name__ == "LogsScreen", "the call opened over Logs"
