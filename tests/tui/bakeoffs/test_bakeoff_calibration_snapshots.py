"""Snapshots of what issue 29's calibration work added, reached by keys on the errorbar
simulator: the bake-off view with 30 labelled pairs (the verdict, the calibration panel with
the corrected win rate beside the printed one), a criterion run whose judge is no better than
chance (the verdict says so), the criteria view, the evidence summary and the failure
clusters."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from simulator.errorbar.server import ErrorbarServer
from tests.support import sim_http
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import COMPARISON, CRITERION, SLOW, get, headers, queue_run
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.clusters_view import FailureClustersScreen
from tui.screens.bakeoffs.criteria_view import CriteriaScreen
from tui.screens.bakeoffs.evidence_view import EvidenceScreen

JUDGE = {"win": "candidate", "loss": "baseline", "tie": "tie"}
OVERRULE = {"candidate": "tie", "tie": "baseline", "baseline": "candidate"}


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with ErrorbarServer(seed=7, speed=SLOW) as server:
        server.store.wall_clock = lambda: dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC)
        labelled = queue_run(server, COMPARISON)["id"]  # ev_7_0001: 30 pairs labelled below
        queue_run(server, {**CRITERION, "criterion_id": "crit_concise"})  # ev_7_0002: a judge at chance
        k = 0
        for sample in get(server, f"/v1/evals/{labelled}/samples").json():
            for answer in sample["candidates"]:
                if k < 30 and answer["outcome"] in JUDGE:
                    verdict = JUDGE[answer["outcome"]]
                    body = {
                        "sample_index": sample["index"],
                        "candidate": answer["model"],
                        "verdict": OVERRULE[verdict] if k % 4 == 3 else verdict,
                    }
                    assert (
                        sim_http.post(
                            f"{server.base_url}/v1/evals/{labelled}/pair_labels",
                            json=body,
                            headers=headers(server.member_key),
                        ).status_code
                        == 200
                    )
                    k += 1
        yield server


def _snap(
    snap_compare: Any,
    server: ErrorbarServer,
    steps: Callable[[BlahApp, Pilot[Any]], Awaitable[None]],
    size: tuple[int, int] = (160, 48),
) -> bool:
    app = bakeoff_app(server)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_bakeoffs(app, pilot)
        await steps(app, pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()

    try:
        return bool(snap_compare(app, terminal_size=size, run_before=run_before))
    finally:
        try:
            asyncio.run(app.ctx.errorbar.aclose())
        except RuntimeError:
            pass  # its loop went away with the app's


async def _labelled_run(app: BlahApp, pilot: Pilot[Any]) -> None:
    screen = await read_run(app, pilot, "ev_7_0001")
    await wait_for(pilot, lambda: "corrected 0." in screen.calibration_text.plain, what="the corrected rate")
    await pilot.press("l")  # the calibration panel at the pane's top, the pane focused


def test_the_calibration_panel_after_thirty_labels(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, _labelled_run)


async def _chance_judge(app: BlahApp, pilot: Pilot[Any]) -> None:
    screen = await read_run(app, pilot, "ev_7_0002")
    await wait_for(pilot, lambda: "says nothing" in screen.verdict_text.plain, what="the verdict")


def test_the_verdict_on_a_judge_at_chance(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, _chance_judge)


async def _criteria(app: BlahApp, pilot: Pilot[Any]) -> None:
    await pilot.press("i")
    await wait_for(
        pilot, lambda: isinstance(app.screen, CriteriaScreen) and bool(app.screen.criteria), what="the criteria"
    )
    view = app.screen
    assert isinstance(view, CriteriaScreen)
    await pilot.press("down")  # Concise: the judge at chance, its disagreements verbatim
    await wait_for(pilot, lambda: "42 disagreements" in view.detail_text.plain, what="the report")


def test_the_criteria_view(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, _criteria)


async def _evidence(app: BlahApp, pilot: Pilot[Any]) -> None:
    await read_run(app, pilot, "ev_7_0001")
    await pilot.press("e")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, EvidenceScreen) and "attestation" in app.screen.body_text.plain,
        what="the evidence summary",
    )


def test_the_evidence_summary(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, _evidence)


async def _clusters(app: BlahApp, pilot: Pilot[Any]) -> None:
    await pilot.press("f")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, FailureClustersScreen) and app.screen.answer is not None,
        what="the clusters",
    )


def test_the_failure_clusters(snap_compare: Any, queue: ErrorbarServer) -> None:
    assert _snap(snap_compare, queue, _clusters)
