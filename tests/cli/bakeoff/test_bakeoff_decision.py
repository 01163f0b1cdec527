"""One run, one answer (issue 41, item 3): `bakeoff show`, `bakeoff verdict`, their `--json`
and `bakeoff gate` on the same finished run, against the queue simulator, say the same thing
to the same question; each figure names its question; advice never names a run past the
queue's cap; an underpowered create names one sample count."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator

import pytest

from cli.bakeoff.command import bakeoff_main
from common.constants import QUEUE_SAMPLE_CAP
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, CRITERION, queue_run, queue_server

ONE = {**COMPARISON, "candidate_models": ["you/tiny-sft-v3"]}
RUNS = (
    {**ONE, "sample_count": 96},  # the paired difference is clearly below 0, the queue's interval touches 0.5
    {**COMPARISON, "sample_count": 96},
    ONE,
    COMPARISON,
    CRITERION,
    {**CRITERION, "sample_count": 200},
)
PAIRED = re.compile(r"paired difference[^\[\n]*?([+-]\d+\.\d) points \[([+-]\d+\.\d), ([+-]\d+\.\d)\]")


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


async def _no_wait(_: float) -> None:
    return None


def bakeoff(queue: ErrorbarServer, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(
        [*argv, "--base-url", queue.base_url],
        out=out,
        err=err,
        env={"ERRORBAR_API_KEY": queue.admin_key},
        stdin=io.StringIO(""),
        sleep=_no_wait,
    )
    return code, out.getvalue(), err.getvalue()


def _answer(sentence: str) -> str:
    for answer in ("switch", "don't switch", "not enough evidence"):
        if sentence.startswith(answer):
            return answer
    raise AssertionError(f"no answer in {sentence!r}")


@pytest.mark.parametrize("margin", [None, "0.05"])
def test_the_same_run_gets_the_same_answer_in_every_view(queue: ErrorbarServer, margin: str | None) -> None:
    extra = ("--margin", margin) if margin else ()
    seen_the_contradiction = False
    for body in RUNS:
        run_id = queue_run(queue, body)["id"]
        criterion = body.get("eval_kind") == "criterion"
        views: dict[str, tuple[int, str]] = {}
        code, out, _ = bakeoff(queue, "show", run_id, *extra)
        views["show"] = (code, out)
        code, out, _ = bakeoff(queue, "verdict", run_id, *extra)
        views["verdict"] = (code, out)
        answer = _answer(views["verdict"][1])
        # no view shows a paired difference wholly below the line while the verdict reads
        # otherwise (one candidate: its answer is the verdict's): "worse" means "don't switch"
        if len(body["candidate_models"]) == 1:
            for name, (_, text) in views.items():
                for _mean, _low, high in PAIRED.findall(text):
                    if float(high) < -float(margin or 0) * 100:
                        assert answer == "don't switch", (name, text)
                        seen_the_contradiction |= not criterion
        _, show_json, _ = bakeoff(queue, "show", run_id, "--json", *extra)
        verdict_code, verdict_json, _ = bakeoff(queue, "verdict", run_id, "--json", *extra)
        decided = json.loads(verdict_json)
        # the JSON of both views is one decision, and the exit code is its answer's
        assert json.loads(show_json)["app_decision"] == decided
        assert verdict_code == decided["exit_code"] == views["verdict"][0]
        # the text views print the same sentence and the same figures, each with its question
        sentence = views["verdict"][1].splitlines()[0]
        assert f"verdict: {sentence}" in views["show"][1].splitlines()
        assert decided["sentence"] == sentence and answer == decided["answer"]
        for figure in decided["figures"]:  # its question said once above the figures, in every view
            line = f"{figure['subject']}: {figure['figure']} {figure['value']}: {figure['answer']}"
            assert figure["question"] == decided["question"]
            assert all(
                line in text and f"each figure answers: {figure['question']}" in text for _, text in views.values()
            )
        # a figure that says "worse" and decides means "don't switch" for its candidate
        each = {arm["candidate"]: arm["answer"] for arm in decided["candidates"]}
        for figure in decided["figures"]:
            if figure["decides"] and figure["answer"].startswith("yes"):
                assert each[figure["subject"]] == "don't switch"
            if each[figure["subject"]] == "switch" and figure["decides"]:
                assert figure["answer"].startswith("no")
        if each and all(answer == "don't switch" for answer in each.values()):
            assert decided["answer"] == "don't switch"
        # the queue's gate at the verdict's own line: a switch passes it, a don't never does
        line = 0.5 - float(margin or 0)
        threshold = "--min-pass-rate" if criterion else "--min-win-rate"
        gate_code, gate_out, _ = bakeoff(queue, "gate", run_id, threshold, f"{line:g}")
        assert "asks: is its lower bound at or above" in gate_out
        if not criterion:
            assert (decided["answer"] == "switch") == (gate_code == 0)
    # the case of the issue: a paired difference wholly below 0 beside "not enough evidence"
    assert seen_the_contradiction or margin is not None


def test_what_would_settle_it_never_asks_for_more_than_one_run_takes(queue: ErrorbarServer) -> None:
    for body in RUNS:
        run_id = queue_run(queue, body)["id"]
        _, out, _ = bakeoff(queue, "verdict", run_id, "--margin", "0.01", "--json")
        settle = json.loads(out)["settle"] or ""
        for count in re.findall(r"about (\d+) judged samples", settle):
            assert int(count) <= QUEUE_SAMPLE_CAP, settle
        if "one run cannot" in settle:
            assert f"the queue caps a run at {QUEUE_SAMPLE_CAP} samples; instead: a" in settle
            assert "calibrated criterion" in settle and (
                "runs of 500 read together" in settle or "several runs" in settle
            )


def _counts(sentence: str, asked: int) -> set[int]:
    """The sample counts a sentence recommends (the asked count and the cap are not advice)."""
    said = {int(n) for n in re.findall(r"(\d+) samples", sentence)}
    said |= {int(n) for n in re.findall(r"sample_count (\d+)", sentence)}
    return said - {asked, QUEUE_SAMPLE_CAP}


@pytest.mark.parametrize("margin", ["0.05", "0.15"])
def test_an_underpowered_certified_switch_names_one_sample_count(queue: ErrorbarServer, margin: str) -> None:
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
        margin,
        "--yes",
    )
    message = err.splitlines()[-1]
    assert code == 7 and "underpowered" in message
    counts = _counts(message, 40)
    assert len(counts) == 1 and max(counts) <= QUEUE_SAMPLE_CAP, message
    if margin == "0.05":  # 80% power needs more than one run: what to do instead
        assert "the queue takes it from 78 samples" in message
        assert "one run cannot reach 80% power: the queue caps a run at 500 samples; instead: a margin" in message
        assert "a sharper calibrated criterion, or about" in message


def test_the_plan_past_the_cap_says_what_to_do_instead() -> None:
    out = io.StringIO()
    code = bakeoff_main(["plan", "--samples", "40", "--margin", "0.05", "--tpr", "0.9", "--tnr", "0.84"], out=out)
    text = out.getvalue()
    assert code == 0
    assert (
        "noninferiority at a 5.0 points margin (is the candidate no more than 5.0 points worse than the baseline?)"
        in text
    )
    assert "one run cannot reach 80% power: the queue caps a run at 500 samples; instead: a margin of at least" in text
    assert not re.search(r"needs about (\d{4,}|[6-9]\d\d|5\d[1-9]) samples", text)
