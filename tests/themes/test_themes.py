"""Themes: Textual's built-ins plus blah-dark / blah-light / blah-high-contrast, the person's
own theme files (validated; a broken one is named and skipped), an unknown configured theme
falls back with a message, and what is drawn (badges, plots) follows the theme."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color as RichColor
from textual.color import Color

from application.session.context import AppContext
from application.session.paths import config_file, data_dir
from cli.app.open_file import load_dump
from tests.support.chatroom import frame_segments
from tests.support.logs_world import fixed_world_dump, wait_for
from tests.support.notify_log import NotificationLog
from tests.support.settings import Settings, settings_with
from themes.builtin import load_user_theme
from tui.app import BlahApp, create_app
from tui.screens.logs.screen import LogsScreen
from widgets.plots import TimeSeriesPlot

SIZE = (140, 45)
GOOD_THEME = 'name = "solar"\nprimary = "#268bd2"\nerror = "#dc322f"\nbackground = "#002b36"\ndark = true\n'


def theme_file(name: str, text: str) -> Path:
    folder = data_dir() / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def dump(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    yield fixed_world_dump(tmp_path)


def offline_app(dump: tuple[Path, str], **settings: Any) -> BlahApp:
    path, model_id = dump
    archive = load_dump(path, report=io.StringIO())
    ctx = AppContext(
        model_id=model_id,
        archive=archive,
        offline_source=path,
        platform="offline",
        settings=settings_with(Settings(timezone="UTC", persist_theme=False), **settings),
    )
    return create_app(ctx)


async def test_builtin_and_own_themes_are_available(dump: tuple[Path, str]) -> None:
    app = offline_app(dump)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "blah-dark"
        themes = set(app.available_themes)
        assert {"blah-dark", "blah-light", "blah-high-contrast", "textual-dark", "textual-light", "nord"} <= themes
        for name in ("blah-light", "blah-high-contrast", "nord"):
            app.theme = name
            await pilot.pause()
            assert app.current_theme.name == name


async def test_a_user_theme_file_is_loaded_and_can_be_configured(
    dump: tuple[Path, str], notifications: NotificationLog
) -> None:
    theme_file("solar.toml", GOOD_THEME)
    app = offline_app(dump, theme="solar")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "solar"
        assert Color.parse(app.get_css_variables()["primary"]) == Color.parse("#268bd2")
        assert not notifications.messages(app)


async def test_a_broken_theme_file_is_named_and_the_app_falls_back(
    dump: tuple[Path, str], notifications: NotificationLog
) -> None:
    theme_file("broken.toml", 'name = "broken"\nprimary = "not-a-colour"\n')
    theme_file("syntax.toml", "name = \n")
    theme_file("solar.toml", GOOD_THEME)
    app = offline_app(dump, theme="broken")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        said = notifications.messages(app)
        assert any("broken.toml" in m and "primary" in m and "not a colour" in m for m in said)
        assert any("syntax.toml" in m for m in said)
        assert any("Unknown theme 'broken'; using blah-dark" in m for m in said)
        assert app.theme == "blah-dark"
        assert "solar" in app.available_themes  # a good file beside broken ones still loads


async def test_a_fallback_at_start_up_keeps_the_configured_theme_in_the_config_file(
    dump: tuple[Path, str], notifications: NotificationLog
) -> None:
    """The fallback is for this run only: the person's choice stays written, for when the file
    is fixed. A theme chosen after the start is saved."""
    theme_file("broken.toml", 'name = "broken"\nprimary = "not-a-colour"\n')
    config_file().parent.mkdir(parents=True, exist_ok=True)
    config_file().write_text('theme = "broken"\n', encoding="utf-8")
    app = offline_app(dump, theme="broken", persist_theme=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "blah-dark"
        assert 'theme = "broken"' in config_file().read_text(encoding="utf-8")
        app.theme = "nord"
        await pilot.pause()
    assert 'theme = "nord"' in config_file().read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('primary = "#fff"\n', "'name' is missing"),
        ('name = "x"\n', "'primary' is missing"),
        ('name = "x"\nprimary = "#fff"\nsurface = "blurple"\n', "surface = 'blurple' is not a colour"),
        ('name = "x"\nprimary = "#fff"\ndark = "yes"\n', "'dark' must be true or false"),
        ('name = "x"\nprimary = \n', "t.toml:"),
    ],
)
def test_theme_file_problems_are_explained(text: str, problem: str) -> None:
    loaded = load_user_theme(theme_file("t.toml", text))
    assert loaded.theme is None and loaded.problem is not None and problem in loaded.problem


def _bgcolours_of(app: BlahApp, label: str) -> set[tuple[int, int, int]]:
    found = set()
    for segment in frame_segments(app):
        if segment.text.strip() == label and segment.style is not None and segment.style.bgcolor is not None:
            triplet = segment.style.bgcolor.get_truecolor()
            found.add((triplet.red, triplet.green, triplet.blue))
    return found


def _fgcolours(app: BlahApp) -> set[tuple[int, int, int]]:
    found = set()
    for segment in frame_segments(app):
        colour: RichColor | None = segment.style.color if segment.style is not None else None
        if colour is not None and segment.text.strip():
            triplet = colour.get_truecolor()
            found.add((triplet.red, triplet.green, triplet.blue))
    return found


async def _loaded_logs(app: BlahApp, pilot: Any) -> LogsScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, LogsScreen) and app.screen.log_list.row_count > 0, what="rows")
    screen = app.screen
    assert isinstance(screen, LogsScreen)
    await wait_for(pilot, lambda: bool(_bgcolours_of(app, "LOOP")), what="a LOOP badge on screen")
    return screen


async def test_badges_follow_the_theme(dump: tuple[Path, str]) -> None:
    app = offline_app(dump)
    async with app.run_test(size=SIZE) as pilot:
        await _loaded_logs(app, pilot)
        dark = Color.parse(app.get_css_variables()["error"]).rgb
        assert _bgcolours_of(app, "LOOP") == {dark}
        app.theme = "blah-light"
        light = Color.parse(app.get_css_variables()["error"]).rgb
        assert light != dark
        await wait_for(pilot, lambda: _bgcolours_of(app, "LOOP") == {light}, what="badges in the light theme")


async def test_plots_follow_the_theme(dump: tuple[Path, str]) -> None:
    app = offline_app(dump)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _loaded_logs(app, pilot)
        plot = screen.query_one("#plot-latency", TimeSeriesPlot)
        await wait_for(pilot, lambda: plot.has_data, what="the latency plot")
        await pilot.pause(0.2)
        dark = Color.parse(app.get_css_variables()["primary"]).rgb
        assert dark in _fgcolours(app)
        app.theme = "blah-light"
        light = Color.parse(app.get_css_variables()["primary"]).rgb
        await pilot.pause(0.5)
        assert light in _fgcolours(app)
