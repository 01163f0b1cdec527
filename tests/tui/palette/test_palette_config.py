"""Settings as the person meets them: the app reads the config file (command line > BLAH_
environment > file > defaults), starts on the defaults with a message naming the line when
the file is broken, and saves the theme chosen in the palette. (The other settings changed in
the app: tests/tui/palette/test_palette_settings.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.notify_log import NotificationLog
from tests.support.palette import run_hit
from tests.support.palette_config import SIZE, launch, saved, write_config
from tests.support.runs import make_app, wait_for
from tui.app import BlahApp
from tui.screens.runs.screen import RunsScreen


def test_command_line_then_environment_then_file(monkeypatch: pytest.MonkeyPatch, sim: SimulatorServer) -> None:
    write_config(
        'theme = "blah-light"\npoll_interval = 5\nbell_on_run_end = false\ndefault_model = "from-file"\n'
        'base_url = "http://127.0.0.1:9"\n[keymap]\n"mode.runs" = "f3"\n'
        f'[templates]\n"{sim.person_model_id}" = "chatml"\n'
    )
    monkeypatch.setenv("BLAH_THEME", "blah-high-contrast")  # the environment wins over the file
    monkeypatch.setenv("BLAH_DEFAULT_MODEL", sim.person_model_id)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", sim.council_key)
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Any) -> None:
        seen.update(
            theme=app.theme,
            poll=app.ctx.settings.poll_interval,
            bell=app.ctx.settings.bell_on_run_end,
            model=app.ctx.model_id,
            base_url=app.ctx.base_url,
            template=app.ctx.trained_template,
            problem=app.ctx.config_problem,
        )
        await pilot.press("f3")  # the file's keymap is applied
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs via f3")

    # the command line's --base-url wins over the file's unreachable one
    launch(monkeypatch, ["--base-url", sim.base_url], inspect)
    assert seen == {
        "theme": "blah-high-contrast",
        "poll": 5.0,
        "bell": False,
        "model": sim.person_model_id,
        "base_url": sim.base_url,
        "template": "chatml",
        "problem": None,
    }
    assert saved()["theme"] == "blah-light"  # applying the environment's theme is not a choice to save


def test_a_broken_file_names_the_line_and_the_app_starts_on_defaults(
    monkeypatch: pytest.MonkeyPatch, sim: SimulatorServer, notifications: NotificationLog
) -> None:
    path = write_config('theme = "blah-light"\npoll_interval = = 3\n')
    monkeypatch.setenv("EVALS_BLAH_API_KEY", sim.council_key)
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Any) -> None:
        seen["theme"] = app.theme
        seen["poll"] = app.ctx.settings.poll_interval
        seen["messages"] = notifications.titled(app)

    launch(monkeypatch, ["--base-url", sim.base_url, "--model", sim.person_model_id], inspect)
    assert seen["theme"] == "blah-dark" and seen["poll"] == 2.0
    message = next(text for title, text in seen["messages"] if title == "Config file problem")
    assert str(path) in message and "line 2" in message
    assert path.read_text(encoding="utf-8") == 'theme = "blah-light"\npoll_interval = = 3\n'  # untouched


async def test_theme_chosen_in_the_palette_is_saved(sim: SimulatorServer, client: BlahClient) -> None:
    write_config("poll_interval = 4\n")
    app = make_app(sim, client, start_mode="runs", theme="blah-dark")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        await run_hit(pilot, "theme", lambda text: text == "Theme")
        await run_hit(pilot, "blah-light", lambda text: text == "blah-light")
        await wait_for(pilot, lambda: app.theme == "blah-light", what="the theme")
        await pilot.pause()
    assert saved() == {"poll_interval": 4, "theme": "blah-light"}  # the rest of the file kept


def test_poll_interval_from_the_file_paces_the_tail_the_room_and_a_watched_run(
    monkeypatch: pytest.MonkeyPatch, sim: SimulatorServer
) -> None:
    from tui.screens.chatroom.screen import ChatroomScreen
    from tui.screens.logs.screen import LogsScreen
    from tui.screens.runs.watch import RunWatchScreen

    write_config("poll_interval = 7.5\n")
    monkeypatch.setenv("EVALS_BLAH_API_KEY", sim.council_key)
    seen: dict[str, float] = {}

    async def inspect(app: BlahApp, pilot: Any) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen) and app.screen.feed is not None, what="logs")
        logs = app.screen
        assert isinstance(logs, LogsScreen) and logs.feed is not None
        seen["logs tail"] = logs.feed.settings.interval
        await pilot.press("5")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChatroomScreen) and app.screen.poller is not None,
            what="chatroom polling",
        )
        room = app.screen
        assert isinstance(room, ChatroomScreen) and room.poller is not None
        seen["chatroom"] = room.poller.interval
        run_id = next(iter(sim.world.runs))
        await app.push_screen(RunWatchScreen(run_id))
        await pilot.pause()
        watch = app.screen
        assert isinstance(watch, RunWatchScreen)
        seen["run watch"] = watch.poll_interval

    launch(monkeypatch, ["--base-url", sim.base_url, "--model", sim.person_model_id], inspect)
    assert seen == {"logs tail": 7.5, "chatroom": 7.5, "run watch": 7.5}
