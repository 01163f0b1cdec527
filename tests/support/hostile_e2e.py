"""Helpers for the end-to-end hostile-text, key-leak and bad-input tests (no tests here).

- ``inject_hostile(world)``: the HOSTILE corpus put into a simulator's world wherever the
  platform carries text written by models or strangers: log prompts, replies and errors,
  chat messages and author names, model names, descriptions and templates, eval names,
  game turns and judge reasoning, results' judge reasoning (``score_details``), run errors,
  health-check errors. Delivered by the simulator over HTTP like any other data.
- ``visit_every_mode``: every top-level area of the app (``MODE_SPECS``), reached by its
  number key when it has one, given time to load; a callback sees each.
- ``press_now``, ``settle``, ``frame_segments``, ``frame_text``: driving and reading frames.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.segment import Segment
from textual.app import App

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.blahdev import chatroom
from simulator.blahdev.world import World
from simulator.server import SimulatorServer
from tests.support.hostile_payloads import HOSTILE, assert_segments_inert
from tests.support.settings import Settings, settings_with
from tui.app import BlahApp, create_app
from tui.registry import MODE_SPECS

SIZE = (140, 45)


@dataclass
class Injected:
    """What went where (ids and counts), to drive the screens to it and to report figures."""

    log_ids: list[str] = field(default_factory=list)
    message_ids: list[str] = field(default_factory=list)
    model_ids: list[str] = field(default_factory=list)
    eval_ids: list[str] = field(default_factory=list)
    result_ids: list[str] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    placements: int = 0
    """Payload placements in all (one payload can be in many fields)."""


def _payload(i: int) -> str:
    return HOSTILE[i % len(HOSTILE)][1]


def inject_hostile(world: World, *, big: bool = True) -> Injected:
    """Put every HOSTILE payload into the world (see module docstring). ``big=False`` leaves
    out the 1 MB line (for places where one megabyte per request would only be slow)."""
    out = Injected()
    payloads = [(n, p) for n, p in HOSTILE if big or len(p) < 100_000]
    with world.lock:
        model = world.person_model_id
        peers = world.peer_model_ids
        base = max(world.now(), world.logs.latest(model) or 0) + 1
        # log entries of the person's model: prompt, reply (or error), structured turns
        for i, (name, text) in enumerate(payloads):
            failed = i % 3 == 2
            entry: dict[str, Any] = {
                "id": world.logs.next_id(),
                "model_id": model,
                "source": ("eval", "chatroom", "chat", "test")[i % 4],
                "created_at": base + i,
                "prompt": text,
                "messages": [{"role": "user", "content": text}],
                "response": None if failed else text,
                "error": text if failed else None,
                "latency_ms": 100 + i,
                "max_tokens": 64,
                "prompt_tokens": 5,
                "completion_tokens": None if failed else 7,
                "finish_reason": "error" if failed else "stop",
                "eval_id": None,
                "run_id": None,
                "result_id": None,
                "message_id": None,
            }
            world.logs.add(entry)
            world.truth[entry["id"]] = "hostile:" + name
            out.log_ids.append(entry["id"])
            out.placements += 2
        # models: names, descriptions, a template string; one newly registered
        for i, peer in enumerate(peers[:3]):
            m = world.models[peer]
            m.update(name=_payload(i * 7 + 1)[:200], description=_payload(i * 7 + 2))
            out.model_ids.append(peer)
            out.placements += 2
        if len(peers) > 3:
            world.models[peers[3]]["chat_template"] = _payload(17)
            out.placements += 1
        registered = world.register_model(
            "stranger",
            "[@click=app.quit]evil[/] \x1b]0;pwned title\x07",
            "https://example.invalid/v1",
            _payload(5),
            False,
        )
        out.model_ids.append(registered["id"])
        out.placements += 2
        # evals: names and descriptions
        for i, eval_id in enumerate(list(world.evals)[:6]):
            world.evals[eval_id].update(name=_payload(i * 5 + 3)[:200], description=_payload(i * 5 + 4))
            out.eval_ids.append(eval_id)
            out.placements += 2
        # results of the person's model: the reply and the judge's reasoning
        own = [r for r in world.results.values() if r["model_id"] == model]
        for i, result in enumerate(own[: len(payloads)]):
            text = payloads[i][1]
            details = {"reasoning": text, "criteria": {text[:40]: 0.5, "accuracy": 0.2}, "verdict": text[:80]}
            result.update(score_details=json.dumps(details) if i % 2 == 0 else text, response=text)
            out.result_ids.append(result["id"])
            out.placements += 2
        # runs: the error text
        for i, run in enumerate(list(world.runs.values())[:4]):
            run["error"] = _payload(i * 3 + 2)
            out.run_ids.append(run["id"])
            out.placements += 1
        # games: turn contents and the judge's reasoning
        for game in list(world.games.values())[:3]:
            for j, turn in enumerate(game["turns"]):
                turn.update(content=_payload(j * 2), judge_reasoning=_payload(j * 2 + 1), author_name=_payload(j)[:60])
                out.placements += 3
            out.game_ids.append(game["id"])
        # health checks: the error of failed checks
        for j, check in enumerate(world.health.get(model, [])[-12:]):
            check.update(ok=False, error=_payload(j))
            out.placements += 1
    # chatroom: people and models saying hostile things, under hostile names
    at = max((m["created_at"] for m in world.messages), default=world.now()) + 1
    for i, (_name, text) in enumerate(payloads):
        message, _ = chatroom.post_human(world, text, _payload(i + 11)[:60], reply_from=None, at=at + i)
        out.message_ids.append(message["id"])
        out.placements += 2
    return out


# --------------------------------------------------------------------------- driving


def press_now(app: App[Any], key: str) -> None:
    """Send a key the way the terminal driver does (no wait for the whole process to idle)."""
    from textual import events

    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)


async def wait_until(predicate: Callable[[], bool], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return predicate()


def frame_segments(app: App[Any]) -> Iterator[Segment]:
    for strip in app.screen._compositor.render_strips():
        yield from strip


def frame_text(app: App[Any]) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


async def settle(app: App[Any], timeout: float = 8.0) -> None:
    """Let the current screen load: until nothing on it says "loading" (bounded), then a bit."""
    await wait_until(lambda: "loading" not in frame_text(app).lower(), timeout)
    await asyncio.sleep(0.3)


Visit = Callable[[str], Awaitable[None]]


KEYS_NOT_ANSWERED: list[str] = []
"""Number keys that did not open their area within 15 s (the area was then opened directly);
reported by the tests that print figures."""


async def visit_every_mode(app: App[Any], on_mode: Visit, *, timeout: float = 8.0) -> list[str]:
    """Go to every top-level area (its number key, else ``switch_mode``), let it load, call
    ``on_mode(name)``. Returns the names visited, in order."""
    visited: list[str] = []
    for spec in MODE_SPECS:
        if spec.key:
            press_now(app, spec.key)
            if not await wait_until(lambda name=spec.name: app.current_mode == name, 15):
                KEYS_NOT_ANSWERED.append(f"{spec.key} ({spec.name}) from {type(app.focused).__name__}")
                app.switch_mode(spec.name)
        else:
            app.switch_mode(spec.name)
        assert await wait_until(lambda name=spec.name: app.current_mode == name, 20), f"mode {spec.name} never opened"
        await settle(app, timeout)
        await on_mode(spec.name)
        visited.append(spec.name)
    return visited


# --------------------------------------------------------------------------- the app under test


class Watch:
    """Counts injected actions that must never fire."""

    def __init__(self, app: BlahApp) -> None:
        self.fired: list[str] = []
        app.action_quit = self._quit  # type: ignore[method-assign]
        app.action_bell = self._bell  # type: ignore[method-assign]

    async def _quit(self) -> None:
        self.fired.append("quit")

    async def _bell(self) -> None:
        self.fired.append("bell")


def hostile_app(server: SimulatorServer, client: BlahClient, **settings: Any) -> BlahApp:
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=settings_with(
            Settings(timezone="UTC", persist_theme=False, bell_on_run_end=False, chatroom_poll_interval=0.5), **settings
        ),
    )
    return create_app(ctx)


def check_frame(app: BlahApp, where: str) -> None:
    try:
        assert_segments_inert(frame_segments(app))
    except AssertionError as error:
        raise AssertionError(f"{where}: {error}") from None


async def back_to(app: BlahApp, depth: int) -> None:
    """Escape until the stack is ``depth`` deep; one key at a time, each given long enough that
    a slow pop is never followed by a stray Escape (which would close the next screen)."""
    for _ in range(4):
        if len(app.screen_stack) <= depth:
            return
        press_now(app, "escape")
        await wait_until(lambda: len(app.screen_stack) <= depth, 15)
