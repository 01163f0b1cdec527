"""Archives do not pile up: the app makes one only for a model the platform knows, and
`blah-tui archives` lists them (platform, model, calls, size, last used) and prunes the ones a
person names or those unused for N days, saying what first and asking (or --yes).

The app is driven as a person starts it (`--model`, a mistyped one, an unreachable host);
the command is run as typed (`cli.main.main([...])`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from api_client.archives.files import list_archives
from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.paths import data_dir
from cli.exit_codes import ExitCode
from cli.main import main
from simulator.server import SimulatorServer
from tests.support.logs_world import FAST_TAIL, logs_screen, wait_for
from tests.support.notify_log import NotificationLog
from tests.support.settings import settings_with
from tui.app import create_app
from widgets.status_header import StatusHeader

SIZE = (120, 36)
DAY = 86_400


def archive_files() -> list[Path]:
    folder = data_dir() / "archives"
    return sorted(folder.iterdir()) if folder.is_dir() else []


async def start_app(base_url: str, model_id: str, *, settled: str) -> tuple[list[str], str]:
    """Open the app on ``model_id`` until the Logs screen has chosen where to keep the calls
    and ``settled`` holds ("unknown": the app said the model is unknown; "archived": the
    archive is open; "unreachable": the tail is retrying). Returns (the archive files then on
    disk, the header's connection state)."""
    async with BlahClient(base_url, deadline=2.0) as client:
        ctx = AppContext(model_id=model_id, client=client, base_url=base_url, settings=settings_with(FAST_TAIL))
        app = create_app(ctx)
        async with app.run_test(size=SIZE) as pilot:

            def feed_open() -> bool:
                screen = app.screen
                return (
                    getattr(screen, "feed", None) is not None
                    and screen.feed.rows is not None
                    and logs_screen(app).loader.tail_state is not None
                )

            checks = {
                "unknown": lambda: any(title == "Unknown model" for title, _ in NotificationLog.current.titled(app)),
                "archived": lambda: (
                    logs_screen(app).feed.archive is not None
                    and app.screen.query_one(StatusHeader).connection == "connected"
                ),
                "unreachable": lambda: logs_screen(app).loader.tail_state.phase == "retrying",
            }
            await wait_for(pilot, feed_open, what="the Logs screen to open its feed")
            await wait_for(pilot, checks[settled], what=settled)
            await pilot.pause()
            header = app.screen.query_one(StatusHeader).connection
            await pilot.press("q")
    return [p.name for p in archive_files()], header


async def test_an_unknown_model_leaves_no_archive_and_the_header_says_so(sim: SimulatorServer) -> None:
    files, header = await start_app(sim.base_url, "no-such-model", settled="unknown")
    assert header == "no such model"  # not "connected" beside the Logs screen's "stopped"
    assert files == []


async def test_an_unreachable_host_leaves_no_archive(sim: SimulatorServer) -> None:
    files, _ = await start_app("http://127.0.0.1:9", sim.person_model_id, settled="unreachable")
    assert files == []


async def test_a_known_model_gets_its_archive_and_the_list_shows_it(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    files, header = await start_app(sim.base_url, sim.person_model_id, settled="archived")
    assert any(name.endswith(".sqlite3") and sim.person_model_id in name for name in files)
    assert header == "connected"
    capsys.readouterr()
    assert main(["archives"]) == 0
    out = capsys.readouterr().out
    head, row = out.splitlines()[:2]
    assert head.split() == ["PROFILE", "PLATFORM", "MODEL", "CALLS", "SIZE", "OF", "JSON", "LAST", "USED"]
    assert row.split()[:3] == ["default", sim.base_url, sim.person_model_id]
    assert "(just now)" in row
    assert "1 archive, " in out


# --------------------------------------------------------------------------- the command


def make_archive(
    model_id: str, *, base_url: str = "http://127.0.0.1:8000", days_unused: float = 0, calls: int = 3
) -> Path:
    """An archive as the app leaves one (Archive.for_model + some calls), last used days ago."""
    from api_client.archives.archive import Archive
    from api_client.blahdev.shapes import LogEntry

    with Archive.for_model(data_dir(), "blah.dev", base_url, model_id) as archive:
        archive.add(
            [
                LogEntry.model_validate(
                    {"id": f"{model_id}-{n}", "created_at": 1_750_000_000_000 + n, "model_id": model_id}
                )
                for n in range(calls)
            ]
        )
        path = archive.path
    when = time.time() - days_unused * DAY
    os.utime(path, (when, when))
    return path


def test_list_names_platform_model_calls_size_and_last_used(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["archives"]) == 0
    assert "No archives in " in capsys.readouterr().out
    make_archive("tiny-a", calls=5, days_unused=3)
    make_archive("tiny-b", base_url="https://evals.blah.dev", calls=2)
    assert main(["archives", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["default", "https://evals.blah.dev", "tiny-b", "2"]  # most recently used first
    assert lines[2].split()[:4] == ["default", "http://127.0.0.1:8000", "tiny-a", "5"]
    assert lines[2].endswith("(3 days ago)") and "KiB" in lines[2]  # binary units, as on the Training sets screen
    info = next(i for i in list_archives(data_dir()) if i.model_id == "tiny-a")
    assert info.json_bytes is not None
    assert f" {info.size / info.json_bytes:.2f}x " in lines[2]  # its size over its calls' JSON


def test_prune_by_model_says_what_then_asks_and_deletes_on_yes(capsys: pytest.CaptureFixture[str]) -> None:
    doomed = make_archive("tiny-a")
    kept = make_archive("tiny-b")
    assert main(["archives", "prune", "tiny-a"]) == ExitCode.USAGE  # no terminal to ask on, no --yes
    out, err = capsys.readouterr()
    assert "To delete (1 archive, " in out and "tiny-a" in out and "tiny-b" not in out
    assert "nothing deleted" in err and "--yes" in err
    assert doomed.exists()
    assert main(["archives", "prune", "tiny-a", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "Deleted 1 archive" in out
    assert not doomed.exists() and not list(doomed.parent.glob(doomed.name + "*"))  # with its -wal/-shm
    assert kept.exists()


def test_prune_asks_on_a_terminal_and_no_keeps_everything(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from cli.local.archives import archives_main

    doomed = make_archive("tiny-a")
    asked: list[str] = []

    def answer(text: str) -> str:
        asked.append(text)
        return "n"

    args = argparse.Namespace(archives_command="prune", models=["tiny-a"], older_than=None, yes=False)
    assert archives_main(args, ask=answer) == ExitCode.USAGE
    assert asked == ["Delete this archive? [y/N] "] and doomed.exists()
    assert "Nothing deleted." in capsys.readouterr().out
    assert archives_main(args, ask=lambda _: "y") == 0
    assert not doomed.exists()


def test_prune_older_than_days_keeps_the_recent_ones(capsys: pytest.CaptureFixture[str]) -> None:
    old = make_archive("old-model", days_unused=40)
    recent = make_archive("recent-model", days_unused=2)
    assert main(["archives", "prune", "--older-than", "30", "-y"]) == 0
    out = capsys.readouterr().out
    assert "old-model" in out and "recent-model" not in out
    assert not old.exists() and recent.exists()


def test_prune_without_a_choice_or_with_an_unknown_name_deletes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    kept = make_archive("tiny-a")
    assert main(["archives", "prune", "--yes"]) == 2
    assert "name the models" in capsys.readouterr().err
    assert main(["archives", "prune", "nosuch", "--yes"]) == ExitCode.NOT_FOUND
    assert "no archive of 'nosuch'" in capsys.readouterr().err
    assert kept.exists()
