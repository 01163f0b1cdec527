"""Screening (``POST /v1/evals`` with ``"screening": true``): the run the queue fills in by
itself, and the ``results.screening`` block it computes from the workspace's world.

- The incumbent is the dominant logged model; its logged answers are the baseline
  (``__stored__``), so the samples are drawn from the incumbent's own traffic.
- The candidates are the cheapest chat model of each family other than the incumbent's (or
  the ``candidate_models`` asked for).
- Each candidate's answer is read once more by the judge against the incumbent's logged
  answer (the ``sim`` lineage): matched, differed or unparsed. The match rate (matched over
  matched + differed) carries a 95 % Wilson interval; it is never part of win/loss.
- Cost: the incumbent's token shape (median prompt and answer tokens of its logged traffic)
  priced at the incumbent's rate; a candidate's estimate is the same prompts with the answers
  it gave in this run (median tokens), at its own rate. Monthly figures scale the estimate by
  the incumbent's monthly request volume (a fact of the simulated world).
- The recommendation: "switch" to the candidate with the largest monthly saving among those at
  least ``SWITCH_MIN_SAVINGS_PCT`` cheaper whose match-rate interval starts at
  ``SWITCH_MIN_MATCH_LOWER`` or above; otherwise "keep" (a good outcome).

The contract lists ``{incumbent, token_shape, per_candidate:[{model, similarity:{matched,
differed, unparsed, judged, match_rate, ci95}, est_usd_per_request, est_savings_pct,
projected_monthly_usd, projected_monthly_savings_usd, ...placement}], recommendation}`` and
says the service's own client reads ``status``, ``quality`` and ``recommendation.action``
(``"switch"``). Everything else here is ASSUMED (the simulator's choice, mirrored in
``api_client/errorbar/shapes.py``): the incumbent and token-shape objects' keys, the
placement values, the recommendation's ``model`` and ``reason``, the thresholds, the volume.
"""

from __future__ import annotations

import random
from statistics import median
from typing import Any

from simulator.errorbar.errors import QueueError
from simulator.errorbar.results import JUDGE_CALL_MICROS, wilson
from simulator.errorbar.samples import Sample
from simulator.errorbar.world import CATALOG_BY_ID, JudgeBehaviour, LoggedRequest, price

INCUMBENT_REQUESTS_PER_MONTH = 120_000
"""The workspace's production volume on its incumbent (request logging captures a sample of it)."""
SWITCH_MIN_SAVINGS_PCT = 10.0
SWITCH_MIN_MATCH_LOWER = 0.6
SIMILARITY_READ_RIGHT = 0.95
"""The judge's similarity reading says what is true this often (else the opposite)."""
QUALITY_GAP_WEIGHT = 0.8
"""Two models agree less the further apart their qualities: P(same answer) = 1 − 0.8·|gap|."""
MAX_SCREENING_SAMPLES = 40


def incumbent_of(traffic: list[LoggedRequest]) -> str | None:
    counts: dict[str, int] = {}
    for row in traffic:
        counts[row.model] = counts.get(row.model, 0) + 1
    return max(counts, key=lambda m: counts[m]) if counts else None


def screening_pool(traffic: list[LoggedRequest], incumbent: str) -> list[LoggedRequest]:
    """The incumbent's own logged requests: its answers are the stored baseline."""
    return [row for row in traffic if row.model == incumbent]


def default_candidates(incumbent: str) -> list[str]:
    """The cheapest chat model of each family other than the incumbent's, cheapest first."""
    family = CATALOG_BY_ID[incumbent].family
    cheapest: dict[str, str] = {}
    for spec in sorted(CATALOG_BY_ID.values(), key=lambda m: m.micros_per_token):
        if spec.chat and spec.family != family and spec.family not in cheapest:
            cheapest[spec.family] = spec.id
    return list(cheapest.values())[:6]


def nothing_to_screen(why: str) -> QueueError:
    return QueueError(422, f"Nothing to screen: {why}", "unprocessable")


def prompt_tokens(request: LoggedRequest) -> int:
    """A logged prompt's size (about four characters a token)."""
    return max(1, len(request.prompt) // 4)


def logged_answer_tokens(request: LoggedRequest) -> int:
    """The logged answer's size: the model's typical length, drawn once per request."""
    spec = CATALOG_BY_ID[request.model]
    rng = random.Random(f"errorbar-logged-tokens:{request.id}")
    return max(20, int(rng.gauss(spec.tokens, spec.tokens * 0.35)))


def token_shape(rows: list[LoggedRequest]) -> dict[str, Any]:
    prompts = sorted(prompt_tokens(r) for r in rows)
    answers = sorted(logged_answer_tokens(r) for r in rows)
    p90 = answers[min(len(answers) - 1, int(0.9 * len(answers)))] if answers else None
    return {
        "requests": len(rows),
        "median_prompt_tokens": median(prompts) if prompts else None,
        "median_output_tokens": median(answers) if answers else None,
        "p90_output_tokens": p90,
    }


def estimated_spend_usd(spec: dict[str, Any], rows: list[LoggedRequest]) -> float:
    """What the screening run would cost: every candidate answers every sample, judged three
    times (two orderings and the similarity reading)."""
    shape = token_shape(rows)
    prompt = int(shape["median_prompt_tokens"] or 0)
    micros = 0
    for arm in spec["arms"]:
        micros += price(arm["model"], prompt + CATALOG_BY_ID[arm["model"]].tokens) * spec["sample_count"]
        micros += 3 * JUDGE_CALL_MICROS * spec["sample_count"]
    return micros / 1e6


def agreement(candidate: str, incumbent: str) -> float:
    gap = abs(CATALOG_BY_ID[candidate].quality - CATALOG_BY_ID[incumbent].quality)
    return max(0.05, 1.0 - QUALITY_GAP_WEIGHT * gap)


def read_similarity(samples: list[Sample], spec: dict[str, Any], seed: int, run_id: str, judge: JudgeBehaviour) -> None:
    """Give each candidate answer of a screening run its similarity reading (drawn once)."""
    incumbent = spec["incumbent"]
    models = {arm["key"]: arm["model"] for arm in spec["arms"]}
    for sample in samples:
        rng = random.Random(f"errorbar-similarity:{seed}:{run_id}:{sample.index}")
        for graded in sample.graded:
            if rng.random() < judge.failure_rate:
                graded.similarity = "unparsed"
                continue
            same = not graded.answer.truncated and rng.random() < agreement(models[graded.arm], incumbent)
            right = rng.random() < SIMILARITY_READ_RIGHT
            graded.similarity = "matched" if same == right else "differed"


def _usd(micros: float) -> float:
    return round(micros / 1e6, 6)


def screening_block(samples: list[Sample], spec: dict[str, Any], traffic: list[LoggedRequest]) -> dict[str, Any]:
    """``results.screening`` of a finished screening run, from its samples and the world."""
    incumbent = spec["incumbent"]
    pool = screening_pool(traffic, incumbent)
    shape = token_shape(pool)
    prompt = float(shape["median_prompt_tokens"] or 0)
    incumbent_micros = price(incumbent, 1) * (prompt + float(shape["median_output_tokens"] or 0))
    incumbent_month = incumbent_micros * INCUMBENT_REQUESTS_PER_MONTH
    judge_family = CATALOG_BY_ID[spec["judge_model"]].family if spec["judge_model"] in CATALOG_BY_ID else None
    per_candidate = []
    for arm in spec["arms"]:
        rows = [g for s in samples for g in s.graded if g.arm == arm["key"]]
        matched = sum(1 for g in rows if g.similarity == "matched")
        differed = sum(1 for g in rows if g.similarity == "differed")
        unparsed = sum(1 for g in rows if g.similarity == "unparsed")
        judged = matched + differed
        rate_per_token = price(arm["model"], 1)
        answer_tokens = (
            median(g.answer.cost_micros / rate_per_token for g in rows if g.answer.cost_micros) if rows else 0.0
        )
        micros = rate_per_token * (prompt + answer_tokens)
        savings = 100 * (incumbent_micros - micros) / incumbent_micros if incumbent_micros else None
        ci = wilson(matched, judged)
        quality = (
            "uncertain"
            if ci is None
            else "similar"
            if ci[0] >= SWITCH_MIN_MATCH_LOWER
            else "different"
            if ci[1] < SWITCH_MIN_MATCH_LOWER
            else "uncertain"
        )
        per_candidate.append(
            {
                "model": arm["model"],
                "arm": arm["key"],
                "similarity": {
                    "matched": matched,
                    "differed": differed,
                    "unparsed": unparsed,
                    "judged": judged,
                    "match_rate": matched / judged if judged else None,
                    "ci95": ci,
                },
                "est_usd_per_request": _usd(micros),
                "est_savings_pct": None if savings is None else round(savings, 1),
                "projected_monthly_usd": round(micros * INCUMBENT_REQUESTS_PER_MONTH / 1e6, 2),
                "projected_monthly_savings_usd": round(
                    (incumbent_month - micros * INCUMBENT_REQUESTS_PER_MONTH) / 1e6, 2
                ),
                "status": "cheaper" if savings is not None and savings >= SWITCH_MIN_SAVINGS_PCT else "not_cheaper",
                "quality": quality,
            }
        )
    eligible = [c for c in per_candidate if c["status"] == "cheaper" and c["quality"] == "similar"]
    if eligible:
        best = max(eligible, key=lambda c: c["projected_monthly_savings_usd"])
        recommendation = {
            "action": "switch",
            "model": best["model"],
            "reason": f"{best['model']} is {best['est_savings_pct']:.0f}% cheaper per request and its "
            "answers match the incumbent's often enough to be worth a full bake-off.",
        }
    else:
        recommendation = {
            "action": "keep",
            "model": None,
            "reason": f"No screened model is at least {SWITCH_MIN_SAVINGS_PCT:.0f}% cheaper with answers "
            f"that match the incumbent's (match-rate interval from "
            f"{SWITCH_MIN_MATCH_LOWER:.0%} up).",
        }
    return {
        "incumbent": {
            "model": incumbent,
            "est_usd_per_request": _usd(incumbent_micros),
            "projected_monthly_usd": round(incumbent_month / 1e6, 2),
            "monthly_requests": INCUMBENT_REQUESTS_PER_MONTH,
        },
        "token_shape": shape,
        "per_candidate": per_candidate,
        "recommendation": recommendation,
        "judge_shares_family": judge_family is not None
        and any(CATALOG_BY_ID[arm["model"]].family == judge_family for arm in spec["arms"]),
    }
