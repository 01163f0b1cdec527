"""Training sets on a real simulator: a set built from the suggestions lands on the platform,
empty replies are asked about, an oversize set is refused before a byte is sent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList, TextArea

import simulator.blahdev.training as sim_training
from api_client.blahdev.client import BlahClient
from simulator.server import SimulatorServer
from tests.support.chatroom import make_app, wait_for
from tui.screens.training.build import TrainingBuildScreen
from tui.screens.training.screen import TrainingSetsScreen
from widgets.confirm import ConfirmScreen

SIZE = (140, 45)


def text_of(screen: Any, selector: str) -> str:
    found = screen.query(selector)
    return str(found.first().render()) if found else ""


async def open_builder(pilot: Pilot[Any]) -> tuple[TrainingSetsScreen, TrainingBuildScreen]:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, TrainingSetsScreen) and bool(app.screen.sets), what="sets")
    sets_screen = app.screen
    assert isinstance(sets_screen, TrainingSetsScreen)
    await pilot.press("b")
    await wait_for(pilot, lambda: isinstance(app.screen, TrainingBuildScreen), what="builder")
    builder = app.screen
    assert isinstance(builder, TrainingBuildScreen)
    await wait_for(pilot, lambda: bool(builder.examples), timeout=30, what="suggested prompts")
    return sets_screen, builder


async def test_built_set_lands_on_the_platform(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="training")
        async with app.run_test(size=SIZE) as pilot:
            sets_screen, builder = await open_builder(pilot)
            before = {s.id for s in sets_screen.sets}
            first = builder.examples[0]
            # Write the reply to the first prompt in the editor, leave the others out.
            builder.query_one("#tb-prompts", OptionList).highlighted = 0
            await wait_for(pilot, lambda: builder.current == 0, what="first prompt shown in the editor")
            builder.query_one("#tb-reply", TextArea).load_text("Paris is the capital of France.")
            await wait_for(
                pilot,
                lambda: builder.replies.get(first.log_id) == "Paris is the capital of France.",
                what="reply recorded",
            )
            builder.query_one("#tb-leave-out", Checkbox).value = True
            builder.query_one("#tb-name", Input).value = "fixes from the tui"
            await wait_for(pilot, lambda: "1 examples (1 answered" in text_of(builder, "#tb-summary"), what="summary")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            assert "EMPTY" not in str(app.screen.query_one("#confirm-body").render())
            await pilot.press("y", "y")
            await wait_for(pilot, lambda: builder.upload.uploaded_id is not None, timeout=20, what="uploaded")
            assert builder.upload.sent == 1
            uploaded = builder.build().data
            assert "listed on the platform" in text_of(builder, "#tb-result")
            stored = fresh_sim.world.training_sets[builder.upload.uploaded_id]
            assert (
                stored["status"] == "ready" and stored["example_count"] == 1 and stored["name"] == "fixes from the tui"
            )
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, TrainingSetsScreen), what="back to the list")
            await wait_for(
                pilot,
                lambda: {s.id for s in sets_screen.sets} - before == {builder.upload.uploaded_id},
                what="new set listed after a refresh",
            )
            listed = next(s for s in sets_screen.sets if s.id == builder.upload.uploaded_id)
            assert listed.example_count == 1 and listed.status == "ready"
    # What was uploaded: the prompt's turns verbatim and the reply written in the editor.
    lines = uploaded.decode().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["source_log_id"] == first.log_id
    assert record["messages"][-1] == {"role": "assistant", "content": "Paris is the capital of France."}
    assert record["messages"][:-1] == [{"role": r, "content": c} for r, c in first.turns]


async def test_empty_replies_are_asked_about_and_no_means_nothing_sent(fresh_sim: SimulatorServer) -> None:
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="training")
        async with app.run_test(size=SIZE) as pilot:
            _, builder = await open_builder(pilot)
            count = len(fresh_sim.world.training_sets)
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            body = str(app.screen.query_one("#confirm-body").render())
            assert f"{len(builder.examples)} of {len(builder.examples)} examples have an EMPTY reply" in body
            await pilot.press("n")
            await pilot.pause(0.2)
            assert builder.upload.sent == 0 and len(fresh_sim.world.training_sets) == count


async def test_oversize_set_is_refused_before_sending(
    fresh_sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sim_training.request_upload

    def small_ticket(*args: Any, **kwargs: Any) -> dict[str, Any]:
        ticket = real(*args, **kwargs)
        return {**ticket, "max_bytes": 100}  # this platform takes at most 100 bytes per upload

    monkeypatch.setattr(sim_training, "request_upload", small_ticket)
    async with BlahClient(fresh_sim.base_url, api_key=fresh_sim.council_key) as client:
        app = make_app(fresh_sim, client, start_mode="training")
        async with app.run_test(size=SIZE) as pilot:
            _, builder = await open_builder(pilot)
            assert builder.build().size_bytes > 100
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
            await pilot.press("y")
            await wait_for(pilot, lambda: "Refused before sending" in text_of(builder, "#tb-result"), what="refusal")
            assert "at most 100 bytes" in text_of(builder, "#tb-result")
            assert builder.upload.uploaded_id is None and builder.upload.ticket is not None
            # The ticket was never used: no byte reached the upload address.
            set_id = builder.upload.ticket.training_set_id
            assert fresh_sim.world.training_sets[set_id]["status"] == "pending_upload"
            assert any(t["training_set_id"] == set_id for t in fresh_sim.world.uploads.values())
