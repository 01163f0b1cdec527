"""Checkpoints (``c`` in Compare), by the keys a person presses, against the blah.dev
simulator: your model against another one of the demo, then against its own older calls."""

from __future__ import annotations

from api_client.blahdev.client import BlahClient
from application.compare.checkpoint_format import row_cells
from diagnosis.checkpoint import BETTER, NO_CHANGE, WORSE
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.checkpoint_app import LIMIT, SIZE, choose_in_picker, compare_app
from tests.support.waiting import wait_for
from tui.screens.compare.checkpoints import CheckpointScreen
from tui.screens.compare.screen import CompareScreen

VERDICTS = {BETTER, WORSE, NO_CHANGE, "no calls in A", "no calls in B"}


def failed_calls(sim: SimulatorServer, model_id: str) -> int:
    """Of the model's ``LIMIT`` newest calls, those that came back with an error and no reply,
    read straight off the platform's HTTP API."""
    answer = sim_http.get(f"{sim.base_url}/api/v1/models/{model_id}/logs", params={"limit": LIMIT}, timeout=10)
    body = answer.json()
    logs = body["logs"] if isinstance(body, dict) else body
    return sum(1 for e in logs if e.get("error") is not None and e.get("response") is None)


async def test_your_model_against_another_then_against_its_older_calls(
    sim: SimulatorServer, client: BlahClient
) -> None:
    own, other = sim.person_model_id, "gpt2-base"
    app = compare_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded, what="compare")
        await pilot.press("c")
        await choose_in_picker(app, pilot, other)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CheckpointScreen) and app.screen.comparison is not None,
            what="the checkpoint comparison",
        )
        screen = app.screen
        assert isinstance(screen, CheckpointScreen)
        comparison = screen.comparison
        assert comparison is not None
        assert (comparison.mode, comparison.a.model_id, comparison.b.model_id) == ("models", other, own)
        assert comparison.a.calls == comparison.b.calls == LIMIT
        rows = {(r.section, r.name): r for r in comparison.rows}
        overall = rows[("overall", "any failure")]
        assert overall.a is not None and overall.b is not None and overall.a.calls == overall.b.calls == LIMIT
        # The small demo model fails far more often than GPT-2: after is clearly worse.
        assert overall.verdict == WORSE
        errors = rows[("kind", "error")]
        assert errors.b is not None and errors.b.failures == failed_calls(sim, own)
        assert {r.verdict for r in comparison.rows} <= VERDICTS
        assert any(section == "eval" for section, _ in rows)
        table = screen.query_one("#checkpoint-table")
        assert table.row_count == len(comparison.rows)
        assert tuple(c.plain for c in table.get_row_at(0)) == row_cells(overall)
        caption = str(screen.query_one("#checkpoint-caption").render())
        assert "any failure: worse" in caption and f"A: {other}, {LIMIT} calls" in caption
        assert "a change in the failure rate under " in caption and "hold after Holm across" in caption

        await pilot.press("w")  # the same model, older calls against newer
        await wait_for(
            pilot,
            lambda: screen.comparison is not None and screen.comparison.mode == "windows",
            what="the time windows",
        )
        windows = screen.comparison
        assert windows is not None
        assert windows.a.model_id == windows.b.model_id == own
        assert windows.a.calls + windows.b.calls == LIMIT and abs(windows.a.calls - windows.b.calls) <= 1
        assert windows.a.last_ms is not None and windows.b.first_ms is not None
        assert windows.a.last_ms <= windows.b.first_ms == windows.split_at_ms
        assert "A (before): your older calls" in str(screen.query_one("#checkpoint-caption").render())

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen), what="back in Compare")


async def test_cancelling_the_picker_leaves_the_choice_on_screen(sim: SimulatorServer, client: BlahClient) -> None:
    app = compare_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded, what="compare")
        await pilot.press("c")
        await wait_for(pilot, lambda: len(app.screen_stack) > 2, what="the model picker")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, CheckpointScreen), what="the checkpoints view")
        screen = app.screen
        assert isinstance(screen, CheckpointScreen)
        assert screen.comparison is None
        assert "m another model" in str(screen.query_one("#checkpoint-caption").render())
        assert screen.query_one("#checkpoint-table").row_count == 0
