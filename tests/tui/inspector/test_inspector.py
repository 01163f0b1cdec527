"""Pilot tests of the Inspector against the shared simulator (read-only), driven by keys."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.drivers.headless_driver import HeadlessDriver
from textual.pilot import Pilot
from textual.widget import Widget

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import LogEntry
from application.session.context import AppContext
from application.session.settings.typed import Settings
from common.format import format_latency
from diagnosis import classify
from simulator.server import SimulatorServer
from tests.support.logs_world import SIZE, label_of, wait_for
from tui.app import BlahApp, create_app
from tui.screens.inspector.links import DetailsModal
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.logs.screen import LogsScreen
from widgets.bars import TokenBar
from widgets.text_viewer import TextViewer


async def _newest(client: BlahClient, sim: SimulatorServer, limit: int = 500) -> list[LogEntry]:
    return (await client.get_logs(sim.person_model_id, limit=limit)).logs


def _pick(entries: list[LogEntry], test: Callable[[LogEntry], bool]) -> LogEntry:
    for entry in entries:
        if test(entry):
            return entry
    raise AssertionError("the seeded world has no such call among the newest")


def _kinds(entry: LogEntry) -> set[str]:
    return {finding.kind for finding in classify(entry, trained_template="chatml")}


def _app(sim: SimulatorServer, client: BlahClient, log_id: str | None = None) -> BlahApp:
    ctx = AppContext(
        model_id=sim.person_model_id,
        client=client,
        base_url=sim.base_url,
        open_log_id=log_id,
        settings=Settings(timezone="UTC", archive=False),
    )
    return create_app(ctx)


async def _inspector(pilot: Pilot[None], app: BlahApp, log_id: str | None = None) -> InspectorScreen:
    def ready() -> bool:
        screen = app.screen
        return (
            isinstance(screen, InspectorScreen)
            and screen.entry is not None
            and (log_id is None or screen.entry.id == log_id)
        )

    await wait_for(pilot, ready, what="the inspector to load")
    screen = app.screen
    assert isinstance(screen, InspectorScreen)
    return screen


def _text(app: BlahApp, selector: str) -> str:
    return label_of(app, selector)


def _styled_reply_segments(viewer: TextViewer) -> list[str]:
    """Texts of reply segments drawn with a finding highlight (reverse video)."""
    return [
        segment.text
        for y in range(viewer.size.height)
        for segment in viewer.render_line(y)
        if segment.style is not None and segment.style.reverse and segment.text.strip()
    ]


async def test_log_flag_opens_the_call_whole_with_findings(sim: SimulatorServer, client: BlahClient) -> None:
    newest = await _newest(client, sim)
    entry = _pick(newest, lambda e: "loop" in _kinds(e) and e.response is not None)
    app = _app(sim, client, entry.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _inspector(pilot, app)
        prompt = screen.query_one("#insp-prompt", TextViewer)
        reply = screen.query_one("#insp-reply", TextViewer)
        assert prompt.text == entry.prompt  # verbatim, the exact text sent
        assert reply.text == entry.response
        bar = screen.query_one("#insp-tokens", TokenBar)
        assert (bar.completion_tokens, bar.max_tokens, bar.finish_reason) == (
            entry.completion_tokens,
            entry.max_tokens,
            entry.finish_reason,
        )
        details = _text(app, "#insp-details")
        assert entry.id in details and format_latency(entry.latency_ms) in details
        await wait_for(pilot, lambda: "LOOP" in _text(app, "#insp-findings"), what="the loop finding")
        # the repeating span is highlighted in the reply
        loop = next(f for f in classify(entry, trained_template="chatml") if f.kind == "loop")
        assert loop.span is not None
        marked = "".join(_styled_reply_segments(reply))
        assert marked and marked.strip() in entry.response
        # detected vs trained template, side by side
        templates = _text(app, "#insp-templates")
        assert "prompt format" in templates and "trained with" in templates and "ChatML" in templates
        # whitespace toggle on both texts
        await pilot.press("w")
        assert prompt.show_whitespace and reply.show_whitespace
        assert "⏎" in prompt.display_text or "·" in prompt.display_text
        await pilot.press("w")
        assert not prompt.show_whitespace

        # a reply cut off by the token limit: said under the reply, and the cut point marked
        cut = _pick(newest, lambda e: e.finish_reason == "length" and bool(e.response) and e.id != entry.id)
        app.push_screen(InspectorScreen(cut.id))
        screen = await _inspector(pilot, app, cut.id)
        assert "cut off" in str(screen.query_one("#insp-tokens", TokenBar).render())
        await wait_for(pilot, lambda: "CUT" in _text(app, "#insp-findings"), what="the truncation finding")
        viewer = screen.query_one("#insp-reply", TextViewer)
        viewer.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        marked = "".join(_styled_reply_segments(viewer))
        assert marked and cut.response is not None and cut.response.rstrip().endswith(marked.strip()[-3:])


async def test_where_it_came_from_opens_by_key(sim: SimulatorServer, client: BlahClient) -> None:
    """A chatroom call: the template verdict and its message; an eval call: the judge's
    reasoning, the result, the eval and the run."""
    chat = _pick(await _newest(client, sim), lambda e: e.source == "chatroom" and e.message_id is not None)
    judged = None
    async for candidate in client.iter_logs(sim.person_model_id, page_size=500):
        if candidate.result_id and candidate.eval_id and candidate.run_id:
            judged = candidate
            break
    assert judged is not None and judged.result_id and judged.eval_id and chat.message_id
    result = await client.get_result(judged.result_id)
    app = _app(sim, client, chat.id)
    async with app.run_test(size=SIZE) as pilot:
        await _inspector(pilot, app, chat.id)
        await wait_for(pilot, lambda: "mismatch" in _text(app, "#insp-templates"), what="the template verdict")
        assert "Llama 2" in _text(app, "#insp-templates")  # the room's format, not ChatML
        assert chat.message_id in _text(app, "#insp-origin")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailsModal), what="the message")
        message = await client.chatroom_message(chat.message_id)
        body = _text(app, "#details-body")
        assert message.id in body and (message.content or "")[:20] in body
        await pilot.press("escape")
        assert isinstance(app.screen, InspectorScreen)

        app.push_screen(InspectorScreen(judged.id))
        await _inspector(pilot, app, judged.id)
        await wait_for(pilot, lambda: "score" in _text(app, "#insp-result"), what="the judged result")
        panel = _text(app, "#insp-result")
        assert result.score is not None and f"{result.score:.2f}" in panel
        if result.score_details_parsed is not None:
            assert "criterion" in panel  # the judge's JSON breakdown, as a table
        else:
            assert "verbatim" in panel
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailsModal), what="the result")
        assert "raw exchange" in _text(app, "#details-body")
        await pilot.press("escape", "e")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailsModal), what="the eval")
        the_eval = await client.get_eval(judged.eval_id)
        assert (the_eval.name or "") in _text(app, "#details-body")
        await pilot.press("escape", "u")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailsModal), what="the run")
        assert "status" in _text(app, "#details-body")


async def test_n_p_copy_export_and_pager(
    sim: SimulatorServer, client: BlahClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = list(reversed(await _newest(client, sim, limit=5)))  # oldest first
    ids = [entry.id for entry in entries]
    out = tmp_path / "paged.txt"
    fake = tmp_path / "fake_pager.py"
    fake.write_text("import shutil, sys\nshutil.copy(sys.argv[2], sys.argv[1])\n", encoding="utf-8")
    monkeypatch.setenv("PAGER", f"{sys.executable} {fake} {out}")
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    app = _app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(InspectorScreen(ids[2], neighbours=ids))
        screen = await _inspector(pilot, app, ids[2])
        await pilot.press("n")
        await _inspector(pilot, app, ids[3])
        await pilot.press("n", "n")  # the second one has nowhere to go
        await _inspector(pilot, app, ids[4])
        await pilot.press("p", "p", "p", "p", "p")
        await _inspector(pilot, app, ids[0])
        entry = entries[0]
        assert screen.query_one("#insp-prompt", TextViewer).text == entry.prompt

        await pilot.press("c")
        assert app.clipboard == entry.prompt
        await pilot.press("C")
        assert app.clipboard == entry.response

        await pilot.press("t")
        await pilot.pause()
        files = list((tmp_path / "data" / "training").glob("*.jsonl"))
        assert len(files) == 1
        example = json.loads(files[0].read_text(encoding="utf-8").splitlines()[-1])
        assert example["source_log_id"] == entry.id
        assert example["messages"][-1] == {"role": "assistant", "content": ""}
        assert example["messages"][:-1] == [{"role": m.role, "content": m.content} for m in entry.messages or []]
        assert not entry.response or json.dumps(entry.response)[1:-1] not in json.dumps(example)
        await pilot.press("t")
        await pilot.pause()
        assert len(files[0].read_text(encoding="utf-8").splitlines()) == 2  # appended

        await pilot.press("o")
        await wait_for(pilot, out.exists, what="the pager to run")
        paged = out.read_text(encoding="utf-8")
        assert "===== prompt =====" in paged and "===== reply =====" in paged
        assert (entry.prompt or "").strip().splitlines()[-1] in paged
        assert "\x1b" not in paged


async def test_unknown_log_id_says_so_and_esc_goes_back(sim: SimulatorServer, client: BlahClient) -> None:
    app = _app(sim, client, "log_does_not_exist")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, InspectorScreen) and "No call with id" in _text(app, "#insp-message"),
            what="the not-found message",
        )
        assert "log_does_not_exist" in _text(app, "#insp-message")
        await pilot.press("t", "c")  # nothing to export or copy: no crash
        await pilot.press("escape")
        assert isinstance(app.screen, LogsScreen)


async def test_leaving_while_the_analysis_runs_never_crashes(
    sim: SimulatorServer, client: BlahClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc while the findings are still being computed (a long call on a slow machine): the
    analysis finishes after the screen's widgets are gone, and the app carries on."""
    import threading

    from tui.screens.inspector import screen as inspector_module

    real_analyse = inspector_module.analyse
    started, leaving = threading.Event(), threading.Event()
    panel: list[Widget] = []

    def slow_analyse(*args: object, **kwargs: object) -> object:
        started.set()
        leaving.wait(20)
        deadline = time.monotonic() + 20
        while panel[0].is_attached and time.monotonic() < deadline:
            time.sleep(0.0005)  # back the moment the findings panel has left the DOM
        return real_analyse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(inspector_module, "analyse", slow_analyse)
    entry = (await _newest(client, sim, limit=5))[0]
    app = _app(sim, client, None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="the Logs screen")
        app.push_screen(InspectorScreen(entry.id))
        screen = await _inspector(pilot, app, entry.id)
        await wait_for(pilot, started.is_set, what="the analysis to start")
        panel.append(screen.query_one("#insp-findings"))
        leaving.set()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not panel[0].is_attached, what="the findings panel to be removed")
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen), what="the Logs screen again")
        await pilot.pause(0.3)
        assert app.is_running and app._exception is None
        await pilot.press("down")  # the Logs screen still answers keys
        assert isinstance(app.screen, LogsScreen)


async def test_esc_after_n_n_p_returns_to_the_call_last_viewed(sim: SimulatorServer, client: BlahClient) -> None:
    app = _app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LogsScreen) and app.screen.log_list.row_count > 10,
            what="the first rows",
        )
        logs = app.screen
        assert isinstance(logs, LogsScreen)
        log_list = logs.log_list
        await pilot.press("k", "k", "k", "k", "k")  # five up from the newest: the list now holds still
        first_opened = log_list.cursor_index
        ids = [log_list.row_at(i).id for i in range(first_opened - 1, first_opened + 3)]
        await pilot.press("enter")
        await _inspector(pilot, app, ids[1])
        await pilot.press("n")
        await _inspector(pilot, app, ids[2])
        await pilot.press("n")
        await _inspector(pilot, app, ids[3])
        await pilot.press("p")
        await _inspector(pilot, app, ids[2])
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is logs, what="back on the list")
        assert log_list.current_entry_id == ids[2]
        assert log_list.cursor_index == first_opened + 1
        assert not log_list.following
