"""The Playground on the simulator: infer and chat, each answer with its findings (ctrl+o opens
it in the inspector); one request per press; the chat job polled with backoff until done."""

from __future__ import annotations

import asyncio

import httpx
from textual.css.query import NoMatches
from textual.widgets import Input, Static, TabbedContent, TextArea

from api_client.blahdev.client import BlahClient
from application.poller import Backoff
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, RecordingTransport, make_app, wait_for
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.playground.screen import CHAT_JOB_MAX_POLL_S, PlaygroundScreen


def test_job_polls_back_off_to_a_ceiling() -> None:
    backoff = Backoff(interval=0.25, max_interval=CHAT_JOB_MAX_POLL_S)  # the chat job's poller
    waits = [backoff.wait] + [backoff.after_poll(progress=False) for _ in range(10)]
    assert waits[1] > waits[0] and waits == sorted(waits)
    assert waits[-1] == 5.0


async def _playground(pilot: object, app: object) -> PlaygroundScreen:
    await pilot.press("9")  # type: ignore[attr-defined]
    # the prompt box shown (focusable), as a person sees it before pressing `e` and typing
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, PlaygroundScreen)  # type: ignore[attr-defined]
            and any(box.focusable for box in app.screen.query("#infer-prompt"))
        ),  # type: ignore[attr-defined]
        what="playground",
    )  # type: ignore[arg-type]
    return app.screen  # type: ignore[attr-defined, no-any-return]


def _has_tab(tabs: TabbedContent, pane_id: str) -> bool:
    try:
        tabs.get_tab(pane_id)
    except (ValueError, NoMatches):
        return False
    return True


def _answer(screen: PlaygroundScreen) -> str:
    return str(screen.query_one("#pg-answer", Static).render())


class _SlowInferTransport(RecordingTransport):
    """A platform that takes a second to answer an infer: a second ctrl+s lands while the
    first is in flight, as it does for a person on a slow connection."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/infer"):
            await asyncio.sleep(1.0)
        return await super().handle_async_request(request)


async def test_infer_shows_answer_findings_and_ctrl_o_opens_the_inspector(fresh_sim: SimulatorServer) -> None:
    spy = _SlowInferTransport()
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=spy) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await _playground(pilot, app)
            await pilot.press("e", "H", "i")  # e: write in the prompt box
            prompt = screen.query_one("#infer-prompt", TextArea)
            assert prompt.text == "Hi"
            prompt.text = "The capital of France is"
            await pilot.press("escape")
            screen.query_one("#infer-max", Input).value = "0"
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert spy.count("POST", "/infer") == 0  # refused locally: 0 is no limit

            screen.query_one("#infer-max", Input).value = "16"
            await pilot.press("ctrl+s", "ctrl+s")
            await wait_for(pilot, lambda: "Findings" in _answer(screen), what="the answer and its findings")
            assert app.screen is screen  # ctrl+s sends; the inspector is ctrl+o's
            log_id = screen.last_log_id
            assert log_id is not None
            entry = fresh_sim.world.log(log_id)
            assert entry is not None and entry["source"] == "test" and entry["max_tokens"] == 16
            shown = _answer(screen)
            assert "trained template: ChatML (platform)" in shown
            assert f"of {entry['max_tokens']}" in shown and log_id in shown
            if entry["response"]:
                assert entry["response"].strip()[:20] in shown
            await pilot.press("ctrl+o")
            await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="the inspector")
            assert app.screen.log_id == log_id  # type: ignore[attr-defined]
    assert spy.count("POST", "/infer") == 1


async def test_chat_job_is_polled_until_the_reply_lands(fresh_sim: SimulatorServer) -> None:
    spy = RecordingTransport()
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key, transport=spy) as client:
        app = make_app(fresh_sim, client, chat_job_first_poll=0.05)
        async with app.run_test(size=SIZE) as pilot:
            screen = await _playground(pilot, app)
            tabs = screen.query_one("#pg-tabs", TabbedContent)
            await wait_for(pilot, lambda: _has_tab(tabs, "pg-chat"), what="tabs mounted")
            tabs.active = "pg-chat"
            await pilot.press("e")
            box = screen.query_one("#chat-input", Input)
            assert app.focused is box
            box.value = "Hello, who are you?"
            await pilot.press("enter", "enter")
            await wait_for(
                pilot, lambda: len(screen.chat_messages) == 2 and not screen.chat_busy, timeout=20, what="the reply"
            )
            assert [m["role"] for m in screen.chat_messages] == ["user", "assistant"]
            log = fresh_sim.world.log(screen.last_log_id or "")
            assert log is not None and log["source"] == "chat"
            transcript = str(screen.query_one("#chat-log", Static).render())
            assert "Hello, who are you?" in transcript
            assert "completed" in str(screen.query_one("#chat-job", Static).render())
            assert "Findings" in _answer(screen)
    assert spy.count("POST", "/chat") == 1
    assert spy.count("GET", "") >= 1 and any("/chat/jobs/" in path for _, path in spy.requests)
