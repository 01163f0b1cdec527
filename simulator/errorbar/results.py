"""A finished run's ``results``, computed from its samples only (so every count can be
recomputed from ``GET /v1/evals/{id}/samples``), and the pairwise spec sheet.

The service's own arithmetic, re-done here (the simulator imports no product package):
Wilson 95 % intervals, a tie as half a win, failed pairs left out of the denominator
(ASSUMED: the contract does not say), ``unreportable`` when fewer than 80 % of the pairs got
a reading (ASSUMED), a Rogan–Gladen corrected pass rate whose interval maps the observed
interval's ends through the same correction (ASSUMED: the method is not stated).
"""

from __future__ import annotations

import math
from statistics import fmean
from typing import Any

from simulator.errorbar.samples import CLIP_CHARS, Sample
from simulator.errorbar.world import STORED

Z95 = 1.959963984540054
REPORTABLE_SHARE = 0.8
JUDGE_CALL_MICROS = 300


def wilson(successes: float, n: int) -> list[float] | None:
    if n <= 0:
        return None
    p, z2 = successes / n, Z95 * Z95
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = Z95 / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return [low, high]


def newcombe(x_b: float, n_b: int, x_a: float, n_a: int) -> list[float]:
    """Interval of (b rate − a rate), Newcombe's hybrid score method."""
    lb, ub = wilson(x_b, n_b) or [0.0, 1.0]
    la, ua = wilson(x_a, n_a) or [0.0, 1.0]
    delta = x_b / n_b - x_a / n_a
    below = Z95 * math.sqrt(lb * (1 - lb) / n_b + ua * (1 - ua) / n_a)
    above = Z95 * math.sqrt(ub * (1 - ub) / n_b + la * (1 - la) / n_a)
    return [max(-1.0, delta - below), min(1.0, delta + above)]


def rogan_gladen(observed: float, tpr: float | None, tnr: float | None) -> float | None:
    if tpr is None or tnr is None or tpr + tnr - 1 <= 0:
        return None
    return min(1.0, max(0.0, (observed + tnr - 1) / (tpr + tnr - 1)))


def _mean(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(fmean(known), 1) if known else None


def _clipped(samples: list[Sample]) -> int:
    def long(text: str) -> bool:
        return len(text) > CLIP_CHARS

    return sum(
        1
        for s in samples
        if long(s.request.prompt)
        or (s.baseline and long(s.baseline.text))
        or any(long(g.answer.text) for g in s.graded)
    )


def comparison_results(samples: list[Sample], spec: dict[str, Any]) -> dict[str, Any]:
    stored = spec["baseline_model"] == STORED
    bases = [s.baseline for s in samples if s.baseline is not None]
    base_cost = sum(b.cost_micros or 0 for b in bases)
    per_candidate = []
    judge_calls = 0
    for arm in spec["arms"]:
        rows = [g for s in samples for g in s.graded if g.arm == arm["key"]]
        count = {kind: sum(1 for g in rows if g.outcome == kind) for kind in ("win", "loss", "tie", "failed")}
        judged = count["win"] + count["loss"] + count["tie"]
        judge_calls += 2 * len(rows)
        score = count["win"] + count["tie"] / 2
        ci = wilson(score, judged)
        cost = sum(g.answer.cost_micros or 0 for g in rows)
        share = judged / len(rows) if rows else 0.0
        per_candidate.append(
            {
                "model": arm["model"],
                "arm": arm["key"],
                "wins": count["win"],
                "losses": count["loss"],
                "ties": count["tie"],
                "failed": count["failed"],
                "attempted": len(rows),
                "judged_share": round(share, 4),
                "unreportable": share < REPORTABLE_SHARE,
                "win_rate": score / judged if judged else None,
                "ci95": ci,
                "inconclusive": ci is None or ci[0] <= 0.5 <= ci[1],
                "truncated": sum(1 for g in rows if g.answer.truncated),
                "avg_latency_ms": _mean([g.answer.latency_ms for g in rows]),
                "eval_cost_micros": cost,
                "savings_pct": None if stored or not base_cost else round(100 * (base_cost - cost) / base_cost, 1),
            }
        )
        if spec["sample_filters"].get("trace_replay"):  # ASSUMED shape: the agent runs and steps replayed
            steps = [s.request for s in samples if s.request.trace_id is not None]
            per_candidate[-1]["replay"] = {"runs": len({r.trace_id for r in steps}), "steps": len(steps)}
    results: dict[str, Any] = {
        "sample_count": len(samples),
        "clipped_samples": _clipped(samples),
        "baseline": {
            "model": spec["baseline_model"],
            "stored_answers": stored,
            "truncated": sum(1 for b in bases if b.truncated),
            "avg_latency_ms": _mean([b.latency_ms for b in bases]),
            "eval_cost_micros": base_cost,
        },
        "per_candidate": per_candidate,
        "judge_cost_micros": judge_calls * JUDGE_CALL_MICROS,
    }
    if spec.get("assertions"):
        results["assertion_results"] = assertion_results(samples, spec)
    return results


def criterion_results(samples: list[Sample], spec: dict[str, Any]) -> dict[str, Any]:
    snapshot = spec["criterion_snapshot"] or {}
    tpr, tnr = snapshot.get("tpr"), snapshot.get("tnr")
    keys = [spec["baseline_model"]] + [arm["key"] for arm in spec["arms"]]
    per_model = []
    for key in keys:
        rows = [g for s in samples for g in s.graded if g.arm == key]
        passed = sum(1 for g in rows if g.outcome == "pass")
        failed = sum(1 for g in rows if g.outcome == "fail")
        judged = passed + failed
        observed = passed / judged if judged else None
        ci = wilson(passed, judged)
        corrected = rogan_gladen(observed, tpr, tnr) if observed is not None else None
        corrected_ci = None
        if corrected is not None and ci is not None:
            corrected_ci = [rogan_gladen(ci[0], tpr, tnr), rogan_gladen(ci[1], tpr, tnr)]
        per_model.append(
            {
                "model": key,
                "judged_pass": passed,
                "judged_fail": failed,
                "unparsed": sum(1 for g in rows if g.outcome == "unparsed"),
                "truncated": sum(1 for g in rows if g.answer.truncated),
                "observed_pass_rate": observed,
                "observed_ci": ci,
                "corrected_pass_rate": corrected,
                "corrected_ci": corrected_ci,
                "avg_latency_ms": _mean([g.answer.latency_ms for g in rows]),
                "eval_cost_micros": sum(g.answer.cost_micros or 0 for g in rows),
            }
        )
    results: dict[str, Any] = {
        "eval_kind": "criterion",
        "sample_count": len(samples),
        "clipped_samples": _clipped(samples),
        "criterion": {"id": snapshot.get("criterion_id"), "name": snapshot.get("name")},
        "per_model": per_model,
        "judge_youden": None if tpr is None or tnr is None else round(tpr + tnr - 1, 4),
        "judge_cost_micros": len(samples) * len(keys) * JUDGE_CALL_MICROS,
    }
    if spec.get("assertions"):
        results["assertion_results"] = assertion_results(samples, spec)
    return results


def assertion_results(samples: list[Sample], spec: dict[str, Any]) -> dict[str, Any]:
    """ASSUMED shape (the page names ``assertion_results`` only): per arm, how many answers
    passed every assertion, and each assertion's pass count."""
    configs = spec.get("assertions") or []
    keys = (
        sorted({g.arm for s in samples for g in s.graded}, key=[g.arm for g in samples[0].graded].index)
        if samples
        else []
    )
    per_model = []
    for key in keys:
        rows = [g for s in samples for g in s.graded if g.arm == key]
        all_passed = sum(1 for g in rows if all(g.assertions))
        per_model.append(
            {
                "model": key,
                "answers": len(rows),
                "passed_all": all_passed,
                "pass_rate": all_passed / len(rows) if rows else None,
                "per_assertion": [
                    {"type": c.get("type"), "passed": sum(1 for g in rows if g.assertions[i])}
                    for i, c in enumerate(configs)
                ],
            }
        )
    return {"per_model": per_model}


def spec_sheet(samples: list[Sample], arm: str) -> dict[str, Any]:
    """One arm's pairwise spec sheet (ASSUMED key names for the intervals)."""
    rows = [g for s in samples for g in s.graded if g.arm == arm]
    both = [g for g in rows if g.orderings.get("ab") is not None and g.orderings.get("ba") is not None]
    readings = [(g.orderings["ab"], g.orderings["ba"]) for g in both]
    consistent = sum(1 for ab, ba in readings if ab == ba)
    # ab shows the baseline first, ba the candidate first: a pick of "first" per reading
    first = sum((ab == "baseline") + (ba == "candidate") for ab, ba in readings)
    second = sum((ab == "candidate") + (ba == "baseline") for ab, ba in readings)
    ties = sum((ab == "tie") + (ba == "tie") for ab, ba in readings)
    total = 2 * len(readings)
    return {
        "pairs": len(rows),
        "failed_pairs": len(rows) - len(both),
        "swap_consistency": consistent / len(both) if both else None,
        "swap_consistency_ci": wilson(consistent, len(both)),
        "picks_first": first,
        "picks_second": second,
        "picks_tie": ties,
        "first_minus_second": (first - second) / total * 100 if total else None,
        "tie_rate": ties / total if total else None,
        "disagreement_ties": sum(1 for ab, ba in readings if ab != ba),
    }
