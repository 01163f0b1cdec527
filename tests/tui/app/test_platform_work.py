"""``@platform_work`` and ``open_list`` (tui/platform_work.py): a screen's loader gets the
session's client, and with none the screen says why instead of loading: the same on every
screen that uses them, as a person sees it."""

from __future__ import annotations

import pytest

from application.session.context import AppContext
from application.session.settings.typed import Settings
from simulator.server import SimulatorServer
from tests.support.logs_world import label_of, wait_for
from tui.app import BlahApp, create_app

#: The areas whose first load is ``@platform_work(offline=...)`` or ``open_list``: where the
#: sentence stands, and what it says with no platform.
OFFLINE_SENTENCES = [
    ("runs", "#runs-summary", "offline: runs need the platform"),
    ("health", "#health-summary", "offline: health checks need the platform"),
    ("leaderboard", "#lb-caption", "offline: the leaderboard needs the platform"),
    ("games", "#games-status", "offline: games need the platform"),
    ("models", "#models-status", "offline: models and evals need the platform"),
    ("training", "#ts-status", "offline: training sets are on the platform"),
    ("webhooks", "#wh-status", "offline: webhooks need the platform"),
]


def _offline_app() -> BlahApp:
    return create_app(
        AppContext(
            model_id="m", client=None, base_url="http://127.0.0.1:9", settings=Settings(timezone="UTC", archive=False)
        )
    )


@pytest.mark.parametrize(("mode", "selector", "sentence"), OFFLINE_SENTENCES)
async def test_with_no_platform_the_area_says_so_and_nothing_fails(mode: str, selector: str, sentence: str) -> None:
    app = _offline_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.switch_mode(mode)
        await wait_for(pilot, lambda: sentence in label_of(app, selector), what=sentence)
        await pilot.pause()
        assert not [n for n in app._notifications if n.severity == "error"]  # offline is said, not failed
    assert app._exception is None


async def test_online_the_loader_gets_the_client_and_fills_the_area(sim: SimulatorServer) -> None:
    from api_client.blahdev.client import BlahClient

    async with BlahClient(sim.base_url, api_key=sim.member_key) as client:
        app = create_app(
            AppContext(
                model_id=sim.person_model_id,
                client=client,
                base_url=sim.base_url,
                settings=Settings(timezone="UTC", archive=False),
            )
        )
        async with app.run_test(size=(120, 40)) as pilot:
            await app.switch_mode("games")
            await wait_for(
                pilot,
                lambda: (
                    "games, newest first" in label_of(app, "#games-status")
                    or "returned no games" in label_of(app, "#games-status")
                ),
                what="the games loaded",
            )
            assert "offline" not in label_of(app, "#games-status")


@pytest.mark.parametrize("mode", ["games", "models", "training", "webhooks"])
async def test_a_list_closed_while_it_opened_does_not_fail(mode: str) -> None:
    """An area key pressed and the app left at once: the list screen's mount can run after its
    widgets are gone (seen on a fresh clone as NoMatches '#models-table'). It does nothing."""
    from textual.screen import Screen

    from tui.platform_work import open_list

    app = _offline_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.switch_mode(mode)
        await pilot.pause()
        screen: Screen = app.screen
        said: list[str] = []
        await screen.query("*").remove()  # what shutting down does before a late mount runs
        open_list(screen, "#no-such-table", lambda: said.append("load"), lambda: said.append("offline"))  # type: ignore[arg-type]
        screen.on_mount()  # type: ignore[attr-defined]
        assert said == []
    assert app._exception is None
