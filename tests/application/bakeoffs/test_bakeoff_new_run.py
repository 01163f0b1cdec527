"""A new bake-off's spec as the CLI and the dialog build it (``application.bakeoffs``): each bad
input said with its field before anything is sent, the certified switch's rules, the judge's
plain reading, the family warning, and what the confirmation says it spends on (the counts
from the request; the estimate only from costs the queue measured, read over real HTTP)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from api_client.errorbar import shapes as assumed
from api_client.errorbar.client import ErrorbarClient
from api_client.errors import BlahError
from application.bakeoffs.confirm import confirmation_lines
from application.bakeoffs.cost import spend_plan
from application.bakeoffs.judge_quality import informedness, judge_reading
from application.bakeoffs.new_run.fields import parse_arm, parse_assertion, parse_margin
from application.bakeoffs.new_run.hints import used_models
from application.bakeoffs.new_run.request import ArmSpec, NewRun, SampleFilters, judge_family_warning
from application.bakeoffs.refusals import create_refusal
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server

RUBRIC = "Accurate, concise answers in the support tone."


def comparison(**kw: Any) -> NewRun:
    fields: dict[str, Any] = {
        "name": "tiny v3",
        "baseline_model": "Qwen/Qwen3-32B",
        "arms": (ArmSpec("you/tiny-sft-v3"),),
        "rubric": RUBRIC,
    }
    fields.update(kw)
    return NewRun(**fields)


def criterion(tpr: float | None, tnr: float | None, kappa: float | None, name: str = "Concise") -> assumed.Criterion:
    return assumed.Criterion(
        id="crit_x", name=name, tpr=tpr, tnr=tnr, kappa=kappa, judge_model="openai/gpt-4.1", trust="misaligned"
    )


def test_informedness_and_the_plain_reading_of_a_judge() -> None:
    assert informedness(0.55, 0.40) == pytest.approx(-0.05)
    assert informedness(None, 0.9) is None
    assert judge_reading(0.55, 0.40, -0.05) == "this pass rate says nothing: the judge's TPR+TNR-1 is -0.05"
    assert "never checked against human labels" in (judge_reading(None, None, None) or "")
    assert "kappa 0.15" in (judge_reading(0.80, 0.70, 0.15) or "")
    assert judge_reading(0.90, 0.84, 0.72) is None


@pytest.mark.parametrize(
    ("assertion", "field", "words"),
    [
        ("regex_match=([a-z", "assertions[0]", "the regex does not compile"),
        ("json_schema={not json", "assertions[0]", "the JSON schema does not parse"),
        ("max_length=12.5", "assertions[0]", "non-negative whole number"),
        ("min_length=-3", "assertions[0]", "non-negative whole number"),
        ("contains=", "assertions[0]", "contains needs a value"),
    ],
)
def test_a_bad_assertion_is_refused_with_its_field(assertion: str, field: str, words: str) -> None:
    config, problem = parse_assertion(assertion, 0)
    assert problem is None and config is not None
    refused = comparison(assertions=(config,)).problem()
    assert refused is not None and refused.field == field
    assert words in refused.message and refused.message.endswith("nothing was sent")


def test_an_assertion_type_that_does_not_exist_or_lacks_its_value_is_refused_as_typed() -> None:
    assert parse_assertion("is_polite", 3)[1].field == "assertions[3]"
    assert "needs a value" in parse_assertion("regex_match", 0)[1].message
    assert parse_assertion("completed=yes", 0)[1].message.startswith("assertions[0]: completed takes no value")
    assert parse_assertion("regex_match=a=b", 0)[0] == {"type": "regex_match", "value": "a=b"}


def test_seven_candidates_eleven_assertions_and_a_margin_of_one_and_a_half_are_refused() -> None:
    seven = tuple(ArmSpec(f"org/model-{i}") for i in range(7))
    problem = comparison(arms=seven).problem()
    assert problem is not None and problem.field == "candidate_models" and "not 7" in problem.message
    eleven = tuple({"type": "completed"} for _ in range(11))
    assert comparison(assertions=eleven).problem().field == "assertions"
    margin, problem = parse_margin("1.5")
    assert margin is None and problem.field == "noninferiority_margin" and "0.05, not 5" in problem.message
    assert parse_margin("0.05") == (0.05, None)
    assert comparison(noninferiority_margin=1.5).problem().field == "noninferiority_margin"


def test_arms_parse_with_label_best_of_n_system_and_tools_and_make_the_candidates_body() -> None:
    arm, problem = parse_arm(
        "model=you/tiny-sft-v3; label=terse v3; n=3; system=Answer in one line.; "
        'tools=[{"type": "function", "function": {"name": "lookup"}}]',
        0,
    )
    assert problem is None
    request = comparison(arms=(arm, ArmSpec("you/tiny-sft-v2")))
    body = request.body()
    assert "candidate_models" not in body
    assert body["candidates"][0] == {
        "model": "you/tiny-sft-v3",
        "label": "terse v3",
        "system": "Answer in one line.",
        "tools": [{"type": "function", "function": {"name": "lookup"}}],
        "n": 3,
    }
    assert request.candidate_keys == ["terse v3", "you/tiny-sft-v2"]
    assert parse_arm("model=x; n=9", 1)[1].field == "candidates[1].n"
    assert "label" in comparison(arms=(ArmSpec("you/tiny-sft-v3", n=2),)).problem().message
    assert parse_arm("model=x; tools={", 0)[1].field == "candidates[0].tools"


def test_filters_kind_and_rubric_type_go_into_the_body() -> None:
    request = comparison(
        rubric_type="adherence",
        judge_model="anthropic/claude-sonnet-4",
        filters=SampleFilters(tag="support", segment=" ", dataset_id="ds_holdout"),
    )
    body = request.body()
    assert body["rubric_type"] == "adherence" and body["judge_model"] == "anthropic/claude-sonnet-4"
    assert body["sample_filters"] == {"tag": "support", "dataset_id": "ds_holdout"}
    graded = NewRun("graded", "Qwen/Qwen3-32B", (), eval_kind="criterion", criterion_id="crit_helpful")
    assert graded.problem() is None and "rubric" not in graded.body() and graded.body()["candidate_models"] == []
    assert NewRun("graded", "Qwen/Qwen3-32B", (), eval_kind="criterion").problem().field == "criterion_id"
    replay = comparison(filters=SampleFilters(trace_replay=True))
    assert replay.problem().field == "sample_filters.trace_replay"


def test_a_certified_switch_needs_a_criterion_run_a_calibrated_judge_and_a_margin() -> None:
    stored = comparison(baseline_model="__stored__", noninferiority_margin=0.05)
    assert stored.certified and "choose a criterion run" in stored.problem().message
    switch = NewRun("switch", "__stored__", (ArmSpec("you/tiny-sft-v3"),), eval_kind="criterion", criterion_id="crit_x")
    assert switch.problem().field == "noninferiority_margin"
    switch = NewRun(
        "switch",
        "__stored__",
        (ArmSpec("you/tiny-sft-v3"),),
        eval_kind="criterion",
        criterion_id="crit_x",
        noninferiority_margin=0.05,
    )
    assert "not calibrated" in switch.problem(criterion(None, None, None)).message
    assert "no better than chance" in switch.problem(criterion(0.55, 0.40, -0.05)).message
    assert switch.problem(criterion(0.90, 0.84, 0.72)) is None
    replay = comparison(baseline_model="__stored__", filters=SampleFilters(trace_replay=True))
    assert not replay.certified and replay.problem() is None


def test_a_judge_no_better_than_chance_is_said_before_anything_is_spent() -> None:
    graded = NewRun(
        "concise", "Qwen/Qwen3-32B", (ArmSpec("you/tiny-sft-v3"),), eval_kind="criterion", criterion_id="crit_x"
    )
    lines = confirmation_lines(graded, criterion(0.55, 0.40, -0.05), [])
    warnings = [text for label, text in lines if label == "!"]
    assert any("this pass rate says nothing: the judge's TPR+TNR-1 is -0.05" in w for w in warnings)


def test_a_judge_of_a_candidates_family_is_warned_about() -> None:
    assert "favour their own" in judge_family_warning("Qwen/Qwen3-32B", ["Qwen/Qwen3-235B-A22B"])
    assert judge_family_warning("Qwen/Qwen3-32B", ["Qwen/Qwen3-235B-A22B", "you/tiny-sft-v3"]).count("Qwen3-235B") == 1
    assert judge_family_warning("openai/gpt-4.1", ["you/tiny-sft-v3", "meta-llama/Llama-3.1-8B-Instruct"]) is None
    assert judge_family_warning(None, ["Qwen/Qwen3-32B"]) is None


def test_the_spend_plan_counts_generations_and_judge_calls() -> None:
    arms = (ArmSpec("you/tiny-sft-v3"), ArmSpec("you/tiny-sft-v2", label="v2 best of 3", n=3))
    plan = spend_plan(comparison(arms=arms, sample_count=40), [])
    assert plan.generations == 40 + 40 + 40 * 3
    assert plan.judge_calls == 2 * (40 * 2 + 40 * 2)  # two per pair, plus the knockouts of best-of-3
    assert plan.estimate_micros is None and "no cost estimate" in plan.lines[-1]
    stored = NewRun("switch", "__stored__", arms[:1], eval_kind="criterion", criterion_id="c", sample_count=100)
    plan = spend_plan(stored, [])
    assert plan.generations == 100 and plan.judge_calls == 200  # the logged answers are graded, not regenerated


def _runs_from_the_queue(bodies: list[dict[str, Any]]) -> list[assumed.Run]:
    with queue_server() as queue:
        for body in bodies:
            queue_run(queue, body)

        async def read() -> list[assumed.Run]:
            async with ErrorbarClient(queue.base_url, queue.admin_key) as client:
                return await client.list_runs()

        return asyncio.run(read())


def test_the_estimate_uses_the_costs_earlier_runs_measured_and_says_what_it_could_not_price() -> None:
    runs = _runs_from_the_queue([COMPARISON, CRITERION])
    compared = next(r for r in runs if r.eval_kind == "comparison").results
    graded = next(r for r in runs if r.eval_kind == "criterion").results
    by_arm = {row.model: row.eval_cost_micros / row.attempted for row in compared.per_candidate}
    by_model = {
        row.model: row.eval_cost_micros / (row.judged_pass + row.judged_fail + row.unparsed) for row in graded.per_model
    }
    v3 = (by_arm["you/tiny-sft-v3"] + by_model["you/tiny-sft-v3"]) / 2  # the median of two measurements
    v2 = by_arm["you/tiny-sft-v2"]
    calls = (
        compared.judge_cost_micros / (2 * sum(row.attempted for row in compared.per_candidate))
        + graded.judge_cost_micros / sum(r.judged_pass + r.judged_fail + r.unparsed for r in graded.per_model)
    ) / 2
    request = comparison(
        arms=(ArmSpec("you/tiny-sft-v3"),),
        baseline_model="you/tiny-sft-v2",
        sample_count=20,
        judge_model="openai/gpt-4.1",
    )
    plan = spend_plan(request, runs)
    assert plan.estimate_micros == pytest.approx(20 * v2 + 20 * v3 + 2 * 20 * calls)
    dollars = f"${plan.estimate_micros / 1_000_000:,.4f}"  # *_micros read as millionths of a dollar (ASSUMED)
    assert any(line.startswith(f"estimate: about {dollars} for the whole run") for line in plan.lines)
    assert not any("cost unit" in line or "micros" in line for line in plan.lines)
    unknown = spend_plan(comparison(arms=(ArmSpec("anthropic/claude-sonnet-4"),), judge_model="openai/gpt-4.1"), runs)
    assert unknown.estimate_micros is None
    assert "no earlier run measured anthropic/claude-sonnet-4" in unknown.lines[-1]
    assert "you/tiny-sft-v3" in used_models(runs) and "Qwen/Qwen3-32B" in used_models(runs)


def test_a_412_on_create_says_how_many_samples_would_do_when_the_queue_says() -> None:
    request = NewRun(
        "switch",
        "__stored__",
        (ArmSpec("you/tiny-sft-v3"),),
        eval_kind="criterion",
        criterion_id="crit_helpful",
        sample_count=40,
        noninferiority_margin=0.05,
    )
    said = create_refusal(
        BlahError("x", status=412, server_error="Underpowered: ask for at least 78 samples."), request
    )
    assert said.samples_needed == 78 and said.field == "sample_count"
    # the queue takes it from 78, but a 5-point margin needs more than one run: said, with what instead
    assert "the queue takes it from 78 samples" in said.sentence and "instead of 40" in said.sentence
    assert "one run cannot reach 80% power" in said.sentence and "the queue caps a run at 500 samples" in said.sentence
    assert "not resent" in said.sentence
    vague = create_refusal(BlahError("x", status=412, server_error="Underpowered."), request)
    assert vague.samples_needed is None and "does not say how many" in vague.sentence
    model = create_refusal(
        BlahError("x", status=400, server_error="Model 'you/tiny-sft-v3' is not available."), request
    )
    assert model.field == "candidate_models"
    mismatch = create_refusal(
        BlahError("x", status=400, server_error="Population mismatch: criterion 'X' ..."), request
    )
    assert mismatch.field == "sample_filters" and mismatch.sentence.startswith("population mismatch")


def test_a_screening_runs_catalog_is_offered_and_its_dollar_figures_priced() -> None:
    # results.screening as the contract lists it (the simulator's screening is another branch's)
    screening_run = assumed.Run.model_validate(
        {
            "id": "ev_s",
            "status": "DONE",
            "baseline_model": "__stored__",
            "candidate_models": ["m/cheap-a", "m/cheap-b"],
            "arms": [{"key": "m/cheap-a", "model": "m/cheap-a"}, {"key": "m/cheap-b", "model": "m/cheap-b"}],
            "results": {
                "screening": {
                    "incumbent": "Qwen/Qwen3-32B",
                    "per_candidate": [
                        {"model": "m/cheap-a", "est_usd_per_request": 0.0004},
                        {"model": "m/cheap-c", "est_usd_per_request": 0.001},
                    ],
                }
            },
        }
    )
    offered = used_models([screening_run])
    assert {"Qwen/Qwen3-32B", "m/cheap-a", "m/cheap-b", "m/cheap-c"} == set(offered)
    assert "__stored__" not in offered
    plan = spend_plan(comparison(arms=(ArmSpec("m/cheap-a"), ArmSpec("m/cheap-c")), sample_count=50), [screening_run])
    assert any(line.startswith("screening's estimate for m/cheap-a, m/cheap-c: about $0.0700") for line in plan.lines)


@pytest.mark.parametrize(
    ("said", "needed"),
    [
        ("Underpowered: ask for at least 78 samples.", 78),
        ("This certified switch needs 120 samples.", 120),
        ("underpowered; 64 samples are needed", 64),
        ("sample_count >= 90 required", 90),
        ("Underpowered.", None),
    ],
)
def test_the_samples_that_would_do_are_read_from_the_queues_words(said: str, needed: int | None) -> None:
    from application.bakeoffs.refusals import samples_enough

    assert samples_enough(said) == needed
