"""Typed settings (issue 16): one validated model for the person's settings and the app's
tunables. A misspelt setting fails where it is written; a wrong value in the config file is
named at start-up (key, value, what was expected, file) and the rest of the file is still
used, never rewritten; docs/configuration.md documents exactly the settings the file accepts."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from textual.pilot import Pilot

from application.session.context import AppContext
from application.session.paths import config_file
from application.session.settings.config import RESERVED_KEYS, Config, load_config
from application.session.settings.typed import TUNABLE_NAMES, Settings
from cli.app.launch import apply_config
from cli.main import main
from simulator.server import SimulatorServer
from tests.support.launch import launch_headless
from tests.support.notify_log import NotificationLog
from tests.support.palette import run_hit
from tests.support.settings import settings_with
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.runs.screen import RunsScreen

CONFIG_DOC = Path(__file__).resolve().parents[4] / "docs" / "configuration.md"


def write_config(text: str) -> Path:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- a misspelt name


def test_a_misspelt_setting_fails_where_it_is_written() -> None:
    with pytest.raises(ValidationError, match="pol_interval"):
        Settings(pol_interval=1.0)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="pol_interval"):
        AppContext(model_id="m", settings={"pol_interval": 1.0})  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="pol_interval"):
        settings_with(Settings(timezone="UTC"), pol_interval=1.0)
    ctx = AppContext(model_id="m", settings=Settings(poll_interval=3.0))
    with pytest.raises(AttributeError, match="pol_interval"):
        ctx.settings.pol_interval  # type: ignore[attr-defined]  # noqa: B018 - the read is the test
    with pytest.raises(ValueError, match="pol_interval"):
        ctx.settings.pol_interval = 1.0  # type: ignore[attr-defined]
    assert ctx.settings.poll_interval == 3.0


def test_a_wrong_type_or_range_is_refused_when_assigned_too() -> None:
    settings = Settings()
    with pytest.raises(ValidationError, match="poll_interval"):
        settings.poll_interval = "fast"  # type: ignore[assignment]
    with pytest.raises(ValidationError, match="poll_interval"):
        settings.poll_interval = 0.001  # the file's bounds hold in the session as well
    with pytest.raises(ValidationError, match="timezone"):
        Settings(timezone="Mars/Olympus")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="logs_interval"):
        Settings(logs_interval=0)
    assert settings.poll_interval == 2.0


def test_settings_with_gives_each_app_its_own_copy() -> None:
    preset = {"logs_interval": 0.1, "logs_plot": False}
    first, second = settings_with(preset, logs_plot=True), settings_with(preset)
    first.theme = "blah-light"
    assert (first.logs_interval, first.logs_plot, second.logs_plot, second.theme) == (0.1, True, False, "blah-dark")


def test_the_config_file_fills_the_persons_settings_and_keeps_the_tunables() -> None:
    write_config('theme = "blah-light"\npoll_interval = 4\n[templates]\n"m" = "chatml"\n')
    ctx = apply_config(AppContext(model_id="m", settings=Settings(timezone="UTC", logs_interval=0.1)), load_config())
    assert (ctx.settings.theme, ctx.settings.poll_interval, ctx.settings.templates) == (
        "blah-light",
        4.0,
        {"m": "chatml"},
    )
    assert (ctx.settings.timezone, ctx.settings.logs_interval, ctx.trained_template) == ("UTC", 0.1, "chatml")
    assert ctx.config_problem is None


# --------------------------------------------------------------------------- the config file


BROKEN = (
    'theme = "blah-light"\n'
    'poll_interval = "fast"\n'
    "bel_on_run_end = false\n"
    "[keymap]\n"
    '"mode.runs" = "f3"\n'
    '"mode.chatroom" = 5\n'
    "[profiles.work]\n"
    'base_url = "https://evals.blah.dev"\n'
)


def test_a_wrong_value_is_named_with_its_key_value_expectation_and_file_and_the_rest_is_used() -> None:
    path = write_config(BROKEN)
    loaded = load_config()
    assert loaded.problem is not None
    lines = loaded.problem.splitlines()
    assert len(lines) == 3, lines
    assert f'{path}: poll_interval = "fast": should be a valid number' in loaded.problem
    assert "using the default (2.0)" in loaded.problem
    assert f"{path}: unknown setting 'bel_on_run_end', ignored (did you mean 'bell_on_run_end'?)" in loaded.problem
    assert f'{path}: keymap."mode.chatroom" = 5: should be a valid string; leaving it out' in loaded.problem
    assert "profiles" not in loaded.problem  # another part of the app reads [profiles.NAME]
    config = loaded.config
    assert (config.theme, config.poll_interval, config.keymap) == ("blah-light", 2.0, {"mode.runs": "f3"})
    assert path.read_text(encoding="utf-8") == BROKEN  # read only


def test_a_bad_environment_variable_is_named_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config('theme = "blah-light"\n')
    monkeypatch.setenv("BLAH_POLL_INTERVAL", "soon")
    loaded = load_config()
    assert loaded.problem is not None and loaded.problem.startswith('$BLAH_POLL_INTERVAL: poll_interval = "soon"')
    assert (loaded.config.theme, loaded.config.poll_interval) == ("blah-light", 2.0)


def test_tunables_are_not_read_from_the_file() -> None:
    write_config('timezone = "UTC"\nlogs_interval = 0.1\n')
    loaded = load_config()
    assert loaded.problem is not None and "unknown setting 'timezone'" in loaded.problem
    assert "unknown setting 'logs_interval'" in loaded.problem


def test_config_show_prints_every_problem_and_the_settings_used(capsys: pytest.CaptureFixture[str]) -> None:
    path = write_config(BROKEN)
    assert main(["config", "show"]) == 0
    out, err = capsys.readouterr()
    assert [line[:2] for line in err.splitlines()] == ["# "] * 3 and str(path) in err and "poll_interval" in err
    assert tomllib.loads(out)["theme"] == "blah-light"


def test_at_start_up_the_person_is_told_which_setting_is_wrong_and_the_rest_of_the_file_holds(
    monkeypatch: pytest.MonkeyPatch, sim: SimulatorServer, notifications: NotificationLog
) -> None:
    path = write_config(BROKEN)
    monkeypatch.setenv("EVALS_BLAH_API_KEY", sim.council_key)
    seen: dict[str, Any] = {}

    async def inspect(app: BlahApp, pilot: Pilot[Any]) -> None:
        seen["messages"] = notifications.titled(app)
        seen["theme"] = app.theme
        seen["poll"] = app.ctx.settings.poll_interval
        await pilot.press("f3")  # the keymap's good entry is used
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs via f3")
        # choosing a theme cannot save while the file has a wrong value: the file is not rewritten
        await run_hit(pilot, "theme", lambda text: text == "Theme")
        await run_hit(pilot, "blah-high-contrast", lambda text: text == "blah-high-contrast")
        await wait_for(pilot, lambda: app.theme == "blah-high-contrast", what="the theme")
        await run_hit(pilot, "toggle bell", lambda text: text == "Toggle bell on run end")
        await wait_for(
            pilot,
            lambda: any(m.startswith("not saved") for m in notifications.messages(app)),
            what="the bell not saved",
        )
        seen["bell"] = app.ctx.settings.bell_on_run_end
        seen["messages"] = notifications.titled(app)

    argv = ["--base-url", sim.base_url, "--model", sim.person_model_id]
    assert launch_headless(monkeypatch, argv, inspect) == 0
    message = next(text for title, text in seen["messages"] if title == "Config file problem")
    assert f'{path}: poll_interval = "fast": should be a valid number' in message
    assert "'bel_on_run_end'" in message and "did you mean 'bell_on_run_end'?" in message
    assert 'keymap."mode.chatroom" = 5' in message
    assert (seen["theme"], seen["poll"], seen["bell"]) == ("blah-light", 2.0, False)  # the bell: this session only
    not_saved = next(text for _title, text in seen["messages"] if text.startswith("not saved"))
    assert f"{path} has a wrong value for poll_interval" in not_saved and "fix it first" in not_saved
    assert path.read_text(encoding="utf-8") == BROKEN


# --------------------------------------------------------------------------- README


def documented_settings() -> tuple[set[str], set[str]]:
    """The settings docs/configuration.md "Configuration" names: in its TOML example, and in its table."""
    section = CONFIG_DOC.read_text(encoding="utf-8").split("## Configuration", 1)[1].split("\n## ", 1)[0]
    example = section.split("```toml", 1)[1].split("```", 1)[0]
    in_example: set[str] = set()
    in_table_header = False
    for line in example.splitlines():
        if header := re.match(r"\[([A-Za-z_]+)", line):
            in_example.add(header.group(1))
            in_table_header = True
        elif (key := re.match(r"([A-Za-z_]+)\s*=", line)) and not in_table_header:
            in_example.add(key.group(1))
    in_table = set(re.findall(r"^\| `([A-Za-z_]+)` \|", section, flags=re.MULTILINE))
    return in_example, in_table


def test_every_documented_setting_is_in_the_model_and_every_setting_is_documented() -> None:
    in_example, in_table = documented_settings()
    fields = set(Config.model_fields)
    assert in_table == fields, f"docs table vs Config: {in_table ^ fields}"
    assert in_example == fields, f"docs example vs Config: {in_example ^ fields}"
    assert set(Settings.model_fields) == fields | TUNABLE_NAMES and not (fields & TUNABLE_NAMES)
    assert not RESERVED_KEYS & TUNABLE_NAMES
