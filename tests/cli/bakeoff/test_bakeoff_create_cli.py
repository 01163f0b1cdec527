"""`blah-tui bakeoff create` with flags for every field, against the queue simulator: the
confirmation says what runs and what it spends on, the run is sent once with exactly the
asked-for fields, bad input is refused before anything is sent, a judge no better than chance
is said before spending, an underpowered certified switch (412) says how many samples would
do and is not resent, a population mismatch is named; `show`, `samples` and `gate` say the
assertions and every gate check kind without --json."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.bakeoff.command import bakeoff_main
from cli.exit_codes import ExitCode
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, queue_run, queue_server

RUBRIC = "Accurate, concise answers in the support tone."


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def bakeoff(queue: ErrorbarServer, *argv: str, stdin: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(
        [*argv, "--base-url", queue.base_url],
        out=out,
        err=err,
        env={"ERRORBAR_API_KEY": queue.admin_key},
        stdin=stdin or io.StringIO(""),
    )
    return code, out.getvalue(), err.getvalue()


def posts(queue: ErrorbarServer) -> int:
    return queue.requests.count("POST", "/v1/evals")


def test_every_field_as_a_flag_is_confirmed_then_sent_once(queue: ErrorbarServer) -> None:
    queue_run(queue, COMPARISON)  # an earlier run measured these models' costs
    queue.requests.clear()
    code, out, err = bakeoff(
        queue,
        "create",
        "--name",
        "terse v3 against Qwen",
        "--rubric",
        RUBRIC,
        "--rubric-type",
        "adherence",
        "--baseline",
        "Qwen/Qwen3-32B",
        "--judge-model",
        "anthropic/claude-sonnet-4",
        "--candidate",
        "you/tiny-sft-v2",
        "--arm",
        "model=you/tiny-sft-v3; label=terse v3; n=3; system=Be brief.",
        "--tag",
        "support",
        "--assert",
        "regex_match=^Here",
        "--assert",
        "max_length=400",
        "--assert",
        "completed",
        "--sample-count",
        "20",
        "--max-output-tokens",
        "512",
        "--json",
        stdin=Terminal("y\n"),
    )
    assert code == 0, err
    assert posts(queue) == 1
    run = json.loads(out)
    assert run["rubric_type"] == "adherence" and run["judge_model"] == "anthropic/claude-sonnet-4"
    assert [(a["key"], a["n"], a["system"]) for a in run["arms"]] == [
        ("you/tiny-sft-v2", 1, False),
        ("terse v3", 3, True),
    ]
    assert run["sample_filters"] == {"tag": "support"}
    assert run["assertions"] == [
        {"type": "regex_match", "value": "^Here"},
        {"type": "max_length", "value": "400"},
        {"type": "completed"},
    ]
    assert (run["sample_count"], run["max_output_tokens"]) == (20, 512)
    # the confirmation came first, on standard error: what runs and what it spends on
    assert err.index("Spends") < err.index("[y/N]")
    assert "baseline Qwen/Qwen3-32B: 20 generations" in err
    assert "arm terse v3: 60 generations (20 samples × best-of-3)" in err
    assert "judge: 160 calls (two per pair, both orderings: 40 pairs, plus 40 best-of-N knockouts" in err
    assert "no earlier run measured the judge anthropic/claude-sonnet-4" in err
    assert "adherence: the judge picks the answer closer to the stored reference" in err


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--assert", "regex_match=([a-z"], "assertions[0]: the regex does not compile"),
        (["--assert", "json_schema={oops"], "assertions[0]: the JSON schema does not parse"),
        (["--assert", "max_length=12.5"], "assertions[0]: max_length needs a non-negative whole number"),
        ([f"--candidate=org/m{i}" for i in range(6)], "at most 6 candidates, not 7"),
        (["--stored", "--criterion-id", "crit_helpful", "--noninferiority-margin", "1.5"], "0.05, not 5"),
        (["--arm", "model=you/tiny-sft-v3; n=12"], "candidates[1].n: best-of-N takes 2..8"),
    ],
)
def test_bad_input_is_refused_with_its_field_and_nothing_is_sent(
    queue: ErrorbarServer, flags: list[str], words: str
) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "bad",
        "--rubric",
        RUBRIC,
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "you/tiny-sft-v3",
        *flags,
        "--yes",
    )
    assert code == 2 and words in err and "nothing was sent" in err
    assert queue.requests.records() == []


def test_without_yes_off_a_terminal_nothing_is_read_or_sent(queue: ErrorbarServer) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "x",
        "--rubric",
        RUBRIC,
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "you/tiny-sft-v3",
    )
    assert code == 2 and "add --yes" in err and queue.requests.records() == []


def test_a_judge_no_better_than_chance_is_said_before_anything_is_spent(queue: ErrorbarServer) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "concise?",
        "--criterion-id",
        "crit_concise",
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "you/tiny-sft-v3",
        stdin=Terminal("n\n"),
    )
    assert code == 2 and "not confirmed" in err
    assert "this pass rate says nothing: the judge's TPR+TNR-1 is -0.05" in err.split("[y/N]")[0]
    assert posts(queue) == 0


def test_an_underpowered_certified_switch_says_the_samples_that_would_do_and_is_not_resent(
    queue: ErrorbarServer, tmp_path: Path
) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "switch to v3?",
        "--stored",
        "--criterion-id",
        "crit_helpful",
        "--candidate",
        "you/tiny-sft-v3",
        "--sample-count",
        "40",
        "--noninferiority-margin",
        "0.05",
        "--yes",
    )
    assert (
        code == ExitCode.REFUSED
        and "underpowered" in err
        and "the queue takes it from 78 samples" in err
        and "instead of 40" in err
    )
    assert posts(queue) == 1
    spec = tmp_path / "switch.json"
    spec.write_text(
        json.dumps(
            {
                "name": "from a file",
                "eval_kind": "criterion",
                "criterion_id": "crit_helpful",
                "baseline_model": "__stored__",
                "candidate_models": ["you/tiny-sft-v3"],
                "sample_count": 20,
            }
        )
    )
    code, _, err = bakeoff(queue, "create", "--from", str(spec), "--yes")
    assert (
        code == ExitCode.REFUSED
        and "78 samples would be enough" in err
        and "not resent" in err
        and "instead of 20" in err
    )
    assert posts(queue) == 2
    code, out, err = bakeoff(
        queue,
        "create",
        "--name",
        "switch to v3?",
        "--stored",
        "--criterion-id",
        "crit_helpful",
        "--candidate",
        "you/tiny-sft-v3",
        "--sample-count",
        "78",
        "--noninferiority-margin",
        "0.05",
        "--yes",
    )
    assert code == 0 and "noninferiority margin 0.05" in err
    run_id = json.loads(out)["id"] if out.startswith("{") else out.split()[1]
    assert f"when it is DONE: blah-tui bakeoff gate {run_id} --noninferiority-margin 0.05" in err


def test_a_body_from_a_file_is_confirmed_with_what_it_spends_on(queue: ErrorbarServer, tmp_path: Path) -> None:
    spec = tmp_path / "run.json"
    spec.write_text(json.dumps(COMPARISON))
    code, _, err = bakeoff(queue, "create", "--from", str(spec), stdin=Terminal("y\n"))
    assert code == 0 and posts(queue) == 1
    # 40 samples, a regenerated baseline and two candidates: 120 answers, 2 × 80 pairs judge calls
    assert "120 generations and 160 judge calls" in err.split("[y/N]")[0]
    assert "Assertions  json_valid; completed (free: checked on every answer)" in err


def test_a_certified_switch_without_a_criterion_or_on_another_population_is_refused(queue: ErrorbarServer) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "s",
        "--stored",
        "--rubric",
        RUBRIC,
        "--candidate",
        "you/tiny-sft-v3",
        "--noninferiority-margin",
        "0.05",
        "--yes",
    )
    assert code == 2 and "choose a criterion run" in err and posts(queue) == 0
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "s",
        "--stored",
        "--criterion-id",
        "crit_support_resolved",
        "--candidate",
        "you/tiny-sft-v3",
        "--sample-count",
        "100",
        "--tag",
        "billing",
        "--noninferiority-margin",
        "0.05",
        "--yes",
    )
    assert code == ExitCode.REFUSED and "population mismatch" in err and "tag=support" in err and "tag=billing" in err
    assert posts(queue) == 1


def test_a_model_the_queue_does_not_have_is_named_on_its_field(queue: ErrorbarServer) -> None:
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "x",
        "--rubric",
        RUBRIC,
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "acme/never-heard-of",
        "--yes",
    )
    assert code == ExitCode.REFUSED and "candidate_models: Model 'acme/never-heard-of' is not available." in err


def test_show_samples_and_gate_say_the_assertions_and_each_check_kind(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)  # assertions json_valid and completed
    code, out, _ = bakeoff(queue, "show", run["id"])
    results = queue.store.get(run["id"]).results
    assert code == 0 and "assertions (deterministic, on every answer): json_valid; completed" in out
    for row in results["assertion_results"]["per_model"]:
        block = out.split("assertions (deterministic")[1].splitlines()
        line = next(line for line in block if line.startswith(row["model"] + " "))
        passed = [p["passed"] for p in row["per_assertion"]]
        assert line.split()[1:] == [
            f"{row['passed_all']}/{row['answers']}",
            f"{row['pass_rate']:.3f}",
            *[f"{p}/{row['answers']}" for p in passed],
        ]
    code, out, _ = bakeoff(queue, "samples", run["id"])
    samples = queue.store.samples_json(run["id"])
    failing = sum(1 for s in samples for c in s["candidates"] if not all(c["assertions"]))
    assert (
        code == 0
        and sum("failed json_valid" in line or "failed completed" in line for line in out.splitlines()) == failing
    )
    code, out, _ = bakeoff(queue, "gate", run["id"], "--min-win-rate", "0.3", "--min-assertion-pass-rate", "0.5")
    kinds = {re.split(r"\s{2,}", line)[0] for line in out.splitlines()[2:]}
    assert kinds == {"win rate", "assertion pass rate"}  # words, not the wire's keys
    assert "asks: is its exact rate at or above" in out


def test_gate_with_a_noninferiority_margin_prints_the_scaled_floor(queue: ErrorbarServer) -> None:
    run = queue_run(
        queue,
        {
            "name": "switch",
            "eval_kind": "criterion",
            "criterion_id": "crit_helpful",
            "baseline_model": "__stored__",
            "candidate_models": ["you/tiny-sft-v3"],
            "sample_count": 100,
        },
    )
    code, out, _ = bakeoff(queue, "gate", run["id"], "--noninferiority-margin", "0.1")
    line = next(line for line in out.splitlines() if line.startswith("noninferiority"))
    assert code in (0, 1) and "you/tiny-sft-v3" in line and "scaled by the judge's TPR+TNR-1 0.740 to 0.074" in line
    assert "asks: is its candidate's floor at or above" in line


def test_show_says_where_the_prompts_came_from_and_how_they_were_judged(queue: ErrorbarServer) -> None:
    replay = queue_run(
        queue,
        {**COMPARISON, "baseline_model": "__stored__", "sample_count": 12, "sample_filters": {"trace_replay": True}},
    )
    code, out, _ = bakeoff(queue, "show", replay["id"])
    row = queue.store.get(replay["id"]).results["per_candidate"][0]["replay"]
    line = next(line for line in out.splitlines() if line.startswith("population"))
    assert code == 0 and "trace replay (one sample per step of completed agent runs)" in line
    assert f"({row['runs']} agent runs, {row['steps']} steps replayed)" in line
    assert "judged on which answer better meets the rubric" in line and "direct" not in line
    held = queue_run(queue, {**COMPARISON, "rubric_type": "adherence", "sample_filters": {"dataset_id": "ds_holdout"}})
    code, out, _ = bakeoff(queue, "show", held["id"])
    line = next(line for line in out.splitlines() if line.startswith("population"))
    assert "prompts from a managed dataset: dataset_id ds_holdout" in line
    assert "judged on which answer is closer to the stored reference answer" in line and "adherence" not in line


def test_assertion_results_in_an_unknown_shape_are_printed_as_sent_and_inert() -> None:
    from api_client.errorbar import shapes as assumed
    from cli.bakeoff.print import print_run

    run = assumed.Run.model_validate(
        {
            "id": "ev_x",
            "status": "DONE",
            "assertions": [{"type": "completed"}],
            "results": {"per_candidate": [], "assertion_results": {"by_arm": {"m\x1b[31m": {"pass": 3, "of": 4}}}},
        }
    )
    out = io.StringIO()
    print_run(run, out)
    line = next(line for line in out.getvalue().splitlines() if line.startswith("assertion results"))
    assert "as the queue sent them" in line and '"pass": 3' in line and "\x1b" not in line


def test_a_confirmation_read_that_fails_does_not_stop_the_create(queue: ErrorbarServer) -> None:
    queue.fail_next("GET", "/v1/evals", 500, "list is down")
    code, _, err = bakeoff(
        queue,
        "create",
        "--name",
        "x",
        "--rubric",
        RUBRIC,
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "you/tiny-sft-v3",
        "--yes",
    )
    assert code == 0 and "could not read the queue's criteria and runs" in err and posts(queue) == 1
    assert "no cost estimate" in err
