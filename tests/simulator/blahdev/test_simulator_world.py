"""The seeded world: determinism, the small model's failure rates, token accounting, the judge."""

from __future__ import annotations

import json
from collections import Counter

import orjson
import pytest

from simulator.blahdev import small_model, tokenizer
from simulator.blahdev.catalog import EVALS_BY_ID
from simulator.blahdev.small_model import Call, SmallModel, outcome_rates
from simulator.blahdev.snapshot import seeded_world
from simulator.blahdev.world import World

ANCHOR = 1_800_000_000_000


def fingerprint(world: World) -> bytes:
    return orjson.dumps(
        {
            "logs": [world.logs.by_id[k] for k in sorted(world.logs.by_id)],
            "runs": world.runs,
            "results": world.results,
            "messages": world.messages,
            "health": world.health,
            "games": world.games,
            "keys": [world.council_key, world.member_key],
        },
        option=orjson.OPT_SORT_KEYS,
    )


@pytest.fixture(scope="module")
def world() -> World:
    return seeded_world(7, anchor_ms=ANCHOR)


def person_logs(world: World) -> list[dict]:  # type: ignore[type-arg]
    return world.logs.all_for(world.person_model_id)


def test_same_seed_same_world_and_the_cache_is_faithful(world: World) -> None:
    fresh = seeded_world(7, anchor_ms=ANCHOR, cached=False)  # generated again from scratch
    assert fingerprint(fresh) == fingerprint(world)
    assert fingerprint(seeded_world(8, anchor_ms=ANCHOR)) != fingerprint(world)


def test_world_shape(world: World) -> None:
    assert 3000 <= world.logs.count(world.person_model_id) <= 5000
    assert all(0 < world.logs.count(m) < world.logs.count(world.person_model_id) for m in world.peer_model_ids)
    times = [e["created_at"] for e in person_logs(world)]
    assert min(times) >= ANCHOR - 48 * 3_600_000 and max(times) < ANCHOR
    statuses = Counter(r["status"] for r in world.runs.values())
    assert statuses["completed"] >= 1 and statuses["failed"] == 1 and statuses["stalled"] == 1


def test_token_accounting_is_consistent(world: World) -> None:
    for entry in person_logs(world):
        if entry["error"] is not None:
            assert entry["response"] is None and entry["finish_reason"] == "error"
            continue
        assert entry["completion_tokens"] == tokenizer.count(entry["response"])
        assert entry["prompt_tokens"] == tokenizer.count(entry["prompt"])
        assert entry["completion_tokens"] <= entry["max_tokens"]
        if entry["finish_reason"] == "length":
            assert entry["completion_tokens"] == entry["max_tokens"]


def test_truncated_replies_end_mid_sentence(world: World) -> None:
    cut = [e for e in person_logs(world) if world.truth[e["id"]] == "truncated"]
    assert cut and all(e["finish_reason"] == "length" for e in cut)
    assert all(e["response"].rstrip()[-1] not in ".!?" for e in cut)


def test_failure_rates_match_the_documented_table(world: World) -> None:
    """Per prompt-feature group, observed outcome rates are near ``outcome_rates``."""
    groups: dict[frozenset[str], Counter[str]] = {}
    for e in person_logs(world):
        kind = world.truth[e["id"]]
        if kind == "error":
            continue
        call = Call(
            prompt=e["prompt"],
            max_tokens=e["max_tokens"],
            template_used="llama2" if e["prompt"].startswith("<s>[INST]") else "chatml",
            user_text=e["messages"][-1]["content"],
            instruction_type=EVALS_BY_ID[e["eval_id"]].instruction_type if e["eval_id"] else None,
        )
        groups.setdefault(small_model.features(call, "chatml"), Counter())[kind] += 1
    checked = 0
    for feats, counts in groups.items():
        n = sum(counts.values())
        if n < 150:
            continue
        expected = outcome_rates(feats)
        for kind, rate in expected.items():
            assert counts[kind] / n == pytest.approx(rate, abs=0.06), (sorted(feats), kind, counts)
        checked += 1
    assert checked >= 2


def test_chatroom_failures_are_mostly_format_failures(world: World) -> None:
    by_source: dict[str, Counter[str]] = {}
    for e in person_logs(world):
        by_source.setdefault(e["source"], Counter())[world.truth[e["id"]]] += 1
    room, evals = by_source["chatroom"], by_source["eval"]

    def fail_rate(c: Counter[str]) -> float:
        answered = sum(c.values()) - c["error"]
        return 1 - c["ok"] / answered

    assert fail_rate(room) > 0.7 and fail_rate(room) > fail_rate(evals) + 0.25
    format_kinds = room["continuation"] + room["leak"] + room["loop"]
    assert format_kinds / sum(room.values()) > 0.5


def test_failure_kinds_are_visible_in_the_text(world: World) -> None:
    text = {
        k: [e["response"] for e in person_logs(world) if world.truth[e["id"]] == k]
        for k in ("empty", "leak", "refusal", "loop", "continuation")
    }
    assert {"", "<|im_end|>"} <= set(text["empty"]) and any(r and not r.strip() for r in text["empty"])
    assert all(("<|im_end|>" in r or "[/INST]" in r) and len(r.split("<|im_end|>")[-1]) > 0 for r in text["leak"])
    assert all(r.startswith("I'm sorry, but I can't") for r in text["refusal"])
    assert any("\n\n" in r and r.count(r.split("\n\n")[0]) >= 2 for r in text["loop"])  # paragraph loops
    assert any(r[:1].islower() for r in text["continuation"]) and any(
        r.startswith("\nUser:") for r in text["continuation"]
    )


def test_wrong_answers_are_really_wrong(world: World) -> None:
    for result in world.results.values():
        if result["model_id"] != world.person_model_id or result["response"] is None:
            continue
        spec = EVALS_BY_ID[result["eval_id"]]
        if world.truth[result["log_id"]] == "wrong":
            assert result["response"] == spec.wrong != spec.reference
        if world.truth[result["log_id"]] == "ok":
            assert result["response"] == tokenizer.cut(spec.reference, 10_000)[: len(result["response"])]


def test_answers_depend_on_the_prompt_and_are_deterministic() -> None:
    model = SmallModel(1, "m")

    def call(p: str) -> Call:
        return Call(prompt=p, max_tokens=64, template_used="chatml", user_text=p)

    assert model.generate(call("What is the capital of France?"), 5) == model.generate(
        call("What is the capital of France?"), 5
    )
    answers = {
        model.generate(call(p), 1).response
        for p in ("Tell me about dogs", "Tell me about volcanoes", "What is the capital of France?")
    }
    assert len(answers) == 3


def test_judge_is_sometimes_wrong_and_sometimes_plain_text(world: World) -> None:
    results = list(world.results.values())
    plain = [r for r in results if r["score_details"] and not r["score_details"].startswith("{")]
    assert 0.05 < len(plain) / len(results) < 0.2
    for r in results:
        if r["score_details"] and r["score_details"].startswith("{"):
            details = json.loads(r["score_details"])
            assert details["reasoning"] and details["criteria"]
    overscored = [r for r in results if world.judge_flaws.get(r["id"]) == "overscore"]
    assert overscored and all(
        r["score"] >= 0.85 and world.truth[r["log_id"]] in ("empty", "loop", "refusal", "continuation")
        for r in overscored
    )
    assert any(v == "contradiction" for v in world.judge_flaws.values())
    failed = [r for r in results if r["error"] is not None]
    assert failed and all(r["score"] is None for r in failed)  # never an invented score
