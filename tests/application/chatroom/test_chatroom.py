"""The chatroom: feed ordering/dedupe, polling, loop evidence and rendering (no app), then
the screen against the real simulator, driven by keys."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace

import pytest
from rich.console import Console
from textual.widgets import Select

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import ChatroomMessage, ChatroomPage
from api_client.errors import RateLimitedError, ServerError
from application.chatroom.feed import ChatFeed, loop_verdict, mute_evidence
from application.chatroom.poll import INITIAL_PAGE, POLL_PAGE, RoomPoller
from application.session.settings.typed import Settings
from simulator.server import SimulatorServer
from tests.support.chatroom import (
    SIZE,
    make_app,
    open_chatroom,
    post_in_room,
    screen_text,
    wait_for,
)
from tests.support.hostile_payloads import HOSTILE, assert_inert
from tui.screens.chatroom.people import EVERYONE
from tui.screens.chatroom.post import PostFlow
from tui.screens.chatroom.render import RoomStyles, author_colour, message_text
from tui.screens.inspector.screen import InspectorScreen
from widgets.confirm import ConfirmScreen

LOOPING = "I like trains. " * 12


def msg(
    mid: str, at: int, *, model: str | None = "m1", content: str = "hello there", kind: str = "model"
) -> ChatroomMessage:
    return ChatroomMessage(
        id=mid,
        created_at=at,
        author_kind=kind,
        model_id=model if kind == "model" else None,
        author_name=model or "person",
        content=content,
        log_id=f"log-{mid}" if kind == "model" else None,
    )


STYLES = RoomStyles(["#ff0000", "#00ff00", "#0000ff"], muted="#777777", person_background="#111111", human="#eeeeee")


# --------------------------------------------------------------------------- feed


def test_feed_keeps_each_message_once_oldest_first() -> None:
    feed = ChatFeed()
    new, appended = feed.add([msg("b", 20), msg("a", 10), msg("c", 20)])
    assert [m.id for m in new] == ["a", "b", "c"] and appended
    # the overlapping poll brings b and c again, plus d in the same millisecond
    new, appended = feed.add([msg("c", 20), msg("d", 20), msg("b", 20)])
    assert [m.id for m in new] == ["d"] and appended
    assert [m.id for m in feed.messages] == ["a", "b", "c", "d"]
    assert feed.since_param() == 19  # one millisecond of overlap


def test_feed_inserts_a_late_arrival_in_order_and_says_so() -> None:
    feed = ChatFeed()
    feed.add([msg("a", 10), msg("c", 30)])
    new, appended = feed.add([msg("b", 20)])
    assert [m.id for m in new] == ["b"] and not appended
    assert [m.id for m in feed.messages] == ["a", "b", "c"]


def test_feed_drops_the_oldest_past_its_limit() -> None:
    feed = ChatFeed(max_messages=3)
    feed.add([msg(str(i), i) for i in range(5)])
    assert [m.id for m in feed.messages] == ["2", "3", "4"]
    assert "0" not in feed and "4" in feed
    assert feed.since_param() is not None and ChatFeed().since_param() is None


# --------------------------------------------------------------------------- loops and evidence


def test_loop_verdict_uses_the_diagnosis_detector() -> None:
    verdict = loop_verdict(msg("x", 1, content=LOOPING))
    assert verdict is not None and "repeats" in verdict.evidence
    assert loop_verdict(msg("y", 1, content="A perfectly ordinary answer about trains.")) is None
    assert loop_verdict(msg("h", 1, content=LOOPING, kind="human")) is None  # people are not judged


def test_mute_evidence_counts_the_models_recent_messages() -> None:
    room = [
        msg("1", 1, model="loopy", content=LOOPING),
        msg("2", 2, model="loopy", content="fine words here"),
        msg("3", 3, model="other", content=LOOPING),
        msg("4", 4, model="loopy", content="Go " * 40),
        msg("5", 5, kind="human", content=LOOPING),
    ]
    evidence = mute_evidence("loopy", room)
    assert (evidence.examined, evidence.looping) == (3, 2)
    assert evidence.example is not None and evidence.example.id == "4"  # the latest looping one
    assert evidence.summary() == "loops in 2 of its last 3 chatroom messages (67%)"
    window = mute_evidence("loopy", room, window=1)
    assert (window.examined, window.looping) == (1, 1)
    nothing = mute_evidence("silent", room)
    assert nothing.examined == 0 and nothing.rate is None and "no recent" in nothing.summary()


def test_post_flow_waits_for_the_expected_replies_then_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = SimpleNamespace(ctx=SimpleNamespace(settings=Settings(chatroom_reply_timeout=60.0)), models={})
    flow = PostFlow(screen)  # type: ignore[arg-type]
    now = [1000.0]
    monkeypatch.setattr("tui.screens.chatroom.post.time.monotonic", lambda: now[0])
    flow.expect(msg("p", 100, kind="human"), ["a", "b"])
    flow.note_arrivals([msg("old", 99, model="a")])  # said before the post: not a reply
    assert flow.waiting_for == ["a", "b"]
    flow.note_arrivals([msg("r", 101, model="a")])
    assert flow.waiting_for == ["b"] and flow.overdue == []
    now[0] += 61  # b's call failed: no message will ever come
    assert flow.waiting_for == [] and flow.overdue == ["b"]


# --------------------------------------------------------------------------- polling


class FakeRoom:
    """Serves pages like the platform: newest first, ``since`` exclusive, newest ``limit``."""

    def __init__(self, messages: list[ChatroomMessage]) -> None:
        self.messages = messages
        self.calls: list[tuple[int | None, int | None]] = []
        self.fail_with: Exception | None = None

    async def chatroom(self, *, limit: int | None = None, since: int | None = None) -> ChatroomPage:
        self.calls.append((limit, since))
        if self.fail_with is not None:
            raise self.fail_with
        matching = [m for m in self.messages if since is None or m.created_at > since]
        page = sorted(matching, key=lambda m: (m.created_at, m.id), reverse=True)[: limit or 50]
        return ChatroomPage(messages=page, next_since=page[0].created_at if page else since)


async def test_poller_overlaps_by_one_ms_and_delivers_each_message_once() -> None:
    room = FakeRoom([msg("a", 100), msg("b", 100)])
    feed = ChatFeed()
    delivered: list[str] = []
    quiet: list[bool] = []

    def on_messages(messages: list[ChatroomMessage]) -> list[ChatroomMessage]:
        new, _ = feed.add(messages)
        delivered.extend(m.id for m in new)
        return new

    poller = RoomPoller(
        room,
        feed,
        on_messages=on_messages,
        on_error=lambda e, w: None,
        on_quiet=quiet.append,
        interval=1.0,
        max_interval=8.0,
    )
    assert await poller.poll_once() == 1.0
    room.messages.append(msg("c", 100))  # a late message in the same millisecond
    assert await poller.poll_once() == 1.0
    assert await poller.poll_once() == 2.0  # nothing new: slower
    assert await poller.poll_once() == 4.0
    assert delivered == ["a", "b", "c"]
    assert room.calls == [(INITIAL_PAGE, None), (POLL_PAGE, 99), (POLL_PAGE, 99), (POLL_PAGE, 99)]
    assert quiet == [False, False, True, True]


async def test_poller_backs_off_on_errors_and_honours_retry_after() -> None:
    room = FakeRoom([])
    errors: list[tuple[type, float]] = []
    poller = RoomPoller(
        room,
        ChatFeed(),
        on_messages=lambda m: [],
        on_error=lambda e, w: errors.append((type(e), w)),
        on_quiet=lambda q: None,
        interval=1.0,
        max_interval=8.0,
    )
    room.fail_with = ServerError("boom", status=503)
    # The app's one rule (application.poller): the first retry at the interval, then doubling, capped.
    assert [await poller.poll_once() for _ in range(5)] == [1.0, 2.0, 4.0, 8.0, 8.0]
    room.fail_with = RateLimitedError("slow down", status=429, retry_after=20.0)
    assert await poller.poll_once() == 20.0
    assert [e for e, _ in errors] == [ServerError] * 5 + [RateLimitedError]


async def test_poller_says_when_a_burst_filled_a_page() -> None:
    room = FakeRoom([msg(f"m{i}", 1000 + i) for i in range(5)])
    feed = ChatFeed()
    poller = RoomPoller(
        room, feed, on_messages=lambda m: feed.add(m)[0], on_error=lambda e, w: None, on_quiet=lambda q: None
    )
    await poller.poll_once()
    room.messages.extend(msg(f"n{i}", 2000 + i) for i in range(POLL_PAGE + 5))
    await poller.poll_once()
    assert feed.page_was_full


# --------------------------------------------------------------------------- rendering


def _plain(text_obj: object) -> str:
    console = Console(width=200, force_terminal=True, color_system="truecolor")
    with console.capture() as capture:
        console.print(text_obj)
    return capture.get()


@pytest.mark.parametrize(("name", "payload"), HOSTILE[:40], ids=[n for n, _ in HOSTILE[:40]])
def test_hostile_message_renders_inert(name: str, payload: str) -> None:
    message = msg("h", 1, model=payload[:50] or "m", content=payload[:5000])
    text = message_text(message, STYLES, person_model_id="me", muted=False, loop=None)
    assert_inert(_plain(text))
    assert all("@click" not in (span.style if isinstance(span.style, str) else str(span.style)) for span in text.spans)


def test_person_model_and_muted_models_are_marked() -> None:
    mine = message_text(msg("1", 1, model="me"), STYLES, person_model_id="me", muted=False, loop=None)
    assert "◆ your model" in mine.plain
    muted = message_text(
        msg("2", 1, model="loopy", content=LOOPING),
        STYLES,
        person_model_id="me",
        muted=True,
        loop=loop_verdict(msg("2", 1, content=LOOPING)),
    )
    assert " MUTED " in muted.plain and " LOOP " in muted.plain
    assert any(str(span.style).find("#777777") >= 0 for span in muted.spans)  # greyed
    human = message_text(msg("3", 1, kind="human", model=None), STYLES, person_model_id="me", muted=False, loop=None)
    assert "(person)" in human.plain and "◆" not in human.plain
    assert author_colour("loopy", STYLES) == author_colour("loopy", STYLES)  # stable per model


# --------------------------------------------------------------------------- the screen, on the simulator


@pytest.fixture
async def fresh_client(fresh_sim: SimulatorServer) -> AsyncIterator[BlahClient]:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as c:
        yield c


async def test_post_reply_prompt_mute_no_turns_unmute(fresh_sim: SimulatorServer, fresh_client: BlahClient) -> None:
    """The issue's scenario: talk to the person's model, read the prompt behind its reply,
    mute it, see it take no more turns, unmute it."""
    app = make_app(fresh_sim, fresh_client)
    person = fresh_sim.person_model_id
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_chatroom(pilot, app)
        # the reply-from chooser defaults to the person's model; choose it explicitly from the list
        await pilot.press("tab")
        assert app.focused is screen.query_one("#people")
        await pilot.press("home", "enter")
        assert screen.query_one("#reply-from", Select).value == person

        before = len(screen.feed)
        await post_in_room(pilot, screen, "hello tiny model")
        await wait_for(
            pilot, lambda: any(m.content == "hello tiny model" for m in screen.feed.messages), what="own post shown"
        )
        posted = next(m for m in screen.feed.messages if m.content == "hello tiny model")
        await wait_for(
            pilot,
            lambda: any(m.model_id == person and m.reply_to == posted.id for m in screen.feed.messages),
            what="the reply",
        )
        assert len(screen.feed) >= before + 2
        assert not screen.post_flow.waiting_for
        reply = next(m for m in screen.feed.messages if m.reply_to == posted.id)

        # open the prompt behind the reply: the inspector shows the very call
        await pilot.press("escape", "f")  # leave the input, follow (the reply is the newest)
        assert screen.room.highlighted_message() == reply
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="inspector")
        assert app.screen.log_id == reply.log_id  # type: ignore[attr-defined]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back in the room")

        # mute it: the confirmation shows the evidence
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="mute confirmation")
        body = str(app.screen.query_one("#confirm-body").render())
        assert "Evidence:" in body and "chatroom message" in body
        await pilot.press("y")
        await wait_for(pilot, lambda: app.chatroom_enabled.get(person) is False, what="muted")
        assert fresh_sim.world.models[person]["chatroom_enabled"] is False
        assert "(muted in chatroom)" in screen_text(app)  # the header says so
        assert " MUTED " in screen_text(app)  # and the author marks / the list
        muted_at = max(m.created_at for m in screen.feed.messages)

        # everyone is asked; the muted model takes no turn
        screen.query_one("#reply-from", Select).value = EVERYONE
        await post_in_room(pilot, screen, "anyone there")
        await wait_for(
            pilot, lambda: any(m.content == "anyone there" for m in screen.feed.messages), what="second post"
        )
        await wait_for(pilot, lambda: not screen.post_flow.waiting_for, timeout=25, what="the others' replies")
        assert person not in screen.post_flow.last_expected
        assert screen.post_flow.last_expected  # the others were asked
        assert not [m for m in screen.feed.messages if m.model_id == person and m.created_at > muted_at]

        # unmute
        await pilot.press("escape", "tab", "home")  # the side list: the person's model comes first
        assert app.focused is screen.query_one("#people")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="unmute confirmation")
        assert "Unmute" in str(app.screen.query_one("#confirm-title").render())
        await pilot.press("y")
        await wait_for(pilot, lambda: app.chatroom_enabled.get(person) is True, what="unmuted")
        assert fresh_sim.world.models[person]["chatroom_enabled"] is True
        assert "(muted in chatroom)" not in screen_text(app)
