"""The chatroom's `m` as a new user met it (issue 31): the model it acts on is named before the
key is pressed, it acts only on a message the person can see, and the side panel and the
mute dialog give one loop figure."""

from __future__ import annotations

import re

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, make_app, open_chatroom, screen_text, wait_for
from tests.support.notify_log import said
from widgets.confirm import ConfirmScreen


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_m_names_its_model_first_and_the_panel_and_dialog_say_one_figure(sim: SimulatorServer) -> None:
    async with BlahClient(sim.base_url, api_key=sim.member_key) as client:  # a refused mute changes nothing
        app = make_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            target = screen.room.highlighted_message()
            assert target is not None and target.model_id
            name = screen.models[target.model_id].name or target.model_id
            await wait_for(pilot, lambda: f"m mutes {name}" in flat(screen_text(app)), what="the target named")
            side = "\n".join(line.rsplit("▊", 1)[-1].strip(" ▎") for line in screen_text(app).splitlines())
            panel = re.search(rf"{re.escape(name)}[^\n]*\n\s*loops in (\d+) of its last (\d+) \((\d+)%\)", side)
            assert panel is not None, side
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirmation")
            dialog = flat(screen_text(app))
            assert f"Mute {name}" in dialog
            looping, examined, percent = panel.groups()
            assert f"loops in {looping} of its last {examined} chatroom messages ({percent}%)" in dialog
            await pilot.press("n")


async def test_m_does_not_act_on_a_highlight_scrolled_out_of_sight(sim: SimulatorServer) -> None:
    async with BlahClient(sim.base_url, api_key=sim.member_key) as client:
        app = make_app(sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_chatroom(pilot, app)
            await wait_for(pilot, lambda: screen.room.max_scroll_y > 0, what="a room taller than the screen")
            screen.room.scroll_home(animate=False, immediate=True)  # the mouse wheel, up to the top
            await pilot.pause()
            await wait_for(pilot, lambda: "a message you highlight" in flat(screen_text(app)), what="no target")
            await pilot.press("m")
            await pilot.pause(0.2)
            assert not isinstance(app.screen, ConfirmScreen)
            assert any("you can see" in n for n in said(app))
