"""As on the live platform, an eval is one prompt: ``total_evals`` counts evals and a run has
one result per (eval, model). The simulator sends nothing the live API lacks (no items), and
the screens show evals, not items."""

from __future__ import annotations

from itertools import product

import httpx
from textual.widgets import DataTable

from api_client.blahdev.client import BlahClient
from simulator.blahdev import runs
from simulator.server import SimulatorServer
from tests.support.runs import SIZE, make_app, wait_for
from tui.screens.compare.screen import CompareEvalScreen, CompareScreen
from tui.screens.models.screen import ModelsScreen
from widgets.text_viewer import TextViewer

LIVE_EVAL = {
    "id",
    "name",
    "description",
    "prompt",
    "expected_behavior",
    "eval_type",
    "eval_criteria",
    "submitted_by",
    "created_at",
    "updated_at",
}
LIVE_RESULT = {
    "id",
    "eval_run_id",
    "eval_id",
    "model_id",
    "response",
    "score",
    "score_details",
    "latency_ms",
    "error",
    "raw_data",
    "created_at",
}
SIMULATOR_EXTRAS = {"subject", "instruction_type", "log_id"}  # allowed by CONTRACT.md


def test_an_eval_is_one_prompt_with_the_live_fields(http: httpx.Client) -> None:
    evals = http.get("/evals").json()
    assert len(evals) == 38 and len({e["prompt"] for e in evals}) == 38  # 38 prompts: 38 evals
    for ev in evals:
        assert LIVE_EVAL <= set(ev) <= LIVE_EVAL | SIMULATOR_EXTRAS, ev["id"]
        assert http.get(f"/evals/{ev['id']}").json() == ev  # no items, no reference answers


def test_a_run_has_one_result_per_eval_and_model(http: httpx.Client, sim: SimulatorServer) -> None:
    evals = {e["id"]: e for e in http.get("/evals").json()}
    run = next(r for r in http.get("/runs").json() if r["status"] == "completed")
    assert run["total_evals"] == len(evals)
    results = http.get(f"/runs/{run['id']}/results").json()
    assert len(results) == run["completed_count"] == run["total_evals"] * run["total_models"]
    assert sorted((r["eval_id"], r["model_id"]) for r in results) == sorted(product(evals, run["model_ids"]))
    for result in results:
        assert set(result) <= LIVE_RESULT | SIMULATOR_EXTRAS, result["id"]  # no item_id
    for result in results[:: len(run["model_ids"])]:  # each eval once: the model was asked its prompt
        log = http.get(f"/logs/{result['log_id']}").json()
        assert log["eval_id"] == result["eval_id"] and log["messages"][-1]["content"] == evals[log["eval_id"]]["prompt"]


def test_compare_has_one_row_per_eval_with_its_prompt(http: httpx.Client, sim: SimulatorServer) -> None:
    evals = {e["id"]: e for e in http.get("/evals").json()}
    body = http.get("/compare", params=[("model", sim.person_model_id), ("model", "gemma-2-9b-it")]).json()
    assert sorted(row["eval_id"] for row in body["rows"]) == sorted(evals)
    for row in body["rows"]:
        assert set(row) == {"eval_id", "prompt", "answers"} and row["prompt"] == evals[row["eval_id"]]["prompt"]


def test_the_seeded_world_still_fails_in_every_way(sim: SimulatorServer) -> None:
    world = sim.world
    own_evals = [r for r in world.results.values() if r["model_id"] == world.person_model_id]
    kinds = {world.truth[r["log_id"]] for r in own_evals}
    assert {"loop", "truncated", "refusal", "wrong", "error"} <= kinds
    chatroom = [e for e in world.logs.all_for(world.person_model_id) if e["source"] == "chatroom"]
    assert chatroom and all(e["prompt"].startswith("<s>[INST]") for e in chatroom)  # not its chatml template
    assert {"completed", "failed", "stalled"} <= {r["status"] for r in runs.runs_newest_first(world)}


async def test_the_evals_list_holds_every_eval_a_run_asks(sim: SimulatorServer, client: BlahClient) -> None:
    """The Models screen's Evals list and a run's "N evals" agree (one prompt per eval)."""
    total_evals = {r.total_evals for r in await client.list_runs()}
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("6")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and bool(app.screen.evals), what="evals")
        assert {app.screen.query_one("#evals-table", DataTable).row_count} == total_evals == {38}


async def test_opening_a_compared_eval_shows_that_evals_prompt(sim: SimulatorServer, client: BlahClient) -> None:
    app = make_app(sim, client, start_mode="compare")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CompareScreen) and app.screen.loaded, what="compare")
        screen = app.screen
        assert isinstance(screen, CompareScreen)
        caption = str(screen.query_one("#compare-caption").render())
        assert caption.startswith(f"{len(await client.list_evals())} evals · you lost")
        for _ in range(3):  # the first three rows, each opened with Enter
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, CompareEvalScreen), what="the eval")
            opened = app.screen
            assert isinstance(opened, CompareEvalScreen)
            ev = await client.get_eval(opened.line.row.eval_id or "")
            assert opened.query_one("#eval-prompt", TextViewer).text == ev.prompt
            assert f"eval {ev.id}" in str(opened.query_one("#eval-head").render())
            await pilot.press("escape", "j")
