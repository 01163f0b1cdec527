"""Pilot tests of the Results screens (list and one result) against the shared simulator."""

from __future__ import annotations

import json

from api_client.blahdev.client import BlahClient
from api_client.blahdev.shapes import Result
from simulator.server import SimulatorServer
from tests.support.hostile_payloads import HOSTILE, assert_segments_inert
from tests.support.logs_world import frame_segments
from tests.support.runs import SIZE, make_app, wait_for
from tui.screens.runs.results import ResultsScreen, sort_results
from tui.screens.runs.results_detail import ResultDetailScreen, raw_exchange_text
from tui.screens.runs.screen import RunsScreen
from widgets.text_viewer import TextViewer


def _keys(screen: ResultsScreen) -> list[str]:
    table = screen.query_one("#results-table")
    return [str(row_key.value) for row_key in table.rows]


async def test_results_of_my_model_sort_by_each_key_and_filter_doubts(sim: SimulatorServer, client: BlahClient) -> None:
    expected = await client.list_results(sim.person_model_id)
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and bool(app.screen.runs), what="runs")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen.loaded, what="results")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        assert sorted(_keys(screen)) == sorted(r.id for r in expected)
        names = screen.eval_names
        # default: worst score first, so the failures are on top
        assert _keys(screen) == [r.id for r in sort_results(expected, "score", descending=False, eval_names=names)]
        for key, sort_key, descending in (
            ("s", "score", True),
            ("l", "latency", True),
            ("l", "latency", False),
            ("e", "eval", False),
            ("t", "time", True),
        ):
            await pilot.press(key)
            want = sort_results(expected, sort_key, descending=descending, eval_names=names)  # type: ignore[arg-type]
            assert _keys(screen) == [r.id for r in want], (key, sort_key, descending)

        assert screen.doubts, "the seeded world has verdicts worth doubting"
        await pilot.press("d")
        shown = _keys(screen)
        assert shown and set(shown) == set(screen.doubts) & {r.id for r in expected}
        summary = str(screen.query_one("#results-summary").render())
        assert f"{len(screen.doubts)} verdicts worth doubting" in summary


async def test_one_result_shows_criteria_raw_exchange_and_opens_its_log(
    sim: SimulatorServer, client: BlahClient
) -> None:
    results = await client.list_results(sim.person_model_id)
    target = next(r for r in results if isinstance(r.score_details_parsed, dict) and r.log_id)
    details = json.loads(target.score_details or "")
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ResultsScreen(model_id=sim.person_model_id))
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        await wait_for(pilot, lambda: screen.loaded, what="results")
        screen.query_one("#results-table").move_cursor(row=_keys(screen).index(target.id))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultDetailScreen), what="the result")
        detail = app.screen
        assert isinstance(detail, ResultDetailScreen)
        await wait_for(pilot, lambda: detail.judgement is not None, what="the judgement")
        assert detail.query_one("#detail-criteria").row_count == len(details["criteria"])
        reasoning = str(detail.query_one("#detail-reasoning").render())
        assert details["reasoning"] in reasoning.replace("\n", " ")
        viewer = detail.query_one("#detail-text", TextViewer)
        assert viewer.text == (target.response or "")
        await pilot.press("x")
        assert viewer.text == raw_exchange_text(target.raw_data) and viewer.text.startswith("{\n")
        await pilot.press("x")
        assert viewer.text == (target.response or "")
        await pilot.press("l")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "InspectorScreen", what="the inspector")
        assert getattr(app.screen, "log_id", target.log_id) == target.log_id


async def test_plain_text_judgement_is_shown_verbatim(sim: SimulatorServer, client: BlahClient) -> None:
    results = await client.list_results(sim.person_model_id)
    plain = next(r for r in results if r.score_details and r.score_details_parsed is None)
    app = make_app(sim, client)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ResultDetailScreen(plain.id))
        detail = app.screen
        assert isinstance(detail, ResultDetailScreen)
        await wait_for(pilot, lambda: detail.result is not None and detail.judgement is not None, what="result")
        text = str(detail.query_one("#detail-reasoning").render())
        assert "not JSON; shown as sent" in text
        assert plain.score_details in text.replace("\n", " ")
        assert not detail.query_one("#detail-criteria").display


async def test_hostile_result_text_is_inert(sim: SimulatorServer) -> None:
    payload = "".join(text for _name, text in HOSTILE if len(text) < 200)
    hostile = Result(
        id="res_hostile",
        eval_id=payload[:80],
        model_id="[@click=app.quit]x[/]",
        score=0.9,
        response=payload,
        score_details=json.dumps({"reasoning": payload, "criteria": {payload[:40]: 0.5}}),
        error=payload[:60],
        raw_data=payload,
    )
    app = make_app(sim, None)  # offline: shows what it was given, loads nothing
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ResultDetailScreen("res_hostile", initial=hostile))
        await pilot.pause()
        assert isinstance(app.screen, ResultDetailScreen)
        assert_segments_inert(frame_segments(app))
        await pilot.press("x")
        await pilot.pause()
        assert_segments_inert(frame_segments(app))
        assert isinstance(app.screen, ResultDetailScreen)  # no injected action ran (e.g. app.quit)
