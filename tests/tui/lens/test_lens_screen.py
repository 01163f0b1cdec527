"""The Lens screen on the shared simulator: the bundle, a streamed analysis (table and heat
map), cancelling mid-way, a model without a bundle, and the Inspector's ``l``."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import make_app, screen_text, wait_for
from tui.screens.inspector.screen import InspectorScreen
from tui.screens.lens.render import LensHeatMap
from tui.screens.lens.screen import LensScreen
from widgets.key_table import KeyTable

SIZE = (140, 45)


def text_of(screen: Any, selector: str) -> str:
    found = screen.query(selector)
    return str(found.first().render()) if found else ""


async def open_lens(pilot: Pilot[Any]) -> LensScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, LensScreen), what="lens screen")
    screen = app.screen
    assert isinstance(screen, LensScreen)
    await wait_for(pilot, lambda: screen.has_bundle is not None, what="bundle")
    return screen


async def test_bundle_and_streamed_analysis(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="lens")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lens(pilot)
        bundle = text_of(screen, "#lens-bundle")
        assert bundle.startswith(f"{sim.person_model_id}: BLAH Lens bundle 0.3.1")
        assert "captures residual, attention" in bundle and "layers 8" in bundle
        assert "template fingerprint sha256:" in bundle and "(chatml)" in bundle
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.run is not None and screen.run.done, what="analysis done")
        run = screen.run
        assert run is not None
        assert run.layer_events == 8 and run.layers_received(run.positions[0]) == 8
        assert list(run.predicted.values()) == [" Paris"]
        table = screen.query_one("#lens-table", KeyTable)
        assert table.row_count == 9  # 8 layers and the chosen token
        last_layer = "".join(str(c) for c in table.get_row_at(7))
        assert "·Paris 0.90" in last_layer  # the last layer puts the answer first
        assert "done: 8 layers" in text_of(screen, "#lens-status")
        heat = str(screen.query_one("#lens-heat", LensHeatMap).render())
        assert "chose ·Paris" in heat and "L7" in heat and "not in that layer's top-k" in heat


async def test_cancel_mid_stream_says_where(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="lens")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lens(pilot)
        screen.query_one("#lens-tokens", Input).value = "16"  # ~150 lines: a few seconds of stream
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.run is not None and screen.run.layer_events >= 3, what="some layers")
        await pilot.press("x")
        await wait_for(pilot, lambda: not screen.streaming, what="worker stopped")
        run = screen.run
        assert run is not None and screen.cancelled and not run.done
        status = text_of(screen, "#lens-status")
        assert status.startswith(f"cancelled at layer {run.last_layer} (")
        received = run.layer_events
        await pilot.pause(0.4)
        assert run.layer_events == received < 16 * 8  # nothing more arrives after the cancel
        rows = screen.query_one("#lens-table", KeyTable).row_count
        assert rows >= received  # what arrived stays on screen


async def test_model_without_a_bundle_gets_a_plain_message(sim: SimulatorServer, client: BlahClient) -> None:
    peer = sim.peer_model_ids[0]
    app = make_app(sim, client, start_mode="lens")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(LensScreen(peer))
        screen = await open_lens(pilot)
        assert screen.has_bundle is False
        assert "publishes no BLAH Lens bundle" in text_of(screen, "#lens-bundle")
        await pilot.press("ctrl+r")
        await pilot.pause(0.1)
        assert screen.run is None  # nothing was asked of the platform
        assert "publishes no BLAH Lens bundle" in text_of(screen, "#lens-status")
        assert "Request failed" not in screen_text(app)


async def test_inspector_l_analyses_that_calls_prompt(sim: SimulatorServer, client: BlahClient) -> None:
    page = await client.get_logs(sim.person_model_id, limit=50)
    entry = next(e for e in page.logs if e.prompt and len(e.prompt) < 1000)
    app = make_app(sim, client, start_mode="lens")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(InspectorScreen(entry.id))
        await wait_for(
            pilot, lambda: isinstance(app.screen, InspectorScreen) and app.screen.entry is not None, what="inspector"
        )
        await pilot.press("l")
        screen = await open_lens(pilot)
        assert screen.query_one("#lens-prompt", TextArea).text == entry.prompt
        await wait_for(pilot, lambda: screen.run is not None and screen.run.done, what="autostarted analysis")
        assert screen.run is not None and screen.run.prompt == entry.prompt
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, InspectorScreen), what="back to the inspector")
