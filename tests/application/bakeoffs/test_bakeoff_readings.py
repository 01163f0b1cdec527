"""The app's own readings of a bake-off (paired difference, prediction-powered win rate, the
judge's biases) against reference computations, and under `bakeoff show` over real HTTP."""

from __future__ import annotations

import io
from collections.abc import Iterator

import numpy as np
import pytest

from cli.bakeoff.command import bakeoff_main
from diagnosis.judge_bias import PairText, judge_biases, model_family, shares_family
from diagnosis.paired import comparison_differences, paired_difference, prediction_powered
from simulator.errorbar.server import ErrorbarServer
from tests.support.errorbar import COMPARISON, CRITERION, get, queue_run, queue_server
from tests.support.scipy_reference import scipy_stats


def test_paired_difference_is_the_mean_difference_with_its_normal_interval() -> None:
    rng = np.random.default_rng(3)
    differences = list(rng.choice([-0.5, 0.0, 0.5], size=120, p=[0.3, 0.3, 0.4]))
    reading = paired_difference(differences, margin=0.05)
    assert reading is not None
    sem = scipy_stats().sem(differences)
    low, high = scipy_stats().norm.interval(0.95, loc=np.mean(differences), scale=sem)
    assert reading.mean == pytest.approx(np.mean(differences))
    assert reading.interval == pytest.approx((low, high))
    # beside scipy's paired t interval, which a 120-prompt normal interval should barely differ from
    t_low, t_high = scipy_stats().ttest_1samp(differences, 0.0).confidence_interval(0.95)
    assert reading.interval == pytest.approx((t_low, t_high), abs=0.003)
    assert reading.noninferior == (low > -0.05)


def test_paired_interval_covers_the_truth_about_95_percent_of_simulated_runs() -> None:
    rng = np.random.default_rng(11)
    truth = 0.4 * 0.5 - 0.3 * 0.5  # P(win) 0.4, P(loss) 0.3
    covered = 0
    for _ in range(2000):
        reading = paired_difference(list(rng.choice([-0.5, 0.0, 0.5], size=80, p=[0.3, 0.3, 0.4])))
        covered += reading is not None and reading.interval[0] <= truth <= reading.interval[1]
    assert covered / 2000 == pytest.approx(0.95, abs=0.015)


def test_comparison_differences_read_as_win_rate_minus_half() -> None:
    outcomes = ["win"] * 6 + ["tie"] * 22 + ["loss"] * 12 + ["failed"] * 3
    reading = paired_difference(comparison_differences(outcomes))
    assert reading is not None and reading.n == 40
    assert reading.mean == pytest.approx((6 + 22 / 2) / 40 - 0.5)


def _ppi_reference(judge: np.ndarray, labelled_judge: np.ndarray, labelled_human: np.ndarray) -> tuple[float, float]:
    """Angelopoulos et al. (2023), the mean estimator, written from the paper's formulas."""
    rectifier = labelled_human - labelled_judge
    estimate = judge.mean() + rectifier.mean()
    se = np.sqrt(judge.var(ddof=1) / len(judge) + rectifier.var(ddof=1) / len(rectifier))
    return estimate, scipy_stats().norm.ppf(0.975) * se


def test_prediction_powered_win_rate_matches_the_papers_formula_and_covers() -> None:
    rng = np.random.default_rng(5)
    truth_scores = rng.choice([0.0, 0.5, 1.0], size=400, p=[0.35, 0.2, 0.45])
    judge = np.where(rng.random(400) < 0.8, truth_scores, rng.choice([0.0, 0.5, 1.0], size=400))
    labelled = list(zip(judge[:30], truth_scores[:30], strict=True))
    reading = prediction_powered(list(judge), labelled, more_labels=30)
    assert reading is not None
    estimate, half = _ppi_reference(judge, judge[:30], truth_scores[:30])
    assert reading.estimate.estimate == pytest.approx(estimate)
    assert reading.estimate.interval == pytest.approx((estimate - half, estimate + half))
    assert reading.estimate.n_equivalent is not None and reading.estimate.n_equivalent > 30  # the judge helped
    assert reading.half_width_after_more < half
    assert any("label 30 more for" in s for s in reading.sentences())
    covered = 0
    true_rate = 0.45 + 0.2 / 2
    for _ in range(1000):
        truth = rng.choice([0.0, 0.5, 1.0], size=300, p=[0.35, 0.2, 0.45])
        seen = np.where(rng.random(300) < 0.75, truth, rng.choice([0.0, 0.5, 1.0], size=300))
        labels = rng.choice(300, size=40, replace=False)
        r = prediction_powered(list(seen), list(zip(seen[labels], truth[labels], strict=True)))
        covered += r is not None and r.estimate.interval[0] <= true_rate <= r.estimate.interval[1]
    assert covered / 1000 == pytest.approx(0.95, abs=0.025)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("openai/gpt-4.1", "gpt-4o-mini", True),
        ("Qwen/Qwen3-32B", "qwen2.5-7b-instruct", True),
        ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-32B", False),
        ("mistralai/Mixtral-8x7B", "mistral-small", True),
        ("anthropic/claude-3-haiku", "you/tiny-sft-v3", False),
    ],
)
def test_model_families(a: str, b: str, same: bool) -> None:
    assert shares_family(a, b) is same
    assert model_family("meta-llama/Llama-3.1-8B") == "llama"


def test_judge_biases_count_first_slot_ties_and_length_from_the_inputs() -> None:
    pairs = (
        [PairText("win", "x" * 50, "y" * 10)] * 6
        + [PairText("loss", "x" * 5, "y" * 40)] * 2
        + [PairText("loss", "x" * 60, "y" * 10)] * 2
        + [PairText("tie", "a", "b")] * 5
        + [PairText("win", "x" * 3000 + "…[clipped]", "y")]
    )
    sheet = {
        "pairs": 16,
        "failed_pairs": 1,
        "picks_first": 20,
        "picks_second": 8,
        "picks_tie": 2,
        "disagreement_ties": 3,
    }
    biases = judge_biases("v3", "you/tiny-sft-v3", "openai/gpt-4.1", pairs, sheet)
    assert biases.first_slot_share == pytest.approx(20 / 28)
    assert biases.first_slot_ci == pytest.approx(
        scipy_stats().binomtest(20, 28).proportion_ci(method="wilson"), abs=1e-9
    )
    assert (biases.ties_total, biases.ties_from_disagreement, biases.ties_given) == (5, 3, 2)
    assert biases.disagreement_rate == pytest.approx(3 / 15)
    # decided, unclipped, different lengths: 6 wins by the longer + 2 losses by the shorter (the
    # longer baseline won) + 2 losses where the longer candidate lost = 8 of 10 for the longer
    assert (biases.longer_won, biases.length_decided, biases.length_left_out) == (8, 10, 1)
    assert "leans to the first slot" in " ".join(biases.sentences())
    assert not biases.judge_shares_family


@pytest.fixture(scope="module")
def queue() -> Iterator[ErrorbarServer]:
    with queue_server() as server:
        yield server


def _show(queue: ErrorbarServer, run_id: str, *extra: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = bakeoff_main(
        ["show", run_id, "--base-url", queue.base_url, *extra],
        out=out,
        err=err,
        env={"ERRORBAR_API_KEY": queue.admin_key},
    )
    return code, out.getvalue()


def test_show_prints_the_apps_reading_recomputed_from_the_samples(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON)
    code, out = _show(queue, run["id"], "--margin", "0.05")
    assert code == 0 and "the app's own reading (beside the queue's numbers" in out
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    pairwise = get(queue, f"/v1/evals/{run['id']}/pairwise").json()
    for arm in COMPARISON["candidate_models"]:
        outcomes = [c["outcome"] for s in samples for c in s["candidates"] if c["model"] == arm]
        reading = paired_difference(comparison_differences(outcomes), 0.05)
        assert reading is not None
        low, high = reading.interval
        # the verdict's own figure, with the question it answers (a 5-point noninferiority margin)
        assert (
            f"{arm}: paired difference on the {reading.n} samples both answered, as the judge read them "
            f"{reading.mean * 100:+.1f} points [{low * 100:+.1f}, {high * 100:+.1f}]: "
        ) in out
        sheet = pairwise["candidates"][arm]["spec_sheet"]
        share = sheet["picks_first"] / (sheet["picks_first"] + sheet["picks_second"])
        assert f"first slot got {share:.0%} of picks" in out
    assert (
        "each figure answers: noninferiority at a 5.0-point margin: "
        "is the candidate more than 5.0 points worse than the baseline?"
    ) in out


def test_show_of_a_criterion_run_pairs_each_prompts_pass_with_the_incumbents(queue: ErrorbarServer) -> None:
    run = queue_run(queue, CRITERION)
    code, out = _show(queue, run["id"])
    samples = get(queue, f"/v1/evals/{run['id']}/samples").json()
    pairs = [({c["model"]: c["outcome"] for c in s["candidates"]}) for s in samples]
    diffs = [
        (p["you/tiny-sft-v3"] == "pass") - (p["Qwen/Qwen3-32B"] == "pass")
        for p in pairs
        if {p["you/tiny-sft-v3"], p["Qwen/Qwen3-32B"]} <= {"pass", "fail"}
    ]
    snapshot = get(queue, f"/v1/evals/{run['id']}").json()["criterion_snapshot"]
    youden = snapshot["tpr"] + snapshot["tnr"] - 1  # the correction is linear: the difference is divided by J
    assert code == 0 and f"paired difference of pass rates on the {len(diffs)} samples both answered" in out
    assert f"(divided by its TPR+TNR-1 {youden:.2f}) {np.mean(diffs) / youden * 100:+.1f} points" in out


def test_show_of_an_unfinished_run_prints_no_reading(queue: ErrorbarServer) -> None:
    run = queue_run(queue, COMPARISON, finish=False)
    code, out = _show(queue, run["id"])
    assert code == 0 and "the app's own reading" not in out
