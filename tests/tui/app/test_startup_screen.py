"""The app's first screen is its start area's, built once, after the person's theme is in place.

Textual starts an app on a blank default screen; switching from it to the start area built that
screen too and held the first frames back for 50 ms (``App.delay_update``) to hide a switch from
a screen nobody saw. A theme set once the area's screen was built restyled every widget on it
(218 styles applied before the first rows instead of 127). The start-up benchmark measures the
time; this test keeps the causes away without timing anything.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen

from application.session.context import AppContext
from tests.support.settings import Settings
from tui.app import create_app


@pytest.mark.parametrize(("start_mode", "first_screen"), [(None, "LogsScreen"), ("chatroom", "ChatroomScreen")])
async def test_the_app_opens_on_its_start_area_built_once_in_the_persons_theme(
    monkeypatch: pytest.MonkeyPatch, start_mode: str | None, first_screen: str
) -> None:
    built: list[tuple[str, str]] = []  # (screen, the app's theme when it was built)
    original = Screen.__init__

    def init(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        built.append((type(self).__name__, app.theme))
        original(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "__init__", init)
    settings = Settings(timezone="UTC", start_mode=start_mode, theme="blah-light")
    app = create_app(AppContext(model_id="m1", client=None, settings=settings))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == first_screen
        assert built == [(first_screen, "blah-light")]
