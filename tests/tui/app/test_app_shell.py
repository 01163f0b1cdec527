"""The app shell as a person meets it: `blah-tui --demo` opens on the demo model's latest
calls, the header follows the connection, and writes are confirmed exactly once."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from api_client.blahdev.client import BlahClient
from cli.main import main
from simulator.server import SimulatorServer
from tests.support.logs_world import SIZE, app_for, label_of, loaded, wait_for
from tui.app import BlahApp, ConnectionState
from tui.screens.logs.screen import LogsScreen
from widgets.confirm import ConfirmScreen
from widgets.status_header import StatusHeader


def test_demo_opens_on_the_demo_models_latest_calls(monkeypatch: Any) -> None:
    seen: dict[str, Any] = {}

    def drive_headless(self: BlahApp, *args: Any, **kwargs: Any) -> None:
        async def drive() -> None:
            async with self.run_test(size=SIZE) as pilot:
                await wait_for(
                    pilot,
                    lambda: isinstance(self.screen, LogsScreen) and self.screen.log_list.row_count > 0,
                    what="the demo's calls",
                )
                screen = self.screen
                assert isinstance(screen, LogsScreen)
                seen["model"] = self.ctx.model_id
                seen["demo"] = self.ctx.demo
                seen["rows"] = screen.log_list.row_count
                seen["header"] = screen.query_one(StatusHeader).model_id
                seen["title"] = screen.query_one(StatusHeader).screen_title

        asyncio.run(drive())

    monkeypatch.setattr(BlahApp, "run", drive_headless)
    assert main(["--demo"]) == 0
    assert seen["demo"] is True
    assert seen["model"] == seen["header"] == "tinystories-chat-1m"
    assert seen["rows"] > 0 and seen["title"] == "Logs"


async def test_header_names_the_model_and_follows_the_connection(sim: SimulatorServer, client: BlahClient) -> None:
    # a slow tail: its next successful poll would set the state back to connected mid-test
    app = app_for(sim, client, logs_interval=60.0, logs_max_interval=60.0)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot, app)
        header = app.screen.query_one(StatusHeader)
        assert header.model_id == sim.person_model_id and header.screen_title == "Logs"
        screen = app.screen
        await wait_for(
            pilot,
            lambda: (
                header.connection == "connected"
                and getattr(getattr(screen, "loader", None), "tail_state", None) is not None
            ),
            what="connected, the tail's first poll done",
        )
        app.connection = ConnectionState("error", "unreachable")
        await pilot.pause()
        assert header.connection == "error" and header.detail == "unreachable"
        assert "unreachable" in str(header.render())


class _ConfirmApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[bool | None] = []

    def compose(self) -> ComposeResult:
        yield Static("base")

    def ask(self) -> None:
        self.push_screen(ConfirmScreen("Cancel run r1?", "[@click=app.quit]evil[/] stays text"), self.answers.append)


async def test_confirm_answers_once_even_on_a_double_press() -> None:
    app = _ConfirmApp()
    async with app.run_test() as pilot:
        app.ask()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "[@click=app.quit]evil[/]" in label_of(app, "#confirm-body")  # shown literally
        await pilot.press("y", "y", "enter")
        await pilot.pause()
        assert app.answers == [True]
        assert not isinstance(app.screen, ConfirmScreen)

        app.ask()
        await pilot.pause()
        await pilot.press("n", "y")
        await pilot.pause()
        assert app.answers == [True, False]

        app.ask()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.answers == [True, False, False]

        # two presses queued before the first is handled (a fast double click): one answer
        app.ask()
        await pilot.pause()
        button = app.screen.query_one("#confirm-ok", Button)
        button.press()
        button.press()
        await pilot.pause()
        await pilot.pause()
        assert app.answers == [True, False, False, True]

        app.ask()
        await pilot.pause()
        await pilot.click("#confirm-cancel")
        await pilot.pause()
        assert app.answers == [True, False, False, True, False]


async def test_at_80_columns_the_header_keeps_the_screen_model_and_connection(
    sim: SimulatorServer, client: BlahClient
) -> None:
    """At 80 columns the full header (" blah-tui  Logs │ <platform> │ model <id> │ ● connected") is
    wider than the terminal: the least needed part (the platform) is what gets cut, not the state."""
    app = app_for(sim, client, logs_interval=60.0, logs_max_interval=60.0)
    app.ctx.platform = "blah.dev (demo simulator)"  # as `--demo` names it
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot, app)
        header = app.screen.query_one(StatusHeader)
        await wait_for(pilot, lambda: header.connection == "connected", what="connected")
        line = "".join(segment.text for segment in app.screen._compositor.render_strips()[0])
        assert f"model {sim.person_model_id}" in line and "● connected" in line, line
        assert line.lstrip().startswith("Logs"), line
    wide = app_for(sim, client, logs_interval=60.0)
    wide.ctx.platform = "blah.dev (demo simulator)"
    async with wide.run_test(size=(160, 24)) as pilot:
        await loaded(pilot, pilot.app)
        header = pilot.app.screen.query_one(StatusHeader)
        await wait_for(pilot, lambda: header.connection == "connected", what="connected")
        line = "".join(segment.text for segment in pilot.app.screen._compositor.render_strips()[0])
        assert line.startswith(" blah-tui ") and "● connected" in line, line  # room for all of it
