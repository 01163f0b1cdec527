"""Publishing an evaluation's job from the evidence the app holds, and exporting several
evaluations with a receipt, against the Blobfish simulator over real HTTP."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from api_client.blobfish import BlobfishClient, PublishRefusedLocally
from application.evaluations.dataset_export import (
    MAX_SOURCES,
    SelectionRefused,
    check_selection,
    write_evaluations,
)
from application.evaluations.diagnosed import read_diagnosed
from application.evaluations.evidence import Evaluation
from application.evaluations.export import export_lines
from application.evaluations.publish import build_envelope, plan_publication, publish_once
from application.evaluations.source import ClientSource
from simulator.blobfish.envelope import encode
from simulator.blobfish.server import BlobfishServer
from tests.support.blobfish import envelope

SECRET = "sk-proj-" + "A1b2C3d4" * 5


@pytest.fixture(scope="module")
def bf() -> Iterator[BlobfishServer]:
    with BlobfishServer(seed=3, live=False) as server:
        yield server


@pytest.fixture
async def client(bf: BlobfishServer) -> AsyncIterator[BlobfishClient]:
    async with BlobfishClient(bf.base_url, bf.account_key) as c:
        yield c


async def _read(client: BlobfishClient, evaluation_id: str) -> Evaluation:
    """The evaluation as the Evaluations screen reads it."""
    return (await read_diagnosed(ClientSource(client), evaluation_id)).evaluation


def _publish(bf: BlobfishServer, job: dict[str, object], body: bytes | None = None) -> str:
    """``job`` published as an SDK sends it (compact JSON), or as ``body``."""
    evaluation, _ = bf.store.publish(bf.store.account, encode(job) if body is None else body)
    return str(evaluation["evaluation_id"])


async def test_the_envelope_built_from_the_evidence_is_the_one_published(
    bf: BlobfishServer, client: BlobfishClient
) -> None:
    """No secret was masked: the envelope rebuilt from the detail is the published one, and the
    platform answers it with the same evaluation (201 would mean a copy was made)."""
    job = envelope("app-built", rollouts=3)
    evaluation_id = _publish(bf, job)
    evaluation = await _read(client, evaluation_id)
    assert build_envelope(evaluation) == job
    before = bf.requests.count("POST")
    outcome = await publish_once(client, plan_publication(evaluation))
    assert outcome.kind == "same" and outcome.evaluation_id == evaluation_id
    assert outcome.dashboard_url == f"{bf.base_url}/evaluations/{evaluation_id}"
    assert f"job app-built is evaluation {evaluation_id}" in outcome.message
    assert bf.requests.count("POST") == before + 1
    assert len(bf.evaluation_ids()) == len(set(bf.evaluation_ids()))  # no second evaluation of the job


async def test_evidence_the_platform_masked_is_refused_as_changed_in_one_sentence(
    bf: BlobfishServer, client: BlobfishClient
) -> None:
    job = envelope("app-masked")
    job["job"]["metadata"]["openai_api_key"] = SECRET  # type: ignore[index]
    evaluation = await _read(client, _publish(bf, job))
    plan = plan_publication(evaluation)
    assert SECRET.encode() not in plan.publication.body  # the masked evidence is what is sent
    outcome = await publish_once(client, plan)
    assert outcome.kind == "refused" and outcome.error
    assert outcome.message == (
        "Blobfish refused it (409 job_conflict): job app-masked is already published and "
        "these bytes differ from the first (a field it masked, or another serialization, "
        "counts as changed evidence); the platform keeps the first."
    )


async def test_a_job_first_sent_in_another_serialization_is_refused_not_copied(
    bf: BlobfishServer, client: BlobfishClient
) -> None:
    """The same evidence, first sent with spaces (json.dumps): Blobfish keys the bytes, so the
    app's compact envelope is refused as changed; nothing is published twice."""
    job = envelope("app-spaced", rollouts=2)
    evaluation = await _read(client, _publish(bf, job, json.dumps(job).encode()))
    assert build_envelope(evaluation) == job
    outcome = await publish_once(client, plan_publication(evaluation))
    assert outcome.kind == "refused" and "409 job_conflict" in outcome.message
    assert [bf.store.account.by_job["app-spaced"]["evaluation_id"]] == [
        e["evaluation_id"] for e in bf.store.account.evaluations if e["job_id"] == "app-spaced"
    ]


async def test_a_job_that_is_not_completed_is_refused_before_anything_is_sent(
    bf: BlobfishServer, client: BlobfishClient
) -> None:
    evaluation = await _read(client, _publish(bf, envelope("app-running")))
    before = bf.requests.count("POST")
    with pytest.raises(PublishRefusedLocally) as refused:
        plan_publication(dataclasses.replace(evaluation, status="running"))
    assert refused.value.message == (
        "Job app-running is not completed (status 'running'): Blobfish publishes only completed jobs. Nothing was sent."
    )
    assert bf.requests.count("POST") == before


async def test_a_wrong_key_is_one_sentence(bf: BlobfishServer) -> None:
    async with BlobfishClient(bf.base_url, bf.account_key) as reader:
        evaluation = await _read(reader, _publish(bf, envelope("app-key")))
    async with BlobfishClient(bf.base_url, "bf_" + "0" * 32) as stranger:
        outcome = await publish_once(stranger, plan_publication(evaluation))
    assert outcome.kind == "refused"
    assert outcome.message == "Blobfish refused the key (401): job app-key was not published."


async def test_a_receipt_counts_and_hashes_the_file_written(
    bf: BlobfishServer, client: BlobfishClient, tmp_path: Path
) -> None:
    ids = bf.evaluation_ids()[:3]
    evaluations = [await _read(client, i) for i in ids]
    receipt = write_evaluations(tmp_path / "three.jsonl", evaluations)
    written = (tmp_path / "three.jsonl").read_bytes()
    assert receipt.sha256 == hashlib.sha256(written).hexdigest()
    assert receipt.byte_count == len(written)
    assert receipt.record_count == written.count(b"\n") == sum(len(list(export_lines(e))) for e in evaluations)
    assert receipt.to_json()["sha256"] == receipt.sha256 and "dataset_id" not in receipt.to_json()
    assert f"SHA-256 {receipt.sha256}" in receipt.sentence() and "computed by blah-tui" in receipt.sentence()


def test_an_export_takes_1_to_50_evaluations() -> None:
    check_selection(1)
    check_selection(MAX_SOURCES)
    with pytest.raises(SelectionRefused, match="51 evaluations are selected: an export takes 1-50"):
        check_selection(51)
    with pytest.raises(SelectionRefused, match="no evaluation is selected"):
        check_selection(0)
