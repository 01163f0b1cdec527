"""Every ``/v1/evals*`` and ``/v1/criteria*`` route of the contract."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from simulator.errorbar import criteria as criteria_routes
from simulator.errorbar import verdicts
from simulator.errorbar.auth import Caller, admin, reader, store_of, writer
from simulator.errorbar.errors import QueueError
from simulator.errorbar.runs import RunStore
from simulator.errorbar.world import Criterion
from simulator.http import json_response

router = APIRouter()
Reader = Annotated[Caller, Depends(reader)]
Writer = Annotated[Caller, Depends(writer)]
Admin = Annotated[Caller, Depends(admin)]
NO_STORE = {"Cache-Control": "no-store"}


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


async def _body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw) if raw.strip() else None
    except ValueError:
        raise QueueError(400, "Invalid JSON body.") from None


@router.get("/evals")
def list_runs(request: Request, _: Reader) -> Response:
    return json_response({"object": "list", "data": store_of(request).listing()})


@router.post("/evals", status_code=201)
async def create_run(request: Request, _: Admin) -> Response:
    return json_response(store_of(request).create(await _body(request)), 201)


@router.get("/evals/compare")
def compare(request: Request, _: Reader, a: str | None = None, b: str | None = None) -> Response:
    return json_response(verdicts.compare(store_of(request), a, b), headers=NO_STORE)


@router.get("/evals/failure_clusters")
def failure_clusters(request: Request, _: Reader, window_days: str = "7", force: str = "false") -> Response:
    if not window_days.isdigit() or not 1 <= int(window_days) <= 90:
        raise QueueError(400, "window_days must be an integer 1..90")
    store = store_of(request)
    with store._lock:
        body = criteria_routes.failure_clusters(store, int(window_days), force == "true")
    return json_response(body, headers=NO_STORE)


@router.get("/evals/{run_id}")
def get_run(request: Request, run_id: str, _: Reader) -> Response:
    store = store_of(request)
    with store._lock:
        return json_response(store.run_json(store.get(run_id)))


@router.delete("/evals/{run_id}")
def delete_run(request: Request, run_id: str, _: Admin) -> Response:
    return json_response(store_of(request).delete(run_id))


@router.post("/evals/{run_id}/cancel")
def cancel_run(request: Request, run_id: str, _: Admin) -> Response:
    return json_response(store_of(request).cancel(run_id))


@router.get("/evals/{run_id}/gate")
def gate(request: Request, run_id: str, _: Reader) -> Response:
    status, body = verdicts.gate(store_of(request), run_id, dict(request.query_params))
    return json_response(body, status)


@router.get("/evals/{run_id}/samples")
def samples(request: Request, run_id: str, _: Reader) -> Response:
    return json_response(store_of(request).samples_json(run_id))


@router.get("/evals/{run_id}/pairwise")
def pairwise(request: Request, run_id: str, _: Reader) -> Response:
    return json_response(verdicts.pairwise(store_of(request), run_id))


@router.post("/evals/{run_id}/pair_labels")
async def add_label(request: Request, run_id: str, _: Writer) -> Response:
    store = store_of(request)
    label = store.label(run_id, await _body(request))
    return json_response({**label, "pairwise": verdicts.pairwise(store, run_id)})


@router.get("/evals/{run_id}/pair_labels")
def list_labels(request: Request, run_id: str, _: Reader) -> Response:
    store = store_of(request)
    with store._lock:
        return json_response({"object": "list", "data": list(store.get(run_id).labels.values())})


@router.delete("/evals/{run_id}/pair_labels")
def delete_label(request: Request, run_id: str, _: Writer, sample_index: int = -1, candidate: str = "") -> Response:
    store = store_of(request)
    with store._lock:
        run = store.get(run_id)
        if run.labels.pop((sample_index, candidate), None) is None:
            raise QueueError(404, "No such label", "not_found")
        run.samples[sample_index].graded[
            [g.arm for g in run.samples[sample_index].graded].index(candidate)
        ].human_verdict = None
        return json_response({"sample_index": sample_index, "candidate": candidate, "deleted": True})


@router.get("/evals/{run_id}/evidence")
def evidence(request: Request, run_id: str, _: Reader) -> Response:
    store = store_of(request)
    with store._lock:
        run = store.get(run_id)
        if store.status(run) != "DONE":
            raise QueueError(412, "Evidence exists only for DONE runs.", "precondition_failed")
        record = store.run_json(run)
    query = dict(request.query_params)
    given = any(verdicts.threshold(query.get(n)) is not None for n in verdicts.THRESHOLDS)
    gate_part = None
    if given:
        _status, verdict = verdicts.gate(store, run_id, query)
        gate_part = {
            "params": {k: v for k, v in query.items() if k in verdicts.THRESHOLDS + ("model",)},
            "verdict": verdict,
        }
    snapshot = record["criterion_snapshot"]
    body = {
        "signature": None,
        "unsigned": True,
        "bundle_v": 1,
        "generated_at": _now(),
        "run": {
            k: record[k]
            for k in (
                "id",
                "name",
                "eval_kind",
                "status",
                "created_at",
                "sample_count",
                "baseline_model",
                "candidate_models",
                "judge_model",
                "rubric_type",
                "sample_filters",
                "assertions",
            )
        }
        | {"workspace_id": "ws_demo"},
        "results": record["results"],
        "gate": gate_part,
        "instrument": {
            "judge_model": record["judge_model"],
            "judge_prompt": record["rubric"],
            "criterion_snapshot": snapshot,
            "certificate": None,
            "note": None,
        },
        "samples": {"count": len(run.samples), "note": None, "lineage": ["ab", "ba"] if not snapshot else ["abs"]},
        "content": {"included": False, "reason": "the simulated workspace does not store content"},
        "refusals": {"window_days": 7, "scope": "run", "count": 0, "complete": True, "events": []},
        "attestation": {
            "ok": True,
            "checked_rows": len(run.samples),
            "head_seq": len(run.samples),
            "problems": [],
            "acknowledged": False,
            "window": None,
            "chain_head": None,
            "statement": "simulated",
        },
    }
    return json_response(body)


def criterion_json(criterion: Criterion, store: RunStore) -> dict[str, Any]:
    from simulator.errorbar.results import wilson

    tp = round((criterion.tpr or 0) * criterion.positives_labelled)
    tn = round((criterion.tnr or 0) * criterion.negatives_labelled)
    return {
        "id": criterion.id,
        "name": criterion.name,
        "description": criterion.name,
        "judge_prompt": criterion.judge_prompt,
        "judge_model": criterion.judge_model,
        "status": "active",
        "source": "manual",
        "unit": criterion.unit,
        "population": criterion.population,
        "population_family": None,
        "online_enabled": False,
        "online_percent": 0,
        "online_cap_usd": None,
        "online_spent_usd": 0,
        "tier": {"trustworthy": "aligned", "misaligned": "misaligned"}.get(criterion.trust, "unmeasured"),
        "trust": criterion.trust,
        "fail_grades_needed": 0 if criterion.aligned else 30,
        "pass_grades_needed": 0 if criterion.aligned else 30,
        "tpr": criterion.tpr,
        "tnr": criterion.tnr,
        "kappa": criterion.kappa,
        "tpr_ci": wilson(tp, criterion.positives_labelled) if criterion.aligned else None,
        "tnr_ci": wilson(tn, criterion.negatives_labelled) if criterion.aligned else None,
        "alignment_n": criterion.positives_labelled + criterion.negatives_labelled or None,
        "aligned_at": criterion.aligned_at,
        "drift_status": "ok",
        "drift_signal": None,
        "drift_reason": None,
        "drift_checked_at": None,
        "created_at": "2026-11-01T09:00:00Z",
    }


def _criterion(store: RunStore, criterion_id: str) -> Criterion:
    found = store.criteria.get(criterion_id)
    if found is None:
        raise QueueError(404, "Criterion not found", "not_found")
    return found


@router.get("/criteria")
def list_criteria(request: Request, _: Reader) -> Response:
    store = store_of(request)
    return json_response({"object": "list", "data": [criterion_json(c, store) for c in store.criteria.values()]})


@router.get("/criteria/{criterion_id}")
def get_criterion(request: Request, criterion_id: str, _: Reader) -> Response:
    store = store_of(request)
    return json_response(criterion_json(_criterion(store, criterion_id), store))


@router.get("/criteria/{criterion_id}/alignment")
def alignment(request: Request, criterion_id: str, _: Reader) -> Response:
    store = store_of(request)
    with store._lock:
        return json_response(store.alignments.alignment(_criterion(store, criterion_id)))


@router.post("/criteria/{criterion_id}/align")
def align(request: Request, criterion_id: str, _: Admin) -> Response:
    store = store_of(request)
    with store._lock:
        return json_response(store.alignments.align(_criterion(store, criterion_id)))
