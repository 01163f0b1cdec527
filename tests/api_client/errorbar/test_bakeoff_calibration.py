"""Calibration, criteria alignment, evidence, failure clusters and delete: the errorbar client
against the queue simulator over real HTTP, and every figure the app shows checked against a
reference computation (scipy) from the samples and labels the queue returned."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from api_client.errorbar import ErrorbarClient, PreconditionError
from api_client.errorbar.records import answer_from_sample
from api_client.errorbar.shapes import Run
from api_client.errors import BadRequestError, NotFoundError
from application.bakeoffs import calibration, clusters, criteria, evidence, verdict
from application.bakeoffs.judge_quality import informedness, judge_reading
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server
from tests.support.scipy_reference import scipy_stats

JUDGE = {"win": "candidate", "loss": "baseline", "tie": "tie"}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def person(judge: str, k: int) -> str:
    """A person who mostly agrees with the judge and overrules it on every fourth pair."""
    if k % 4 != 3:
        return judge
    return {"candidate": "tie", "tie": "baseline", "baseline": "candidate"}[judge]


async def label_pairs(client: ErrorbarClient, run_id: str, count: int) -> int:
    samples = await client.samples(run_id)
    k = 0
    for sample in samples:
        for answer in sample.candidates:
            if k >= count:
                return k
            if answer.outcome in JUDGE:
                await client.add_pair_label(run_id, sample.index or 0, answer.model, person(JUDGE[answer.outcome], k))
                k += 1
    return k


def wilson(k: int, n: int) -> tuple[float, float]:
    ci = scipy_stats().binomtest(k, n).proportion_ci(method="wilson")
    return float(ci.low), float(ci.high)


def reference(samples: list[Any]) -> dict[str, Any]:
    """Agreement, Cohen's kappa (from the confusion matrix) and per-side Se/Sp with Wilson
    intervals, recomputed from the samples' outcome (judge) and human_verdict (person)."""
    order = ["candidate", "baseline", "tie"]
    pairs = [
        (JUDGE[a.outcome], a.human_verdict)
        for s in samples
        for a in s.candidates
        if a.human_verdict and a.outcome in JUDGE
    ]
    matrix = np.zeros((3, 3))
    for j, h in pairs:
        matrix[order.index(j), order.index(h)] += 1
    n = matrix.sum()
    po = np.trace(matrix) / n
    pe = float((matrix.sum(axis=1) / n) @ (matrix.sum(axis=0) / n))
    sides = {}
    for name, said in (("wins", {"candidate"}), ("losses", {"baseline"}), ("decided", {"candidate", "baseline"})):
        pos = [j for j, h in pairs if h in said]
        neg = [j for j, h in pairs if h not in said]
        tp, tn = sum(j in said for j in pos), sum(j not in said for j in neg)
        sides[name] = (tp, len(pos), tn, len(neg))
    return {"n": int(n), "agreement": float(po), "kappa": (float(po) - pe) / (1 - pe), "sides": sides}


def corrected_reference(
    wins: int, losses: int, judged: int, sides: dict[str, tuple[int, int, int, int]]
) -> tuple[float, float, float]:
    """The corrected win rate and its interval by the formula the simulator documents
    (Rogan-Gladen per side, delta-method variance with adjusted estimates)."""
    Z = float(scipy_stats().norm.ppf(0.975))
    terms = []
    for count, (tp, pos, tn, neg) in ((wins, sides["wins"]), (losses, sides["losses"])):
        se, sp = tp / pos, tn / neg
        j = se + sp - 1
        rate = min(1.0, max(0.0, (count / judged + sp - 1) / j))
        p_adj = (count + Z * Z / 2) / (judged + Z * Z)
        se_adj, sp_adj = (tp + 1) / (pos + 2), (tn + 1) / (neg + 2)
        sampling = p_adj * (1 - p_adj) / (judged + Z * Z) / j**2
        calib = (
            rate**2 * se_adj * (1 - se_adj) / (pos + 2) + (1 - rate) ** 2 * sp_adj * (1 - sp_adj) / (neg + 2)
        ) / j**2
        terms.append((rate, j, p_adj, sampling, calib))
    (w, jw, pw, sw, cw), (loss, jl, pl, sl, cl) = terms
    variance = (sw + sl + 2 * pw * pl / (judged + Z * Z) / (jw * jl) + cw + cl) / 4
    rate = min(1.0, max(0.0, 0.5 + (w - loss) / 2))
    half = Z * math.sqrt(variance)
    return rate, max(0.0, rate - half), min(1.0, rate + half)


# ---------------------------------------------------------------- pair labels and the calibration


async def test_labels_move_the_calibration_and_every_figure_matches_a_reference(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    async with ErrorbarClient(queue.base_url, queue.member_key) as client:
        before = await client.pairwise(run_id)
        assert before.labelled_pairs == 0 and before.calibration is None
        assert all(arm.corrected is None for arm in before.candidates.values())
        await label_pairs(client, run_id, 12)
        run, pairwise, samples = (
            await client.get_run(run_id),
            await client.pairwise(run_id),
            await client.samples(run_id),
        )
    figures = calibration.panel(run, pairwise)
    ref = reference(samples)
    assert figures.labelled == 12 and figures.counted == ref["n"] == 12
    assert figures.agreement == pytest.approx(ref["agreement"]) and figures.kappa == pytest.approx(ref["kappa"])
    for side in figures.sides:
        tp, pos, tn, neg = ref["sides"][side.name]
        assert (side.positives, side.negatives) == (pos, neg)
        if pos:
            assert side.sensitivity == pytest.approx(tp / pos)
            assert side.sensitivity_ci == pytest.approx(wilson(tp, pos))
        if neg:
            assert side.specificity == pytest.approx(tn / neg)
            assert side.specificity_ci == pytest.approx(wilson(tn, neg))
    assert not figures.usable and figures.labels_needed == 18
    assert (
        calibration.labels_needed_sentence(figures)
        == "label 18 more pairs for a corrected win rate (12 of 30 counted so far)"
    )
    assert all(arm.corrected is None for arm in figures.arms)
    assert calibration.recompute(a for s in samples for a in map(answer_from_sample, s.candidates)).matches(figures)


async def test_thirty_labels_bring_the_corrected_win_rate_beside_the_printed_one(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    async with ErrorbarClient(queue.base_url, queue.member_key) as client:
        await label_pairs(client, run_id, 30)
        run, pairwise, samples = (
            await client.get_run(run_id),
            await client.pairwise(run_id),
            await client.samples(run_id),
        )
        _status, gate = await client.gate(run_id, {"min_win_rate": 0.2})
    figures = calibration.panel(run, pairwise)
    assert figures.usable and figures.reason is None and figures.labels_needed == 0
    ref = reference(samples)
    assert run.results is not None and run.results.pairwise is not None  # results carry the same block
    assert run.results.pairwise["calibration"]["n"] == 30
    for arm in figures.arms:
        rows = [a for s in samples for a in s.candidates if a.model == arm.key]
        wins, losses = sum(a.outcome == "win" for a in rows), sum(a.outcome == "loss" for a in rows)
        judged = wins + losses + sum(a.outcome == "tie" for a in rows)
        rate, low, high = corrected_reference(wins, losses, judged, ref["sides"])
        assert arm.corrected == pytest.approx(rate) and arm.corrected_ci == pytest.approx((low, high))
        assert arm.printed == pytest.approx((wins + (judged - wins - losses) / 2) / judged)
    # the gate's basis is the corrected interval once the calibration is usable
    assert all("basis corrected: 30 human pair labels" in (c.note or "") for c in gate.checks)
    assert [c.actual for c in gate.checks] == pytest.approx([a.corrected_ci[0] for a in figures.arms])  # type: ignore[index]


async def test_a_label_overwrites_and_removes(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, COMPARISON)["id"]
    async with ErrorbarClient(queue.base_url, queue.member_key) as client:
        first = await client.add_pair_label(run_id, 0, "you/tiny-sft-v3", "candidate", "clearer")
        again = await client.add_pair_label(run_id, 0, "you/tiny-sft-v3", "tie")
        labels = await client.pair_labels(run_id)
        assert [(lab.sample_index, lab.candidate, lab.verdict) for lab in labels] == [(0, "you/tiny-sft-v3", "tie")]
        assert first.pairwise is not None and again.pairwise is not None
        samples = await client.samples(run_id)
        assert samples[0].candidates[0].human_verdict == "tie"
        await client.delete_pair_label(run_id, 0, "you/tiny-sft-v3")
        assert await client.pair_labels(run_id) == []
        assert (await client.pairwise(run_id)).calibration is None
        assert (await client.samples(run_id))[0].candidates[0].human_verdict is None


async def test_a_label_on_a_criterion_run_is_refused_here_and_by_the_queue(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, CRITERION)["id"]
    async with ErrorbarClient(queue.base_url, queue.member_key) as client:
        run = await client.get_run(run_id)
        with pytest.raises(calibration.LabelRefused, match="pair labels are for comparison runs"):
            calibration.check_label(run, 0, "you/tiny-sft-v3", "candidate")
        with pytest.raises(BadRequestError, match="comparison runs only"):
            await client.add_pair_label(run_id, 0, "you/tiny-sft-v3", "candidate")


def test_check_label_refuses_what_the_queue_would() -> None:
    run = Run.model_validate({"id": "ev_1", "eval_kind": "comparison", "candidate_models": ["a", "b"]})
    calibration.check_label(run, 3, "a", "tie", sample_count=10)
    for args, said in (
        ((3, "c", "tie"), "not an arm"),
        ((10, "a", "tie"), r"sample #11 is not a sample of ev_1 \(its samples are #1\.\.#10\)"),  # people's numbers
        ((-1, "a", "tie"), "not a sample"),
        ((3, "a", "better"), "candidate, baseline or tie"),
    ):
        with pytest.raises(calibration.LabelRefused, match=said):
            calibration.check_label(run, *args, sample_count=10)  # type: ignore[arg-type]
    with pytest.raises(calibration.LabelRefused, match="2000"):
        calibration.check_label(run, 3, "a", "tie", "x" * 2001)


# ---------------------------------------------------------------- criteria and align


async def test_align_computes_tpr_and_tnr_from_the_labels(queue: ErrorbarServer) -> None:
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        tone = await client.criterion("crit_tone")
        assert tone.tpr is None and criteria.criterion_row(tone).reading is not None
        with pytest.raises(BadRequestError, match="no alignment run yet"):
            await client.alignment("crit_tone")
        report = await client.align("crit_tone")
        assert not report.queued and report.metrics is not None
        again = await client.criterion("crit_tone")
    labels = queue.store.alignments.states["crit_tone"].labels
    positives = [lab for lab in labels if lab.human_verdict == "pass"]
    negatives = [lab for lab in labels if lab.human_verdict == "fail"]
    tp = sum(lab.judge_verdict == "pass" for lab in positives)
    tn = sum(lab.judge_verdict == "fail" for lab in negatives)
    metrics = report.metrics
    assert metrics.n == len(labels) == 36
    assert metrics.tpr == pytest.approx(tp / len(positives)) and metrics.tnr == pytest.approx(tn / len(negatives))
    assert metrics.tpr_ci == pytest.approx(wilson(tp, len(positives)))
    assert metrics.tnr_ci == pytest.approx(wilson(tn, len(negatives)))
    judge = np.array([lab.judge_verdict == "pass" for lab in labels], dtype=float)
    human = np.array([lab.human_verdict == "pass" for lab in labels], dtype=float)
    po = float(np.mean(judge == human))
    pe = float(judge.mean() * human.mean() + (1 - judge.mean()) * (1 - human.mean()))
    assert metrics.kappa == pytest.approx((po - pe) / (1 - pe))
    assert len(report.disagreements) == len(labels) - tp - tn
    assert {d.critique for d in report.disagreements} >= {"[bold]ignores the question[/bold]"}  # verbatim
    assert (again.tpr, again.tnr, again.trust) == (metrics.tpr, metrics.tnr, "trustworthy")


async def test_a_large_align_is_queued_polled_in_progress_then_reported(queue: ErrorbarServer) -> None:
    reads: list[criteria.AlignProgress] = []

    async def sleep(_: float) -> None:
        if len(reads) == 2:
            queue.store.alignments.finish("crit_helpful")

    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        report = await criteria.align_and_wait(client, "crit_helpful", sleep=sleep, on_progress=reads.append)
    assert [r.total for r in reads] == [100, 100] and all(r.judged is not None for r in reads)
    assert report.metrics is not None and report.metrics.n == 100
    assert report.metrics.tpr == pytest.approx(0.90) and report.metrics.tnr == pytest.approx(0.84)
    posts = [r for r in queue.requests.records() if r.method == "POST" and r.path.endswith("/align")]
    assert len(posts) == 1  # sent once, then only free reads


def test_the_judge_reading_of_a_chance_judge() -> None:
    assert informedness(0.55, 0.40) == pytest.approx(-0.05)
    assert informedness(None, 0.9) is None
    assert judge_reading(0.55, 0.40, -0.05) == "this pass rate says nothing: the judge's TPR+TNR-1 is -0.05"
    assert judge_reading(0.90, 0.84, 0.72) is None
    assert "kappa 0.15" in (judge_reading(0.8, 0.6, 0.15) or "")
    assert "never checked against human labels" in (judge_reading(None, None, None) or "")


# ---------------------------------------------------------------- evidence, delete, clusters


async def test_evidence_is_412_before_done_written_verbatim_after_and_404_once_deleted(
    queue: ErrorbarServer, tmp_path: Path
) -> None:
    live = queue_run(queue, COMPARISON, finish=False)["id"]
    done = queue_run(queue, COMPARISON)["id"]
    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        with pytest.raises(PreconditionError) as not_done:
            await client.evidence(live)
        assert evidence.evidence_error_sentence(not_done.value, live).startswith(f"{live} is not finished yet")
        bundle = await client.evidence(done, {"min_win_rate": 0.3})
        with pytest.raises(BadRequestError, match="Cancel it first"):
            await client.delete_run(live)
        assert await client.delete_run(done) == done
        with pytest.raises(NotFoundError) as gone:
            await client.evidence(done)
    target = evidence.write_bundle(tmp_path / "bundle.json", bundle.raw)
    assert target.read_bytes() == bundle.raw and json.loads(bundle.raw)["run"]["id"] == done
    summary = evidence.summarize(bundle.evidence)
    assert summary.signed.startswith("unsigned") and summary.attestation_ok is True
    assert summary.content.startswith("content not asked for") and "does not store content" in summary.content
    assert summary.gate is not None and summary.gate.startswith("gate FAIL (min_win_rate=0.3)")
    assert "it was deleted" in evidence.evidence_error_sentence(gone.value, done)


async def test_failure_clusters_are_cached_and_force_is_one_metered_call(queue: ErrorbarServer) -> None:
    queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})
    async with ErrorbarClient(queue.base_url, queue.member_key) as client:
        fresh = await client.failure_clusters()
        cached = await client.failure_clusters()
        forced = await client.failure_clusters(force=True)
    assert (fresh.cached, cached.cached, forced.cached) == (False, True, False)
    assert queue.store.alignments.clusters.metered_calls == 2
    rows = clusters.cluster_rows(fresh, "crit_concise")
    assert rows and all(r.criterion_id == "crit_concise" for r in rows)
    assert sum(r.count or 0 for r in rows) == rows[0].failures
    assert "cache" in clusters.freshness(cached) and "freshly clustered" in clusters.freshness(fresh)


# ---------------------------------------------------------------- the verdict


def _comparison(ci: list[float], **row: Any) -> Run:
    return Run.model_validate(
        {
            "id": "ev_9",
            "status": "DONE",
            "eval_kind": "comparison",
            "baseline_model": "big",
            "candidate_models": ["small"],
            "results": {
                "per_candidate": [
                    {
                        "model": "small",
                        "wins": 30,
                        "losses": 10,
                        "ties": 10,
                        "win_rate": 0.7,
                        "ci95": ci,
                        "unreportable": False,
                        "savings_pct": 38.0,
                        **row,
                    }
                ]
            },
        }
    )


def test_the_verdict_switch_dont_and_not_enough_evidence() -> None:
    switch = verdict.verdict(_comparison([0.55, 0.82]))
    assert switch.answer == verdict.SWITCH and switch.candidate == "small" and switch.exit_code == 0
    assert switch.sentence.startswith(
        "switch to small: small is not worse: printed win rate (the interval the queue's gate reads) 0.700 "
        "[0.550, 0.820] stays at or above 0.500"
    )
    assert "costs 38% less" in switch.why and switch.reading is not None  # no labels: said beside it
    dont = verdict.verdict(_comparison([0.20, 0.45], win_rate=0.32))
    assert dont.answer == verdict.DONT and dont.exit_code == 1
    unsure = verdict.verdict(_comparison([0.40, 0.62], win_rate=0.51))
    assert unsure.answer == verdict.UNSURE and unsure.exit_code == 3
    assert unsure.settle is not None and "30 labelled pairs" in unsure.settle
    # 0.51 against 0.5 on 50 pairs would take thousands of samples: never advised past the queue's cap
    assert unsure.settle.startswith("one run cannot settle it if the figure holds at 0.510 (now 50 judged samples)")
    assert "the queue caps a run at 500 samples; instead: a margin of at least 2.5 points" in unsure.settle
    assert "about 13 runs of 500 read together" in unsure.settle
    unreportable = verdict.verdict(_comparison([0.55, 0.82], unreportable=True))
    assert unreportable.answer == verdict.UNSURE and "unreportable" in unreportable.why


async def test_the_verdict_on_a_chance_judge_says_it_says_nothing(queue: ErrorbarServer) -> None:
    run_id = queue_run(queue, {**CRITERION, "criterion_id": "crit_concise"})["id"]
    async with ErrorbarClient(queue.base_url, queue.read_key) as client:
        run = await client.get_run(run_id)
    answer = verdict.verdict(run)
    assert answer.answer == verdict.UNSURE
    assert answer.why.startswith("this pass rate says nothing: the judge's TPR+TNR-1 is -0.05")
    assert answer.settle is not None and "calibrated criterion" in answer.settle


def test_not_finished_is_not_enough_evidence() -> None:
    run = Run.model_validate({"id": "ev_2", "status": "RUNNING", "eval_kind": "comparison"})
    answer = verdict.verdict(run)
    assert (answer.answer, answer.settle) == (verdict.UNSURE, "wait for it to finish (bakeoff watch)")


def test_the_next_pair_to_label_follows_sample_order_not_the_losses_first_view() -> None:
    from types import SimpleNamespace as Row

    def row(index: int, arm: str, outcome: str, verdict: str | None = None) -> Any:
        return Row(key=f"{index}:{arm}", index=index, arm=arm, outcome=outcome, answer=Row(human_verdict=verdict))

    rows = [
        row(5, "a", "loss"),
        row(0, "a", "win", "tie"),
        row(0, "b", "failed"),
        row(1, "a", "tie"),
        row(2, "b", "win"),
        row(2, "a", "loss"),
    ]
    assert calibration.next_pair(rows, "5:a") == "1:a"  # wraps; skips the labelled and the unread pair
    assert calibration.next_pair(rows, "1:a") == "2:a"
    assert calibration.next_pair(rows, "2:a") == "2:b"
    assert calibration.next_pair([row(0, "a", "win", "tie")], "0:a") is None


def test_an_evidence_summary_names_a_signature_and_each_attestation_problem() -> None:
    from api_client.errorbar.shapes import Evidence

    bundle = Evidence.model_validate(
        {
            "signature": "ed25519:abc",
            "run": {"id": "ev_3"},
            "samples": {"count": 40, "lineage": ["ab", "ba"]},
            "content": {"included": False, "reason": "the workspace does not store content"},
            "gate": {"params": {"min_pass_rate": "0.5"}, "verdict": {"pass": True, "checks": []}},
            "attestation": {
                "ok": False,
                "checked_rows": 40,
                "problems": [
                    {"seq": 12, "kind": "hash_mismatch", "detail": "row 12 changed after signing"},
                    "a gap before row 30",
                ],
            },
        }
    )
    summary = evidence.summarize(bundle, with_content_asked=True)
    assert summary.signed == "signed by the queue" and summary.attestation_ok is False
    assert summary.attestation == "attestation FAILED (40 rows checked): 2 problems"
    assert summary.problems == ("row 12: hash_mismatch: row 12 changed after signing", "a gap before row 30")
    assert summary.content == "content asked for, but not included: the workspace does not store content"
    assert summary.gate == "gate PASS (min_pass_rate=0.5)" and summary.gate_pass is True
    assert summary.samples == "40 samples · read as: judged in one order (ab); judged in the swapped order (ba)"


async def test_a_lost_align_answer_is_settled_by_reading_never_by_sending_again(queue: ErrorbarServer) -> None:
    queue.lose_next_answer("POST", "/v1/criteria/crit_tone/align")

    async def sleep(_: float) -> None:
        return None

    async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
        report = await criteria.align_and_wait(client, "crit_tone", sleep=sleep)
    assert report.metrics is not None and report.metrics.n == 36
    posts = [r for r in queue.requests.records() if r.method == "POST" and r.path.endswith("/align")]
    assert len(posts) == 1


def test_the_samples_needed_grow_the_side_of_the_interval_that_reaches_the_line() -> None:
    run = _comparison([0.221, 0.505], win_rate=0.35)
    answer = verdict.verdict(run)
    n = 50  # 30 wins + 10 losses + 10 ties
    needed = math.ceil(n * ((0.505 - 0.35) / (0.5 - 0.35)) ** 2)
    assert answer.settle is not None and answer.settle.startswith(f"about {needed} judged samples (now {n})")
    assert needed > n
