"""`blah-tui bakeoff` says the queue's wire values in people's words (issue 41 item 7), on the
simulator seeded with the demo's bake-offs plus a screening and a certified switch, as a person
would run the commands: no ``__stored__``, no ``not_cheaper``, no ``direct (the rubric)``, no
cost in an unnamed unit, no "1 ... runs", and a finished run's end "not given" (the queue sends
none) rather than a dash."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest

from cli.bakeoff.command import bakeoff_main
from simulator.errorbar.demo import queue_demo_runs
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import queue_run, queue_server

STORED_SWITCH = {
    "name": "certified switch to tiny v3",
    "eval_kind": "criterion",
    "criterion_id": "crit_helpful",
    "baseline_model": "__stored__",
    "candidate_models": ["you/tiny-sft-v3"],
    "sample_count": 100,
}


@pytest.fixture
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        queue_demo_runs(server)
        yield server


def bakeoff(queue: ErrorbarServer, *argv: str) -> tuple[int, str, str]:
    """Run the command; each poll's wait ends every queued run (the queue's time has passed)."""
    out, err = io.StringIO(), io.StringIO()

    async def sleep(_: float) -> None:
        for run_id in queue.store.ids():
            queue.finish(run_id)

    code = bakeoff_main(
        [*argv, "--base-url", queue.base_url],
        out=out,
        err=err,
        stdin=io.StringIO(""),
        env={"ERRORBAR_API_KEY": queue.admin_key},
        sleep=sleep,
    )
    return code, out.getvalue(), err.getvalue()


def _screen(queue: ErrorbarServer) -> str:
    code, _, err = bakeoff(queue, "screen", "--yes")
    assert code == 0, err
    return next(i for i in queue.store.ids() if queue.store.get(i).spec.get("screening"))


def _fact(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"{name} ")).removeprefix(name).strip()


def test_a_screening_is_listed_and_shown_as_a_screening_against_your_logged_answers(queue: ErrorbarServer) -> None:
    screening = _screen(queue)
    code, out, _ = bakeoff(queue, "list")
    row = next(line for line in out.splitlines() if line.startswith(screening))
    cells = re.split(r"\s{2,}", row)
    assert code == 0 and cells[2] == "screening" and cells[5] == "your logged answers"
    code, out, _ = bakeoff(queue, "show", screening)
    assert code == 0 and _fact(out, "kind") == "screening"
    assert _fact(out, "baseline") == "your logged answers (what you shipped, not regenerated)"
    assert "__stored__" not in out and "comparison" not in out


def test_a_certified_switch_never_shows_the_sentinel_in_show_samples_or_the_gate(queue: ErrorbarServer) -> None:
    run = queue_run(queue, STORED_SWITCH)["id"]
    for argv in (("list",), ("show", run), ("samples", run), ("gate", run, "--noninferiority-margin", "0.1")):
        _, out, err = bakeoff(queue, *argv)
        assert "__stored__" not in out + err, argv
    _, out, _ = bakeoff(queue, "show", run)
    graded = out.split("corrected", 1)[1].splitlines()
    assert any(line.startswith("your logged answers ") for line in graded)  # the stored baseline's row
    _, out, _ = bakeoff(queue, "samples", run)
    assert sum(" your logged answers " in line for line in out.splitlines()) == 100  # one per sample


def test_how_a_run_was_judged_is_said_in_words(queue: ErrorbarServer) -> None:
    demo = {queue.store.get(i).spec["name"]: i for i in queue.store.ids()}
    _, out, _ = bakeoff(queue, "show", demo["helpfulness of the tiny models"])
    assert _fact(out, "population").endswith(
        "; graded pass or fail by the criterion's frozen judge (Helpful and correct)"
    )
    _, out, _ = bakeoff(queue, "show", demo["tiny v2 against Qwen3-32B"])
    assert _fact(out, "population").endswith("; judged on which answer better meets the rubric")
    assert "direct" not in out


def test_a_finished_run_says_its_end_is_not_given_and_a_running_one_has_no_ended_line(queue: ErrorbarServer) -> None:
    demo = {queue.store.get(i).spec["name"]: i for i in queue.store.ids()}
    _, out, _ = bakeoff(queue, "show", demo["tiny v2 against Qwen3-32B"])
    assert _fact(out, "ended") == "not given (the queue sends no end time)"
    _, out, _ = bakeoff(queue, "show", demo["tiny v3 against Mistral-Small"])  # still running
    assert _fact(out, "status") in ("PENDING", "RUNNING") and not any(
        line.startswith("ended") for line in out.splitlines()
    )


def test_a_saving_below_the_queues_bar_reads_cheaper_but_not_by_enough(queue: ErrorbarServer) -> None:
    screening = _screen(queue)
    results = queue.store.get(screening).results
    assert results is not None
    # The queue marks a candidate "not_cheaper" unless it saves enough to be worth a bake-off:
    # a small positive saving, as one demo showed (+0.5%), beside "not_cheaper".
    candidate = results["screening"]["per_candidate"][1]
    candidate.update(est_savings_pct=0.5, status="not_cheaper", quality="similar")
    code, out, _ = bakeoff(queue, "show", screening)
    row = next(line for line in out.splitlines() if line[2:].startswith(candidate["model"] + " "))
    assert code == 0 and "+0.5%" in row and row.endswith("cheaper, too little · similar")
    dearer = next(
        c for c in results["screening"]["per_candidate"] if c["est_savings_pct"] < 0 and c["status"] == "not_cheaper"
    )
    row = next(line for line in out.splitlines() if line[2:].startswith(dearer["model"] + " "))
    assert re.search(r"  not cheaper · (similar|different|uncertain)$", row)
    assert "not_cheaper" not in out


def test_the_cost_estimate_before_a_run_is_in_dollars(queue: ErrorbarServer) -> None:
    code, out, err = bakeoff(
        queue,
        "create",
        "--name",
        "tiny v3 again",
        "--rubric",
        "Accurate, concise answers in the support tone.",
        "--baseline",
        "Qwen/Qwen3-32B",
        "--candidate",
        "you/tiny-sft-v3",
        "--judge-model",
        "openai/gpt-4.1",
        "--sample-count",
        "10",
        "--yes",
    )
    said = out + err
    assert code == 0, err
    cost = next(line for line in said.splitlines() if line.startswith("Cost"))
    assert re.fullmatch(
        r"Cost\s+estimate: about \$\d+\.\d{4} for the whole run \(generations and judge calls\), "
        r"as measured on this workspace's earlier runs",
        cost,
    ), cost
    assert "cost unit" not in said and "micros" not in said


def test_a_candidates_cost_and_saving_read_as_the_screens_write_them(queue: ErrorbarServer) -> None:
    demo = {queue.store.get(i).spec["name"]: i for i in queue.store.ids()}
    run = demo["tiny v3 and v2 against Qwen3-32B"]
    code, out, _ = bakeoff(queue, "show", run)
    results = queue.store.get(run).results
    assert code == 0 and results is not None
    for row in results["per_candidate"]:
        line = next(line for line in out.splitlines() if line.startswith(row["model"] + " "))
        cost = f"${row['eval_cost_micros'] / 1_000_000:.4f}"  # *_micros as millionths of a dollar (ASSUMED)
        assert line.endswith(f"{row['savings_pct']:+.1f}%  {cost}"), line
