"""Per-sample answers and verdicts of one run, drawn once at creation from the seed.

Comparison runs: every model answers each prompt (the baseline too, unless ``__stored__``);
the judge reads each pair twice, ``ab`` (baseline first) and ``ba`` (candidate first). A win
is the candidate winning both orderings, a loss the baseline winning both, a tie both saying
tie or the two orderings disagreeing (``disagreement_ties``), failed a missing reading.
Criterion runs: every model (the baseline first) is graded pass/fail/unparsed by the frozen
judge. An answer over ``max_output_tokens`` is cut (``truncated``) and is never a good answer.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from simulator.errorbar.world import CATALOG_BY_ID, STORED, JudgeBehaviour, LoggedRequest, price

CLIP_CHARS = 2000
CLIP_MARK = "…[clipped]"
Reading = str | None  # "candidate" | "baseline" | "tie" | None (no reading)


@dataclass
class Answer:
    text: str
    truncated: bool
    good: bool
    latency_ms: int | None
    cost_micros: int | None


@dataclass
class Graded:
    """One arm's answer to one sample and how it fared."""

    arm: str
    answer: Answer
    outcome: str  # win|loss|tie|failed or pass|fail|unparsed
    orderings: dict[str, Reading] = field(default_factory=dict)
    assertions: list[bool] = field(default_factory=list)
    human_verdict: str | None = None
    similarity: str | None = None  # screening runs: matched|differed|unparsed against the logged answer


@dataclass
class Sample:
    index: int
    request: LoggedRequest
    baseline: Answer | None  # None on criterion runs (the baseline is graded among the candidates)
    graded: list[Graded]


def _answer(model: str, request: LoggedRequest, cap: int, rng: random.Random) -> Answer:
    spec = CATALOG_BY_ID[model]
    tokens = max(20, int(rng.gauss(spec.tokens, spec.tokens * 0.35)))
    truncated = tokens > cap
    used = min(tokens, cap)
    good = (not truncated) and rng.random() < spec.quality
    topic = request.prompt.rsplit("USER: ", 1)[-1]
    if "JSON" in topic:
        body = json.dumps({"id": f"ord_{request.id[-3:]}", "status": "shipped" if good else "unknown"})
        text = body if not truncated else body[: len(body) // 2]
    else:
        lead = "Here is how to handle it" if good else "I think maybe"
        words = [lead + f": {topic.lower()}"] + ["step"] * (used // 40)
        text = " ".join(words) + ("" if not truncated else " step step step")
    return Answer(text, truncated, good, spec.latency_ms + rng.randint(0, spec.latency_ms // 2), price(model, used))


def _stored_answer(request: LoggedRequest, rng: random.Random) -> Answer:
    """The logged reply as it was shipped (never regenerated: no latency, no cost)."""
    spec = CATALOG_BY_ID[request.model]
    good = rng.random() < spec.quality
    return Answer(request.reply, False, good if request.reference_good is None else request.reference_good, None, None)


def _adherence_truth(
    answer: Answer, base: Answer, reference_good: bool, base_is_reference: bool, rng: random.Random
) -> str:
    """Which answer is closer to the stored reference: an answer agrees with it when both are
    good or both are not (so a wrong reference rewards the wrong answers), with some noise;
    the stored answer is the reference itself."""

    def close(item: Answer) -> bool:
        return (not item.truncated) and item.good == reference_good and rng.random() < 0.9

    cand_close = close(answer)
    base_close = True if base_is_reference else close(base)
    if cand_close and not base_close:
        return "candidate"
    if base_close and not cand_close:
        return "baseline"
    return "tie"


def _reading(truth: str, first: str, judge: JudgeBehaviour, rng: random.Random) -> Reading:
    """One ordering's reading; ``first`` is the side shown first."""
    if rng.random() < judge.failure_rate:
        return None
    if rng.random() < judge.position_bias:
        return first
    if truth == "candidate":
        return "candidate" if rng.random() < judge.tpr else "baseline"
    if truth == "baseline":
        return "baseline" if rng.random() < judge.tnr else "candidate"
    return "tie" if rng.random() < judge.tie_when_equal else rng.choice(("candidate", "baseline"))


def pair_outcome(ab: Reading, ba: Reading) -> str:
    if ab is None or ba is None:
        return "failed"
    if ab == ba == "candidate":
        return "win"
    if ab == ba == "baseline":
        return "loss"
    return "tie"  # both tie, or the orderings disagree (a disagreement is a tie)


def check_assertion(config: dict[str, Any], answer: Answer) -> bool:
    kind, value, text = config.get("type"), config.get("value"), answer.text
    if kind == "json_valid":
        try:
            json.loads(text)
            return True
        except ValueError:
            return False
    if kind == "json_schema":
        try:
            data, schema = json.loads(text), json.loads(str(value))
        except ValueError:
            return False
        required = schema.get("required", []) if isinstance(schema, dict) else []
        return isinstance(data, dict) and all(key in data for key in required)
    if kind == "regex_match":
        return re.search(str(value), text) is not None
    if kind == "contains":
        return str(value) in text
    if kind == "not_contains":
        return str(value) not in text
    if kind == "max_length":
        return len(text) <= int(str(value))
    if kind == "min_length":
        return len(text) >= int(str(value))
    if kind == "completed":
        return not answer.truncated
    if kind == "tool_called":
        return False  # the simulated answers call no tools
    return kind == "no_tool_call"


def draw_samples(
    run_id: str,
    seed: int,
    spec: dict[str, Any],
    population: list[LoggedRequest],
    judge: JudgeBehaviour,
    criterion_rates: tuple[float, float] | None,
) -> list[Sample]:
    """``spec``: the created run's fields; ``criterion_rates``: the frozen judge's (tpr, tnr)."""
    rng = random.Random(f"errorbar-run:{seed}:{run_id}")
    chosen = rng.sample(population, min(spec["sample_count"], len(population)))
    while len(chosen) < spec["sample_count"]:
        chosen.append(rng.choice(population))
    cap, baseline, arms = spec["max_output_tokens"], spec["baseline_model"], spec["arms"]
    criterion = spec["eval_kind"] == "criterion"
    adherence = spec.get("rubric_type") == "adherence"
    samples = []
    for index, request in enumerate(chosen):
        draw = random.Random(f"{seed}:{run_id}:{index}")
        base = _stored_answer(request, draw) if baseline == STORED else _answer(baseline, request, cap, draw)
        # the stored reference adherence is judged against (drawn only then: other runs' draws stay as they were)
        reference = base if baseline == STORED or not adherence or criterion else _stored_answer(request, draw)
        graded: list[Graded] = []
        if criterion:
            models = [(baseline, base)] + [(arm["key"], _answer(arm["model"], request, cap, draw)) for arm in arms]
            tpr, tnr = criterion_rates or (0.5, 0.5)
            for key, answer in models:
                if draw.random() < 0.03:
                    outcome = "unparsed"
                elif answer.good:
                    outcome = "pass" if draw.random() < tpr else "fail"
                else:
                    outcome = "fail" if draw.random() < tnr else "pass"
                graded.append(Graded(key, answer, outcome))
        else:
            for arm in arms:
                answer = _answer(arm["model"], request, cap, draw)
                if adherence:
                    truth = _adherence_truth(answer, base, reference.good, baseline == STORED, draw)
                else:
                    truth = (
                        "candidate"
                        if answer.good and not base.good
                        else "baseline"
                        if base.good and not answer.good
                        else "tie"
                    )
                ab = _reading(truth, "baseline", judge, draw)
                ba = _reading(truth, "candidate", judge, draw)
                graded.append(Graded(arm["key"], answer, pair_outcome(ab, ba), {"ab": ab, "ba": ba}))
        for item in graded:
            item.assertions = [check_assertion(config, item.answer) for config in spec.get("assertions") or []]
        samples.append(Sample(index, request, None if criterion else base, graded))
    return samples


def clip(text: str) -> str:
    return text if len(text) <= CLIP_CHARS else text[: CLIP_CHARS - len(CLIP_MARK)] + CLIP_MARK


def sample_json(sample: Sample) -> dict[str, Any]:
    """The contract's sample item, plus the simulator's extras (``truncated``, ``latency_ms``,
    ``cost_micros``, ``orderings``, ``assertions``) so every result count can be recomputed."""
    base = sample.baseline
    item: dict[str, Any] = {
        "index": sample.index,
        "prompt": clip(sample.request.prompt),
        "baseline_answer": clip(base.text) if base else "",
    }
    if base is not None:
        item.update(
            baseline_truncated=base.truncated,
            baseline_latency_ms=base.latency_ms,
            baseline_cost_micros=base.cost_micros,
        )
    if sample.request.trace_id is not None:  # a replay sample: one teacher-forced step of an agent run
        item["replay"] = {"trace_id": sample.request.trace_id, "step": sample.request.step}
    candidates = []
    for graded in sample.graded:
        entry: dict[str, Any] = {
            "model": graded.arm,
            "answer": clip(graded.answer.text),
            "outcome": graded.outcome,
            "truncated": graded.answer.truncated,
            "latency_ms": graded.answer.latency_ms,
            "cost_micros": graded.answer.cost_micros,
            "assertions": graded.assertions,
        }
        if graded.orderings:
            entry["orderings"] = dict(graded.orderings)
        if graded.human_verdict is not None:
            entry["human_verdict"] = graded.human_verdict
        if graded.similarity is not None:
            entry["similarity"] = graded.similarity
        candidates.append(entry)
    item["candidates"] = candidates
    return item
