"""The bake-off view's labelling, calibration panel and verdict, and the criteria, evidence,
failure-cluster and delete keys, driven as a person presses them against the queue
simulator over real HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from api_client.errorbar.client import ErrorbarClient
from application.session.paths import data_dir
from simulator.errorbar.server import ErrorbarServer
from tests.support.bakeoff_app import bakeoff_app, open_bakeoffs, read_run
from tests.support.errorbar import COMPARISON, CRITERION, get, queue_run, queue_server
from tests.support.notify_log import said
from tests.support.quick_keys import type_text
from tests.support.waiting import wait_for
from tui.app import BlahApp
from tui.screens.bakeoffs.clusters_view import FailureClustersScreen
from tui.screens.bakeoffs.criteria_view import CriteriaScreen
from tui.screens.bakeoffs.evidence_view import EvidenceScreen
from tui.screens.bakeoffs.screen import BakeoffScreen
from widgets.key_table import KeyTable

KEY = {"win": "c", "loss": "b", "tie": "equals_sign"}
OVERRULE = {"c": "equals_sign", "equals_sign": "b", "b": "c"}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _posts(queue: ErrorbarServer, suffix: str) -> int:
    return sum(1 for r in queue.requests.records() if r.method in ("POST", "DELETE") and r.path.endswith(suffix))


def _calibration(screen: BakeoffScreen) -> str:
    return screen.calibration_text.plain


def _verdict(screen: BakeoffScreen) -> str:
    return screen.verdict_text.plain


async def _to_samples(app: BlahApp, pilot: Pilot[Any], screen: BakeoffScreen) -> KeyTable:
    table = screen.query_one("#bakeoff-samples", KeyTable)
    for _ in range(4):
        if app.focused is table:
            break
        await pilot.press("tab")
    assert app.focused is table
    return table


def _admin(app: BlahApp, queue: ErrorbarServer) -> None:
    app.ctx.errorbar = ErrorbarClient(queue.base_url, api_key=queue.admin_key)


async def test_thirty_labels_by_key_bring_the_corrected_win_rate(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run_id)
        await wait_for(pilot, lambda: "label 30 more pairs" in _calibration(screen), what="the empty panel")
        assert "Switch? not enough evidence" in _verdict(screen)
        assert "the app's reading of the judge: the judge is unchecked on this run" in _verdict(screen)
        table = await _to_samples(app, pilot, screen)
        pressed = 0
        while pressed < 30:
            row = next(r for r in screen.rows if r.key == table.current_key)
            if row.outcome not in KEY:  # no judge reading: the pair cannot calibrate anything
                await pilot.press("down")
                continue
            key = KEY[row.outcome]
            await pilot.press(OVERRULE[key] if pressed % 4 == 3 else key)
            pressed += 1
        await wait_for(pilot, lambda: "corrected 0." in _calibration(screen), what="the corrected win rate")
        text = _calibration(screen)
        assert "labelled pairs 30 · counted 30" in text and "usable" in text
        assert "calibration usable (30 labelled pairs): the corrected win rate is shown" in text
        assert "same as the queue's" in text
    assert _posts(queue, "/pair_labels") == 30
    pairwise = get(queue, f"/v1/evals/{run_id}/pairwise").json()
    for arm, entry in pairwise["candidates"].items():
        low, high = entry["corrected"]["win_rate_ci"]
        assert f"{arm}: printed" in text
        assert f"corrected {entry['corrected']['win_rate']:.3f} [{low:.3f}, {high:.3f}]" in text
    labels = get(queue, f"/v1/evals/{run_id}/pair_labels").json()["data"]
    assert len(labels) == 30 and {lab["verdict"] for lab in labels} == {"candidate", "baseline", "tie"}


async def test_overwrite_remove_and_a_critique(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run_id)
        table = await _to_samples(app, pilot, screen)
        first = table.current_key
        await pilot.press("c")
        await wait_for(pilot, lambda: "labelled pairs 1" in _calibration(screen), what="one label")
        assert table.current_key != first  # on to the next unlabelled pair
        await pilot.press("g")
        assert table.current_key == first
        await pilot.press("b")
        await wait_for(pilot, lambda: _posts(queue, "/pair_labels") == 2, what="the overwrite")
        await wait_for(pilot, lambda: "labelled pairs 1 " in _calibration(screen), what="the overwrite drawn")
        assert get(queue, f"/v1/evals/{run_id}/pair_labels").json()["data"][0]["verdict"] == "baseline"
        await pilot.press("g", "u")
        await wait_for(pilot, lambda: "labelled pairs 0" in _calibration(screen), what="the removal")
        await pilot.press("g", "w")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "CritiqueDialog", what="the critique box")
        await type_text(pilot, "[b]shorter[/b]")
        await pilot.press("enter", "enter")  # then the focused "Candidate better"
        await wait_for(pilot, lambda: "labelled pairs 1" in _calibration(screen), what="the critiqued label")
        cells = [str(c) for c in table.get_row(first)]  # type: ignore[arg-type]
        assert "cand" in cells
    labels = get(queue, f"/v1/evals/{run_id}/pair_labels").json()["data"]
    index, arm = first.split(":", 1)  # type: ignore[union-attr]
    assert labels == [
        {"sample_index": int(index), "candidate": arm, "verdict": "candidate", "critique": "[b]shorter[/b]"}
    ]


async def test_a_label_on_a_criterion_run_is_refused_in_a_sentence(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, CRITERION)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        screen = await read_run(app, pilot, run_id)
        await _to_samples(app, pilot, screen)
        await pilot.press("c")
        await wait_for(
            pilot, lambda: any("pair labels are for comparison runs" in m for m in said(app)), what="the refusal"
        )
        assert "Switch? not enough evidence" in _verdict(screen)
    assert _posts(queue, "/pair_labels") == 0


async def test_criteria_view_and_align_confirmed_sent_once(queue: ErrorbarServer) -> None:
    queue_run(queue, COMPARISON)
    app = bakeoff_app(queue)
    _admin(app, queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        await pilot.press("i")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CriteriaScreen) and bool(app.screen.criteria), what="the criteria"
        )
        view = app.screen
        assert isinstance(view, CriteriaScreen)
        await wait_for(pilot, lambda: "disagreements" in view.detail_text.plain, what="the first report")
        await pilot.press("down", "down")  # Brand tone: never aligned
        await wait_for(pilot, lambda: "no alignment run yet" in view.detail_text.plain, what="no report yet")
        assert "the judge was never checked against human labels" in view.detail_text.plain
        await pilot.press("a")
        await pilot.press("n")  # not confirmed: nothing sent
        await pilot.press("a", "y")
        await wait_for(pilot, lambda: "36 labels · TPR 0.833" in view.detail_text.plain, what="the new report")
        assert "critique: [bold]ignores the question[/bold]" in view.detail_text.plain
    assert _posts(queue, "/align") == 1


async def test_evidence_summary_and_one_key_export(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        await read_run(app, pilot, run_id)
        await pilot.press("e")
        await wait_for(
            pilot, lambda: isinstance(app.screen, EvidenceScreen) and app.screen.bundle is not None, what="the bundle"
        )
        view = app.screen
        assert isinstance(view, EvidenceScreen)
        await wait_for(pilot, lambda: "attestation ok" in view.body_text.plain, what="the summary")
        assert "gate FAIL (min_win_rate=0.5)" in view.body_text.plain
        assert "content not asked for" in view.body_text.plain
        await pilot.press("x")  # x exports, as on every screen
        await wait_for(pilot, lambda: view.written is not None, what="the file")
        written = view.written
        assert written is not None and written.parent == data_dir() / "evidence"
        assert written.read_bytes() == view.bundle.raw  # type: ignore[union-attr]
        assert json.loads(written.read_bytes())["run"]["id"] == run_id


async def test_delete_a_finished_run_and_not_a_live_one(queue: ErrorbarServer) -> None:
    done = queue_run(queue, COMPARISON)["id"]
    live = queue_run(queue, COMPARISON, finish=False)["id"]
    app = bakeoff_app(queue)
    _admin(app, queue)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_bakeoffs(app, pilot)
        await read_run(app, pilot, live)
        await pilot.press("d")
        await wait_for(pilot, lambda: any("cancel it first" in m for m in said(app)), what="the refusal")
        await read_run(app, pilot, done)
        await pilot.press("d", "y")
        await wait_for(
            pilot,
            lambda: all(r.id != done for r in screen.runs) and f"deleted {done}" in said(app),
            what="the deletion",
        )
    assert _posts(queue, f"/evals/{done}") == 1 and _posts(queue, f"/evals/{live}") == 0
    assert get(queue, f"/v1/evals/{done}").status_code == 404


async def test_failure_clusters_view_and_a_confirmed_fresh_clustering(queue: ErrorbarServer) -> None:
    queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})
    app = bakeoff_app(queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        await pilot.press("f")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, FailureClustersScreen) and app.screen.answer is not None,
            what="the clusters",
        )
        view = app.screen
        assert isinstance(view, FailureClustersScreen)
        assert "Concise (crit_concise)" in view.body_text.plain and "example: " in view.body_text.plain
        assert queue.store.alignments.clusters.metered_calls == 1
        await pilot.press("F", "n")
        await pilot.press("F", "y")
        await wait_for(pilot, lambda: queue.store.alignments.clusters.metered_calls == 2, what="one fresh clustering")
        await wait_for(pilot, lambda: "freshly clustered" in view.body_text.plain, what="the fresh answer")
    assert queue.store.alignments.clusters.metered_calls == 2


def test_default_evidence_path_is_safe(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from tui.screens.bakeoffs.evidence_view import default_evidence_path

    path = default_evidence_path(tmp_path, "../ev_7 0001", datetime(2026, 12, 3, 14, 0, tzinfo=UTC))
    assert path == tmp_path / "evidence" / "ev_7_0001-20261203T140000Z.json"


async def test_a_queued_align_shows_in_progress_then_the_report(queue: ErrorbarServer) -> None:
    queue_run(queue, COMPARISON)
    app = bakeoff_app(queue)
    _admin(app, queue)
    async with app.run_test(size=(160, 48)) as pilot:
        await open_bakeoffs(app, pilot)
        await pilot.press("i")
        await wait_for(
            pilot, lambda: isinstance(app.screen, CriteriaScreen) and bool(app.screen.criteria), what="the criteria"
        )
        view = app.screen
        assert isinstance(view, CriteriaScreen)
        await wait_for(pilot, lambda: "disagreements" in view.detail_text.plain, what="the stored report")
        await pilot.press("a", "y")  # Helpful and correct: 100 labels, more than the queue judges at once
        await wait_for(
            pilot,
            lambda: "alignment in progress: 0 of 100 labels judged so far" in view.detail_text.plain,
            what="in progress",
        )
        queue.store.alignments.finish("crit_helpful")
        await wait_for(pilot, lambda: any("crit_helpful aligned" in m for m in said(app)), what="the report")
        await wait_for(pilot, lambda: "100 labels · TPR 0.900" in view.detail_text.plain, what="the report drawn")
    assert _posts(queue, "/align") == 1
