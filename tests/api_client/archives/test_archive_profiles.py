"""One archive per profile: the app and `blah-tui export` keep a named profile's calls in
``<data>/archives/profiles/<NAME>/``, today's implicit profile keeps the path it always had
(archives made before profiles keep working), and `blah-tui archives` lists them by profile.

The app is opened as `blah-tui --profile NAME` builds its session (``AppContext.profile``);
the commands are run as typed (``cli.main.main``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api_client.archives.archive import Archive
from api_client.blahdev.client import BlahClient
from application.session.context import AppContext
from application.session.paths import data_dir
from cli.main import main
from simulator.server import SimulatorServer
from tests.support.config_files import write_config_text
from tests.support.settings import settings_with
from tests.support.waiting import wait_for
from tui.app import create_app
from tui.screens.logs.screen import LogsScreen

SIZE = (120, 36)
QUICK_TAIL = {"logs_interval": 0.1, "logs_max_interval": 0.3, "logs_plot": False}


def archive_files() -> list[Path]:
    folder = data_dir() / "archives"
    return sorted(p.relative_to(folder) for p in folder.rglob("*.sqlite3")) if folder.is_dir() else []


async def open_logs_until_archived(sim: SimulatorServer, profile: str) -> Path:
    """Start the app on the simulator's model as ``--profile`` ``profile`` would ("" for no
    profile), wait until the Logs screen has its archive open; return the archive's path."""
    async with BlahClient(sim.base_url, deadline=2.0) as client:
        ctx = AppContext(
            model_id=sim.person_model_id,
            client=client,
            base_url=sim.base_url,
            settings=settings_with(QUICK_TAIL),
            profile=profile,
        )
        app = create_app(ctx)
        async with app.run_test(size=SIZE) as pilot:

            def archived() -> bool:
                screen = app.screen
                return isinstance(screen, LogsScreen) and screen.feed is not None and screen.feed.archive is not None

            await wait_for(pilot, archived, what="the Logs screen to open its archive")
            screen = app.screen
            assert isinstance(screen, LogsScreen) and screen.feed is not None and screen.feed.archive is not None
            path = screen.feed.archive.path
            await pilot.press("q")
    return path


async def test_a_named_profile_archives_in_its_own_folder_and_no_profile_keeps_today_s_path(
    sim: SimulatorServer,
) -> None:
    today = Archive.path_for(data_dir(), sim.base_url, sim.person_model_id)  # as before profiles
    path = await open_logs_until_archived(sim, "local")
    assert path.parent == data_dir() / "archives" / "profiles" / "local"
    assert path.name == today.name and not today.exists()  # same model, same platform: still its own file
    path = await open_logs_until_archived(sim, "")
    assert path == today
    assert archive_files() == [Path(today.name), Path("profiles/local") / today.name]


async def test_an_archive_made_before_profiles_is_still_the_implicit_profile_s(sim: SimulatorServer) -> None:
    from api_client.blahdev.shapes import LogEntry

    before = data_dir() / "archives" / Archive.path_for(data_dir(), sim.base_url, sim.person_model_id).name
    with Archive.for_model(data_dir(), "blah.dev", sim.base_url, sim.person_model_id) as archive:
        archive.add(
            [
                LogEntry.model_validate(
                    {"id": "kept-from-before", "created_at": 1_750_000_000_000, "model_id": sim.person_model_id}
                )
            ]
        )
    assert before.exists()
    path = await open_logs_until_archived(sim, "")
    assert path == before
    with Archive(path) as archive:
        assert archive.find("kept-from-before") is not None


def test_export_fills_the_profile_s_archive_and_archives_lists_them_by_profile(
    sim: SimulatorServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config_text(
        f'[profiles.local]\nbase_url = "{sim.base_url}"\n\n[profiles.other]\nbase_url = "{sim.base_url}/api/v1"\n'
    )
    model = sim.person_model_id
    assert main(["export", model, "--profile", "other", "-o", str(tmp_path / "a.jsonl")]) == 0
    assert main(["export", model, "--profile", "local", "-o", str(tmp_path / "b.jsonl")]) == 0
    assert main(["export", model, "--base-url", sim.base_url, "-o", str(tmp_path / "c.jsonl")]) == 0
    name = Archive.path_for(data_dir(), sim.base_url, model).name
    assert archive_files() == [Path(name), Path("profiles/local") / name, Path("profiles/other") / name]
    capsys.readouterr()
    assert main(["archives"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["PROFILE", "PLATFORM", "MODEL"]
    assert [line.split()[:3] for line in lines[1:4]] == [
        ["default", sim.base_url, model],
        ["local", sim.base_url, model],
        ["other", sim.base_url, model],
    ]
    assert "3 archives" in lines[5]
