"""`blah-tui report MODEL --compare OTHER`: did the new checkpoint get better, against the
simulator, as plain text and as JSON; bad arguments and unknown models are one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.exit_codes import ExitCode
from cli.main import main as cli_main
from simulator.server import SimulatorServer
from tests.support import sim_http
from tests.support.hostile_payloads import assert_inert

LIMIT = 300


def logs_of(sim: SimulatorServer, model_id: str, limit: int) -> list[dict[str, object]]:
    """The model's ``limit`` newest calls, read straight off the platform's HTTP API."""
    answer = sim_http.get(f"{sim.base_url}/api/v1/models/{model_id}/logs", params={"limit": limit}, timeout=10)
    answer.raise_for_status()
    body = answer.json()
    return body["logs"] if isinstance(body, dict) else body


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli_main(["report", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_plain_table_compares_the_demo_model_with_another(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    own, other = sim.person_model_id, "gpt2-base"
    code, out, err = report(capsys, own, "--compare", other, "--limit", str(LIMIT), "--base-url", sim.base_url)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Did the new checkpoint get better? (A before, B after)"
    assert lines[1].startswith(f"A: {other}, {LIMIT} calls, ")  # the other model: before
    assert lines[2].startswith(f"B: {own}, {LIMIT} calls, ")  # the model reported on: after
    assert "two-proportion normal approximation, two-sided alpha 0.05, power 0.8" in lines[3]
    header = next(i for i, line in enumerate(lines) if line.startswith("row "))
    for column in ("A rate [95% CI] n", "B rate [95% CI] n", "B − A, pts [Newcombe]", "verdict", "n needed/side"):
        assert column in lines[header]
    rows = {line.split("  ")[0]: line for line in lines[header + 2 :]}
    # The errors row, recounted from the platform's own records: calls that came back with an
    # error and no reply.
    errors_b = sum(1 for e in logs_of(sim, own, LIMIT) if e.get("error") is not None and e.get("response") is None)
    b_cell = [c for c in rows["error"].split("  ") if c.strip()][2]
    assert b_cell.strip().endswith(f" {errors_b}/{LIMIT}")
    verdicts = {"better", "worse", "no detectable change at this sample size"}
    assert any(v in rows["any failure"] for v in verdicts)
    assert any(name.startswith("eval ev-") for name in rows)
    assert_inert(out)


def test_json_carries_every_number_and_none_where_a_side_had_no_calls(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    own = sim.person_model_id
    code, out, err = report(
        capsys, own, "--compare", "gpt2-base", "--json", "--limit", "40", "--base-url", sim.base_url
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["mode"] == "models" and doc["a"]["model_id"] == "gpt2-base" and doc["b"]["model_id"] == own
    assert doc["a"]["calls"] == doc["b"]["calls"] == 40 and doc["calls_limit"] == 40
    first = doc["rows"][0]
    assert first["section"] == "overall" and first["a"]["calls"] == first["b"]["calls"] == 40
    for row in doc["rows"]:
        assert row["verdict"] in {
            "better",
            "worse",
            "no detectable change at this sample size",
            "no calls in A",
            "no calls in B",
        }
        if row["a"] is None or row["b"] is None:  # nothing invented for a side with no calls
            assert row["difference"] is None and row["difference_interval"] is None
            assert row["n_needed_per_side"] is None
        else:
            low, high = row["difference_interval"]
            assert low <= row["difference"] <= high
            assert row["difference"] == pytest.approx(row["b"]["rate"] - row["a"]["rate"])
    # 40 recent calls of each cannot cover every eval on both sides.
    assert any(row["section"] == "eval" and (row["a"] is None or row["b"] is None) for row in doc["rows"])


def test_unknown_or_same_model_is_one_line_and_exit_6_or_2(
    sim: SimulatorServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = report(capsys, sim.person_model_id, "--compare", "no-such-model", "--base-url", sim.base_url)
    assert (code, out) == (ExitCode.NOT_FOUND, "")
    assert err.count("\n") == 1 and "does not know model 'no-such-model'" in err
    code, out, err = report(capsys, "gpt2-base", "--compare", "gpt2-base", "--base-url", sim.base_url)
    assert (code, out) == (2, "") and "names the same model" in err


def test_the_compare_command_imports_no_textual() -> None:
    probe = (
        "import sys; import cli.blah.report.compare; "
        "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_hostile_ids_are_printed_inert_on_one_line() -> None:
    from application.compare.checkpoint import CheckpointComparison, Side
    from cli.blah.report.compare import render_table
    from diagnosis.checkpoint import CallOutcome, compare_outcomes

    hostile = "ev\x1b[2J\x1b]0;pwned\x07\nsecond line\r"
    rows = compare_outcomes([CallOutcome(hostile, frozenset({"loop"}))], [CallOutcome(hostile, frozenset())])
    side = Side("model\x1b[31m\nx", 1, 0, 0, "platform", note="\x1b[5mnote")
    text = render_table(CheckpointComparison("models", side, side, rows, limit=1))
    assert_inert(text)
    eval_lines = [line for line in text.splitlines() if line.startswith("eval ")]
    assert len(eval_lines) == 1 and "second line" in eval_lines[0]  # the newline made visible, not obeyed
