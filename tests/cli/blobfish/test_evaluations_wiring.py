"""How the session gets its Blobfish client (cli.app.launch.attach_blobfish, the one place), and
the real client read through ``ClientSource`` over HTTP against the simulator: the same
evaluations, rollouts and findings as the store holds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from application.evaluations.diagnosed import list_summaries, read_diagnosed
from application.evaluations.source import ClientSource
from application.session.context import AppContext
from cli.app.launch import attach_blobfish
from diagnosis.rollouts import diagnose_evaluation
from simulator.blobfish.server import BlobfishServer


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=7, live=False) as server:
        yield server


def test_no_key_no_evaluations_area() -> None:
    ctx = attach_blobfish(AppContext(model_id="m"), "http://127.0.0.1:9", None)
    assert ctx.blobfish is None


def test_a_key_of_another_platform_is_refused_and_never_shown() -> None:
    key = "blah_" + "s3cr3t" * 6
    ctx = attach_blobfish(AppContext(model_id="m"), "http://127.0.0.1:9", key)
    assert ctx.blobfish is None
    problem = ctx.blobfish_problem
    assert "Blobfish not connected" in problem and key not in problem and "s3cr3t" not in problem


async def test_the_client_reads_the_same_evidence_as_the_store(bf: BlobfishServer) -> None:
    ctx = attach_blobfish(AppContext(model_id="m"), bf.base_url, bf.account_key)
    source = ctx.blobfish
    assert isinstance(source, ClientSource)
    try:
        summaries = await source.list_evaluations()
        assert [s.evaluation_id for s in summaries] == bf.evaluation_ids()
        first = summaries[0].evaluation_id
        evaluation = await source.get_evaluation(first)
        stored = bf.store.get(bf.store.account, first)
        assert stored is not None
        assert len(evaluation.rollouts) == stored["rollout_count"]
        assert [len(r.steps) for r in evaluation.rollouts] == [
            len(r["steps"]) for r in stored["envelope"]["job"]["rollouts"]
        ]
        diagnosis = diagnose_evaluation(evaluation.rollouts)
        assert diagnosis.tool_calls == sum(len(r.tool_calls) for r in evaluation.rollouts) > 0
    finally:
        await source.client.aclose()


async def test_the_screens_get_evaluations_ready_fetched_parsed_once_and_diagnosed(bf: BlobfishServer) -> None:
    ctx = attach_blobfish(AppContext(model_id="m"), bf.base_url, bf.account_key)
    source = ctx.blobfish
    assert isinstance(source, ClientSource)
    try:
        summaries = await list_summaries(source)
        assert [s.evaluation_id for s in summaries] == bf.evaluation_ids()
        ready = await read_diagnosed(source, summaries[0].evaluation_id)
        stored = bf.store.get(bf.store.account, summaries[0].evaluation_id)
        assert stored is not None and len(ready.evaluation.rollouts) == stored["rollout_count"]
        assert len(ready.diagnosis.rollouts) == len(ready.evaluation.rollouts)
        # the detail's body as the platform sent it: unknown members kept, nothing re-serialised
        assert ready.evaluation.raw["envelope"] == stored["envelope"]
    finally:
        await source.client.aclose()
