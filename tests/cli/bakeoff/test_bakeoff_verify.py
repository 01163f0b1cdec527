"""`bakeoff verify BUNDLE.json`: an evidence bundle fetched from the queue over HTTP is
recomputed offline; a bundle with one figure changed is caught; what cannot be recomputed is
said with its reason."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.bakeoff.command import bakeoff_main
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, CRITERION, get, queue_run, queue_server


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _bundle(queue: ErrorbarServer, body: dict[str, Any], **thresholds: Any) -> dict[str, Any]:
    run = queue_run(queue, body)
    answer = get(queue, f"/v1/evals/{run['id']}/evidence", **thresholds)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _verify(path: Path, *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(["verify", str(path), *extra], out=out, err=err, env={})
    return code, out.getvalue(), err.getvalue()


def _write(tmp_path: Path, bundle: Any, name: str = "bundle.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(bundle), encoding="utf-8")
    return path


def test_a_comparison_bundle_with_its_gate_recomputes_and_matches(queue: ErrorbarServer, tmp_path: Path) -> None:
    bundle = _bundle(queue, COMPARISON, min_win_rate="0.2")
    code, out, _ = _verify(_write(tmp_path, bundle))
    assert code == 0, out
    for arm in COMPARISON["candidate_models"]:
        assert f"matches  {arm} win rate:" in out and f"matches  {arm} win rate 95% interval:" in out
        assert f"matches  gate win rate {arm} pass:" in out
    assert "matches  gate verdict:" in out
    assert "cannot   per-sample outcomes: content not included (the bundle says: " in out
    assert "cannot   corrected win rate: it rests on the person's pair labels" in out
    assert "DIFFERS" not in out


def test_one_changed_figure_is_caught_and_said_by_how_much(queue: ErrorbarServer, tmp_path: Path) -> None:
    bundle = _bundle(queue, COMPARISON, min_win_rate="0.2")
    arm = bundle["results"]["per_candidate"][0]
    arm["win_rate"] += 0.1
    code, out, _ = _verify(_write(tmp_path, bundle))
    assert code == 1
    assert f"DIFFERS  {arm['arm']} win rate: bundle" in out and "(by 0.1)" in out
    code, out, _ = _verify(_write(tmp_path, bundle), "--json")
    body = json.loads(out)
    assert code == 1 and body["differs"] == 1 and body["matches"] > 4


def test_a_gate_whose_verdict_does_not_follow_from_its_checks_is_caught(queue: ErrorbarServer, tmp_path: Path) -> None:
    bundle = _bundle(queue, COMPARISON, min_win_rate="0.9")
    assert bundle["gate"]["verdict"]["pass"] is False
    bundle["gate"]["verdict"]["pass"] = True
    code, out, _ = _verify(_write(tmp_path, bundle))
    assert code == 1 and "DIFFERS  gate verdict: bundle True, recomputed False" in out


def test_a_criterion_bundle_recomputes_observed_and_corrected_rates(queue: ErrorbarServer, tmp_path: Path) -> None:
    bundle = _bundle(queue, CRITERION, min_pass_rate="0.3")
    code, out, _ = _verify(_write(tmp_path, bundle))
    assert code == 0, out
    for model in ("Qwen/Qwen3-32B", "you/tiny-sft-v3"):
        assert f"matches  {model} observed pass rate:" in out
        assert f"matches  {model} corrected pass rate:" in out
    assert "matches  gate pass rate you/tiny-sft-v3 actual:" in out


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("not json at all", "cannot read"),
        (json.dumps({"hello": 1}), "not an evidence bundle"),
        (json.dumps({"bundle_v": 1, "run": {"id": "x"}, "results": None}), "the run was not DONE"),
    ],
)
def test_a_file_that_is_not_a_bundle_is_one_line_and_exit_2(tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = _verify(path)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1


def test_a_missing_file_is_one_line_and_exit_8(tmp_path: Path) -> None:
    code, _, err = _verify(tmp_path / "nope.json")
    assert code == 8 and "cannot read" in err


def test_hostile_text_in_a_bundle_stays_inert(queue: ErrorbarServer, tmp_path: Path) -> None:
    bundle = _bundle(queue, COMPARISON)
    bundle["results"]["per_candidate"][0]["arm"] = "evil\x1b[2J[red]arm[/red]\n"
    _code, out, _ = _verify(_write(tmp_path, bundle))
    assert "\x1b" not in out and "evil" in out
