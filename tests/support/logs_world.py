"""Shared helpers for the Logs screen and Inspector tests (no tests of its own).

- ``wait_for``: poll a condition with a bounded loop (never a timed assertion).
- ``fixed_world_dump``: the person's calls of a seeded simulator World with a FIXED clock,
  written as a JSONL dump: the same bytes on every run, for snapshots and offline tests.
- ``add_hostile_calls``: put calls whose prompt/reply/error are hostile payloads into a world.
- ``frame_segments``: every segment of the current frame, for inertness checks.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.segment import Segment
from textual.app import App
from textual.pilot import Pilot

from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from simulator.server import SimulatorServer
from tests.support.hostile_payloads import HOSTILE
from tests.support.settings import settings_with
from tests.support.waiting import wait_for
from tui.app import BlahApp, create_app
from tui.screens.logs.screen import LogsScreen
from widgets.log_list import LogList

FIXED_ANCHOR_MS = 1_750_000_000_000  # 2025-06-15 15:06:40 UTC
FAST_TAIL = {"logs_interval": 0.1, "logs_max_interval": 0.3, "logs_plot": False}
"""Settings for pilot tests: a quick tail, and the plot panel hidden (it is drawn with
textual-plotext on every change; the tests that are about it turn it on)."""


SIZE = (140, 45)


def app_for(server: SimulatorServer, client: BlahClient, **settings: object) -> BlahApp:
    ctx = AppContext(
        model_id=server.person_model_id,
        client=client,
        base_url=server.base_url,
        settings=settings_with(FAST_TAIL, **settings),
    )
    return create_app(ctx)


def logs_screen(app: BlahApp) -> LogsScreen:
    screen = app.screen
    assert isinstance(screen, LogsScreen)
    return screen


def ids_of(log_list: LogList) -> list[str]:
    return [log_list.row_at(i).id for i in range(log_list.row_count)]


def label_of(app: BlahApp, selector: str) -> str:
    """The plain text a Static shows (Text, Table or Group content alike)."""
    widget = app.screen.query_one(selector)
    content = getattr(widget, "content", None)
    if content is None:
        return str(widget.render())
    if isinstance(content, str):
        return content
    console = Console(width=200, file=io.StringIO(), color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(content)
    return capture.get()


async def loaded(pilot: Pilot[Any], app: BlahApp) -> LogList:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, LogsScreen) and logs_screen(app).log_list.row_count > 0,
        what="the first rows",
    )
    screen = logs_screen(app)
    await wait_for(
        pilot,
        lambda: screen.loader.tail_state is not None and screen.loader.tail_state.phase != "starting",
        what="the tail to start",
    )
    return screen.log_list


@lru_cache(maxsize=2)
def _world_entries(seed: int) -> tuple[str, tuple[str, ...]]:
    from simulator.blahdev.snapshot import seeded_world

    world = seeded_world(seed, anchor_ms=FIXED_ANCHOR_MS)
    world.clock = lambda: FIXED_ANCHOR_MS
    entries = world.logs.all_for(world.person_model_id)
    lines = tuple(json.dumps(entry, ensure_ascii=False) for entry in entries)
    return world.person_model_id, lines


def fixed_world_dump(directory: Path, *, seed: int = 7, extra: list[dict[str, Any]] | None = None) -> tuple[Path, str]:
    """Write the seeded World's calls of the person's model (fixed clock) to a JSONL dump.
    Returns (path, model id)."""
    model_id, lines = _world_entries(seed)
    path = directory / "dump.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line + "\n")
        for entry in extra or []:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return path, model_id


#: Payloads no JSON service can send: a lone surrogate cannot be encoded as UTF-8 (the
#: simulator refuses it); the sanitizer tests cover it directly.
NOT_ON_THE_WIRE = frozenset({"lone-surrogate"})


def hostile_entries(model_id: str, start_ms: int, *, short: bool = True) -> list[dict[str, Any]]:
    """One call per hostile payload: the payload as prompt, reply and (every third) error.
    ``short`` cuts the 1 MB payload so list tests stay fast (the inspector test keeps it)."""
    entries = []
    payloads = [(name, text) for name, text in HOSTILE if name not in NOT_ON_THE_WIRE]
    for index, (name, text) in enumerate(payloads):
        body = text[:5000] if short else text
        failed = index % 3 == 2
        entries.append(
            {
                "id": f"hostile_{index:03d}_{name}",
                "model_id": model_id,
                "source": "chat",
                "created_at": start_ms + index,
                "prompt": f"<|im_start|>user\n{body}<|im_end|>\n<|im_start|>assistant\n",
                "messages": [{"role": "user", "content": body}],
                "response": None if failed else body,
                "error": body if failed else None,
                "latency_ms": 100 + index,
                "max_tokens": 64,
                "prompt_tokens": 10,
                "completion_tokens": None if failed else 12,
                "finish_reason": "error" if failed else "stop",
                "eval_id": None,
                "run_id": None,
                "result_id": None,
                "message_id": None,
            }
        )
    return entries


def add_hostile_calls(world: Any, model_id: str, *, short: bool = True) -> list[str]:
    """Store hostile calls in a simulator world (newest calls of the model). Returns ids."""
    with world.lock:
        start = max(world.now(), (world.logs.latest(model_id) or 0) + 1)
        ids = []
        for entry in hostile_entries(model_id, start, short=short):
            entry["id"] = world.logs.next_id()
            world.logs.add(entry)
            ids.append(entry["id"])
    return ids


def frame_segments(app: App[Any]) -> Iterator[Segment]:
    """Every segment the compositor would paint for the current screen."""
    for strip in app.screen._compositor.render_strips():
        yield from strip
