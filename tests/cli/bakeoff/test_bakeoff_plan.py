"""`bakeoff plan`: each planned figure against 2,000 simulated runs (what the run would print),
and the command as a person types it."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from cli.bakeoff.command import bakeoff_main
from diagnosis.planning import (
    PlanQuestion,
    expected_half_width,
    noninferiority_power,
    plan,
    samples_for_half_width,
    samples_for_margin,
    smallest_margin,
    underpowered_advice,
)
from diagnosis.stats import rogan_gladen, wilson_interval

RUNS = 2000


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(["plan", *argv], out=out, err=err, env={})
    return code, out.getvalue(), err.getvalue()


def _simulated_floor(
    rng: np.random.Generator, n: int, rate: float, tpr: float | None, tnr: float | None, runs: int = RUNS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per simulated run: (point estimate, interval low, interval high) as the queue prints them:
    Wilson on what the judge saw, mapped through Rogan-Gladen when the judge is known."""
    truth = rng.binomial(1, rate, size=(runs, n))
    if tpr is None:
        seen = truth
    else:
        flips = rng.random((runs, n))
        seen = np.where(truth == 1, flips < tpr, flips >= tnr).astype(int)
    points, lows, highs = [], [], []
    for count in seen.sum(axis=1):
        low, high = wilson_interval(int(count), n)
        point = count / n
        if tpr is not None:
            point, low, high = (rogan_gladen(v, tpr, tnr) for v in (point, low, high))  # type: ignore[arg-type]
        points.append(point)
        lows.append(low)
        highs.append(high)
    return np.array(points), np.array(lows), np.array(highs)


@pytest.mark.parametrize(
    ("n", "rate", "tpr", "tnr"), [(40, 0.5, None, None), (200, 0.7, None, None), (300, 0.6, 0.9, 0.85)]
)
def test_planned_half_width_is_what_simulated_runs_print(
    n: int, rate: float, tpr: float | None, tnr: float | None
) -> None:
    rng = np.random.default_rng(20261203)
    _, lows, highs = _simulated_floor(rng, n, rate, tpr, tnr)
    simulated = float(np.mean((highs - lows) / 2))
    assert expected_half_width(n, rate, tpr, tnr) == pytest.approx(simulated, abs=0.01)


@pytest.mark.parametrize(
    ("n", "rate", "margin", "tpr", "tnr"),
    [(400, 0.5, 0.1, None, None), (150, 0.8, 0.1, None, None), (500, 0.6, 0.12, 0.9, 0.85), (60, 0.5, 0.2, None, None)],
)
def test_planned_power_is_the_share_of_simulated_equal_runs_that_pass(
    n: int, rate: float, margin: float, tpr: float | None, tnr: float | None
) -> None:
    """The candidate truly as good: the gate passes when its floor reaches the incumbent's rate
    minus the margin; simulated on independent draws (the plan's stated assumption)."""
    rng = np.random.default_rng(7)
    _, candidate_lows, _ = _simulated_floor(rng, n, rate, tpr, tnr)
    incumbent_points, _, _ = _simulated_floor(rng, n, rate, tpr, tnr)
    simulated = float(np.mean(candidate_lows >= incumbent_points - margin))
    assert noninferiority_power(n, rate, margin, tpr, tnr) == pytest.approx(simulated, abs=0.04)


def test_the_issues_two_worked_numbers() -> None:
    assert expected_half_width(40, 0.5) == pytest.approx(0.15, abs=0.005)
    assert samples_for_half_width(0.05, 0.5) == pytest.approx(385, abs=6)


def test_samples_found_are_the_fewest_that_reach_the_goal() -> None:
    n = samples_for_margin(0.05, 0.5)
    assert n is not None and noninferiority_power(n, 0.5, 0.05) >= 0.8 > noninferiority_power(n - 1, 0.5, 0.05)
    h = samples_for_half_width(0.04, 0.3, 0.92, 0.88)
    assert h is not None and expected_half_width(h, 0.3, 0.92, 0.88) <= 0.04 < expected_half_width(
        h - 1, 0.3, 0.92, 0.88
    )
    margin = smallest_margin(500, 0.5)
    assert margin is not None and noninferiority_power(500, 0.5, margin) == pytest.approx(0.8, abs=1e-9)


def test_a_judge_no_better_than_chance_buys_nothing_and_says_so() -> None:
    result = plan(PlanQuestion(samples=100, margin=0.05, tpr=0.55, tnr=0.40))
    assert result.half_width is None and result.samples_for_margin is None
    assert any("no better than chance" in note for note in result.notes)
    assert "no sample count is enough" in underpowered_advice(100, 0.05, None, 0.55, 0.40)


def test_underpowered_advice_names_samples_and_margin_that_would_do() -> None:
    sentence = underpowered_advice(100, 0.05, 0.5, 0.9, 0.85)
    needed = samples_for_margin(0.05, 0.5, 0.9, 0.85)
    widest = smallest_margin(500, 0.5, 0.9, 0.85)
    assert needed is not None and needed > 500 and str(needed) not in sentence  # never a run past the cap
    assert "one run cannot reach 80% power for the 5.0-point margin: the queue caps a run at 500 samples" in sentence
    assert f"a margin of at least {widest * 100:.1f} points (500 samples reach that)" in sentence
    assert f"about {-(-needed // 500)} runs of 500 read together" in sentence


def test_plan_command_says_the_half_width_and_the_samples_needed() -> None:
    code, out, _ = _run(["--samples", "40", "--rate", "0.5"])
    assert code == 0 and "at 40 samples the 95% interval is about ±14.8 points" in out
    assert "80 generations (1 arm x 40 samples + 40 baseline), 80 judge calls" in out
    code, out, _ = _run(["--half-width", "0.05", "--rate", "0.5"])
    assert code == 0 and "±5.0 points needs about 381 samples" in out


def test_plan_command_json_and_underpowered_margin() -> None:
    code, out, _ = _run(["--samples", "200", "--margin", "0.05", "--tpr", "0.9", "--tnr", "0.85", "--json"])
    body = json.loads(out)
    assert code == 0 and body["underpowered"] is True and body["samples_for_margin"] > 500
    assert body["power"] == pytest.approx(noninferiority_power(200, 0.5, 0.05, 0.9, 0.85))
    assert body["rate_assumed"] is True


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--samples", "3"], "samples must be a whole number 5..500"),
        (["--rate", "55"], "rate must be a rate 0..1 (0.55, not 55)"),
        (["--tpr", "0.9"], "give --tpr and --tnr together"),
        (["--margin", "0"], "margin must be above 0"),
        (["--samples", "40", "--candidates", "7"], "candidates must be 1..6"),
    ],
)
def test_plan_command_refuses_bad_values_in_one_line_with_exit_2(argv: list[str], said: str) -> None:
    code, out, err = _run(argv)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1
