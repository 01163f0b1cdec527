"""`?` in the app (the keys of the current screen with their ids, the badge legend in the
theme's colours) and `blah-tui --help` / each subcommand's help / `--version`."""

from __future__ import annotations

import argparse

import pytest
from textual.widgets import DataTable

from api_client.blahdev.client import BlahClient
from cli.main import _version, build_parser, main
from simulator.server import SimulatorServer
from tests.support.runs import make_app, wait_for
from tui.screens.help.screen import HelpScreen
from tui.screens.runs.screen import RunsScreen
from widgets.badges import BADGE_LABELS

SIZE = (140, 45)


async def test_help_lists_the_screens_keys_with_ids_and_the_badges(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="runs", persist_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), what="runs")
        await pilot.press("question_mark")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, HelpScreen) and bool(app.screen.query("#help-keys")),
            what="help, built",
        )  # pushed is not yet composed on a busy machine
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        ids = [row.binding_id for row in help_screen.rows]
        assert {"runs.start", "runs.cancel", "runs.refresh", "app.help", "mode.logs", "app.quit"} <= set(ids)
        assert ids.index("runs.start") < ids.index("mode.logs")  # the screen's own keys first
        table = help_screen.query_one("#help-keys", DataTable)
        cells = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert "runs.start" in cells
        start = next(r for r in help_screen.rows if r.binding_id == "runs.start")
        assert (start.key, start.description, start.where) == ("s", "Start run", "screen")

        legend = help_screen.legend
        for label in BADGE_LABELS.values():
            assert label in legend.plain
        loop = next(span for span in legend.spans if legend.plain[span.start : span.end].strip() == "LOOP")
        dark_error = app.get_css_variables()["error"].lower()
        assert str(loop.style).endswith(f"on {dark_error}")

        app.theme = "blah-light"  # the legend follows the theme, like the badges in the lists
        await pilot.pause()
        legend = help_screen.legend
        loop = next(span for span in legend.spans if legend.plain[span.start : span.end].strip() == "LOOP")
        light_error = app.get_css_variables()["error"].lower()
        assert light_error != dark_error and str(loop.style).endswith(f"on {light_error}")

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_top_level_help_lists_every_command_and_the_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name in ("sim", "export", "open", "report", "login", "logout", "status", "config", "serve"):
        assert f"    {name} " in out
    for word in ("--demo", "--model", "--base-url", "--api-key", "--log", "BLAH_", "$EVALS_BLAH_API_KEY", "ctrl+p"):
        assert word in out


@pytest.mark.parametrize("command", ["export", "open", "report", "login", "logout", "status", "config", "serve"])
def test_each_subcommand_explains_itself(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: blah-tui {command}")
    sub = _subparsers(build_parser())[command]
    assert sub.description and sub.description.split()[0] in out
    for action in sub._actions:  # every argument says what it is for
        if not isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
            assert action.help, f"{command} {action.dest} has no help"


def test_config_actions_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    config = _subparsers(build_parser())["config"]
    for name, sub in _subparsers(config).items():
        assert sub.description, name
    with pytest.raises(SystemExit):
        main(["config", "set", "--help"])
    assert "templates.MODEL" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    from diagnosis.compiled import describe_scan_path

    assert capsys.readouterr().out.strip() == f"blah-tui {_version()}\n{describe_scan_path()}"
