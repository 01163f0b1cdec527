"""The Models & evals screen on the simulator: lists, search, details, switching the model the
app is about, and muting from the list (seen everywhere the model appears)."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Static

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import SIZE, make_app, screen_text, wait_for
from tui.screens.chatroom.screen import ChatroomScreen
from tui.screens.models.screen import ModelsScreen
from tui.screens.playground.screen import PlaygroundScreen
from widgets.confirm import ConfirmScreen


async def _models(pilot: object, app: object) -> ModelsScreen:
    await pilot.press("6")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and bool(app.screen.models), what="models")  # type: ignore[arg-type, attr-defined]
    return app.screen  # type: ignore[attr-defined, no-any-return]


def _detail(screen: ModelsScreen) -> str:
    return str(screen.query_one("#models-detail-body", Static).render())


async def test_lists_search_and_details(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _models(pilot, app)
        table = screen.query_one("#models-table", DataTable)
        assert table.row_count == len(sim.world.models)
        assert screen.query_one("#evals-table", DataTable).row_count == len(sim.world.evals)
        first = table.get_row_at(0)
        assert str(first[0]) == "◆" and str(first[2]) == sim.person_model_id  # the person's model, marked
        await wait_for(pilot, lambda: sim.person_model_id in _detail(screen), what=f"detail {_detail(screen)[:200]!r}")
        assert "the model this app is about" in _detail(screen)

        # j moves the list and the detail follows
        await pilot.press("j")
        second = sim.world.models[str(table.get_row_at(1)[2])]
        await wait_for(pilot, lambda: second["inference_uri"] in _detail(screen), what="second model's detail")

        # search narrows both lists
        await pilot.press("slash")
        assert app.focused is screen.query_one("#models-search", Input)
        screen.query_one("#models-search", Input).value = "gemma"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.query_text == "gemma", what="search results")
        found = await client.search("gemma")
        assert [m.id for m in screen.models] == [m.id for m in found.models] and found.models
        assert "search “gemma”" in str(screen.query_one("#models-status", Static).render())

        # an eval's details: prompt, expected behaviour, criteria
        await pilot.press("slash")
        screen.query_one("#models-search", Input).value = "capital"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.query_text == "capital" and bool(screen.evals), what="eval search")
        await pilot.press("tab")
        assert app.focused is screen.query_one("#evals-table")
        item = sim.world.evals[screen.evals[0].id]
        await wait_for(pilot, lambda: item["prompt"][:30] in _detail(screen), what="eval detail")
        assert "Expected behaviour" in _detail(screen)

        # nothing found is said, not shown as an empty table alone
        await pilot.press("slash")
        screen.query_one("#models-search", Input).value = "zzzz-no-such-thing"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.query_text == "zzzz-no-such-thing", what="empty search")
        assert "the platform returned no models for this search" in str(
            screen.query_one("#models-status", Static).render()
        )


async def test_switch_model_and_mute_from_the_list(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client)
        async with app.run_test(size=SIZE) as pilot:
            screen = await _models(pilot, app)
            table = screen.query_one("#models-table", DataTable)
            other = str(table.get_row_at(1)[2])
            await pilot.press("j", "s")
            await wait_for(pilot, lambda: app.ctx.model_id == other, what="switched")
            assert f"model {other}" in screen_text(app)  # the header
            assert str(table.get_row_at(table.get_row_index(other))[0]) == "◆"  # the mark moved
            # every screen follows: the playground calls the new model
            await pilot.press("9")
            await wait_for(pilot, lambda: isinstance(app.screen, PlaygroundScreen), what="playground")
            assert other in str(app.screen.query_one("#pg-model", Static).render())
            assert f"model {other}" in screen_text(app)

            # mute the (now current) model from the list: evidence, confirmation, state everywhere
            await pilot.press("6")
            await wait_for(pilot, lambda: app.screen is screen, what="models again")
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            body = str(app.screen.query_one("#confirm-body").render())
            assert "Evidence:" in body and "keeps its scores" in body
            await pilot.press("y")
            await wait_for(pilot, lambda: app.chatroom_enabled.get(other) is False, what="muted")
            assert fresh_sim.world.models[other]["chatroom_enabled"] is False
            assert "MUTED" in str(table.get_row_at(table.get_row_index(other))[4])
            assert "(muted in chatroom)" in screen_text(app)  # it is the app's model: the header says so
            await pilot.press("5")
            await wait_for(
                pilot, lambda: isinstance(app.screen, ChatroomScreen) and bool(app.screen.models), what="room"
            )
            assert "(muted in chatroom)" in screen_text(app)
            room = app.screen
            assert isinstance(room, ChatroomScreen) and room.is_muted(other)
