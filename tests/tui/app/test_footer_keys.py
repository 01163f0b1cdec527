"""On a small terminal the footer still shows how to get help and the palette.

Textual's footer cuts the keys that do not fit; on an 80-column terminal the help key fell
off the right edge on every busy screen. KeyFooter pins "? Help" and ": Palette" right.
"""

from __future__ import annotations

import pytest

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.runs import make_app, wait_for
from widgets.footer import KeyFooter


def _visible_keys(footer: KeyFooter, width: int) -> dict[str, tuple[int, int]]:
    """Key label -> (x, right edge) of each footer key drawn fully inside the terminal."""
    shown: dict[str, tuple[int, int]] = {}
    for key in footer.keys:
        if key.right > key.x and key.x >= 0 and key.right <= width:
            shown[f"{key.key_display} {key.description}"] = (key.x, key.right)
    return shown


@pytest.mark.parametrize("mode", ["logs", "runs", "chatroom", "diagnosis"])
async def test_help_and_palette_keys_stay_visible_at_80_columns(
    mode: str, sim: SimulatorServer, client: BlahClient
) -> None:
    app = make_app(sim, client, start_mode=mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.current_mode == mode and bool(app.screen.query(KeyFooter)), what=mode)
        footer = app.screen.query_one(KeyFooter)
        await wait_for(pilot, lambda: "? Help" in _visible_keys(footer, 80), what="the help key on screen")
        shown = _visible_keys(footer, 80)
        assert ": Palette" in shown
        help_x, _ = shown["? Help"]
        palette_x, palette_right = shown[": Palette"]
        assert help_x < palette_x and palette_right >= 78  # on the right edge, help first
        # the screen's own keys are still listed first, to the left of the pinned pair
        assert any(x < help_x for label, (x, _) in shown.items() if label not in {"? Help", ": Palette"})
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen", what="help opened by ?")


async def test_switching_areas_all_night_does_not_pile_up_widgets(sim: SimulatorServer, client: BlahClient) -> None:
    """Every area switch changes the footer's keys; nothing of the old ones may stay alive
    (Textual 8's own Footer kept a watcher, and so a whole widget, for each key it ever made:
    3,614 after 90 switches). The footer draws its keys itself and holds no widget per key."""
    import gc

    from textual.widget import Widget

    def live_widgets() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Widget))

    app = make_app(sim, client, start_mode="runs")
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: app.current_mode == "runs", what="runs")

        async def switch(rounds: int) -> None:
            for _ in range(rounds):
                for key, mode in (("4", "leaderboard"), ("5", "chatroom"), ("3", "runs")):
                    await pilot.press(key)
                    await wait_for(
                        pilot,
                        lambda mode=mode: app.current_mode == mode and bool(app.screen.query_one(KeyFooter).keys),
                        what=f"{mode} and its footer",
                    )
            await pilot.pause()

        await switch(1)  # every area built once
        after_few = live_widgets()
        await switch(3)  # 9 more switches: a leak of one widget per switch shows
        after_many = live_widgets()
        assert not app.screen.query_one(KeyFooter).children
    assert after_many - after_few < 9, f"{after_few} widgets alive after 3 switches, {after_many} after 12"
