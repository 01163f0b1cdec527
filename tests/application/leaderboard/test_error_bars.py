"""The boards' error bars from what the platforms send: the blah.dev leaderboard (results of each
model's current run), Compare (``/compare`` rows), the Blobfish community board (counts, and the
person's own suite runs' tasks), the checkpoint comparison (Holm across rows, its MDE)."""

from __future__ import annotations

import random

from api_client.blahdev.shapes import Comparison, LeaderboardEntry, Result, Run
from api_client.blobfish.shapes_bench import CommunityRow, SuiteRun
from application.compare.checkpoint_error_bars import checkpoint_mde_sentence, row_tests
from application.compare.error_bars import comparison_reading
from application.leaderboard.bench_error_bars import community_reading, pass_rate_cell, pass_rate_interval
from application.leaderboard.error_bars import (
    leaderboard_reading,
    mde_sentence,
    mean_cell,
    method_sentence,
    results_scores,
    tier_cell,
    tier_sentence,
)
from application.leaderboard.standings import model_history, standings
from diagnosis.checkpoint import CallOutcome, compare_outcomes
from diagnosis.stats import wilson_interval

RUN = Run(id="run-1", status="completed", completed_at=1000, started_at=10)


def _results(model: str, rate: float, evals: int, seed: int, per_eval: int = 1) -> list[Result]:
    rng = random.Random(seed)
    return [
        Result(
            id=f"{model}-{e}-{k}",
            eval_run_id="run-1",
            eval_id=f"ev{e}",
            model_id=model,
            score=float(rng.random() < rate),
            created_at=e * 10 + k,
        )
        for e in range(evals)
        for k in range(per_eval)
    ]


def _board(rates: dict[str, float], evals: int = 40, per_eval: int = 1):  # type: ignore[no-untyped-def]
    entries = [LeaderboardEntry(model_id=m, avg_score=r, eval_count=evals, last_run_at=1000) for m, r in rates.items()]
    histories = {
        e.model_id: model_history(e, _results(e.model_id, rates[e.model_id], evals, i, per_eval), [RUN])
        for i, e in enumerate(entries)
    }
    return standings(entries, histories)


def test_leaderboard_rows_get_intervals_tiers_and_the_mde() -> None:
    rows = _board({"big": 0.9, "near": 0.85, "small": 0.2})
    reading = leaderboard_reading(rows)
    by_model = {e.model: e for e in reading.entries}
    assert by_model["small"].tier == 2 and by_model["big"].tier == by_model["near"].tier == 1
    assert tier_cell(reading.entries[0], reading) == "1 leader"
    assert tier_cell(reading.entries[1], reading) == "1 tied" and tier_cell(by_model["small"], reading) == "2"
    estimate = by_model["small"].estimate
    assert estimate is not None and estimate.method == "wilson"
    assert mean_cell(estimate).startswith(f"{estimate.mean:.2f} [")
    assert mde_sentence(reading).startswith("with 40 evals, a difference under ")
    assert "tied with the leader within noise" in tier_sentence(reading) or "ahead of every" in tier_sentence(reading)


def test_repeated_results_of_one_eval_are_clustered_and_the_design_effect_said() -> None:
    rows = _board({"a": 0.7, "b": 0.4}, evals=12, per_eval=4)
    scores, groups = results_scores(rows[0].history.current_results)  # type: ignore[union-attr]
    assert len(scores) == 48 and len(set(groups.values())) == 12
    reading = leaderboard_reading(rows)
    assert {e.estimate.method for e in reading.entries if e.estimate} == {"clustered"}
    assert "items come in groups (12 evals): design effect" in method_sentence(reading)


def test_a_model_whose_results_are_unreadable_keeps_its_average_and_no_interval() -> None:
    rows = _board({"a": 0.7, "b": 0.4})
    entry = LeaderboardEntry(model_id="c", avg_score=0.95, eval_count=40)
    rows = standings([r.entry for r in rows] + [entry], {r.entry.model_id: r.history for r in rows})
    reading = leaderboard_reading(rows)
    c = next(e for e in reading.entries if e.model == "c")
    assert c.estimate is None and c.tier is None and c.mean == 0.95
    assert mean_cell(c.estimate, c.average) == "0.95 (no interval)"
    assert reading.entries[0].model == "a"  # the average is never ranked as if it were measured
    assert "1 with the platform's average only (no interval)" in method_sentence(reading)


def test_compare_pairs_the_rows_both_models_scored() -> None:
    rng = random.Random(3)
    rows = []
    for i in range(60):
        answers = {"mine": {"score": float(rng.random() < 0.5)}, "theirs": {"score": float(rng.random() < 0.9)}}
        if i % 10 == 0:
            answers["theirs"] = {"score": None}
        rows.append({"eval_id": f"ev{i}", "answers": answers})
    reading = comparison_reading(Comparison.model_validate({"models": ["mine", "theirs"], "rows": rows}))
    pair = reading.pair("mine", "theirs")
    assert pair is not None and pair.comparison is not None and pair.comparison.n == 54
    assert pair.comparison.test == "exact McNemar" and pair.separated(0.05)
    assert reading.entries[0].model == "theirs"


def test_compare_rows_with_item_ids_are_clustered_by_eval() -> None:
    rng = random.Random(4)
    rows = [
        {
            "eval_id": f"ev{i // 5}",
            "item_id": f"it{i}",
            "answers": {"a": {"score": rng.random()}, "b": {"score": rng.random()}},
        }
        for i in range(50)
    ]
    reading = comparison_reading(Comparison.model_validate({"models": ["a", "b"], "rows": rows}))
    assert all(
        e.estimate is not None and e.estimate.method == "clustered" and e.estimate.clusters == 10
        for e in reading.entries
    )
    assert reading.pairs[0].comparison.test == "clustered paired t"  # type: ignore[union-attr]


def test_community_board_says_what_its_data_allows() -> None:
    mine = CommunityRow(community_run_id="bcr_1", run_id="bmrs_1", mine=True, graded=10, passed=7, mean_score=0.7)
    other = CommunityRow(community_run_id="bcr_2", run_id="bmrs_x", graded=10, passed=9, mean_score=0.9)
    bare = CommunityRow(community_run_id="bcr_3", pass_rate=0.5, mean_score=None)
    run = SuiteRun(run_id="bmrs_1", tasks=[{"task_id": f"t{i}", "score": float(i < 7)} for i in range(10)])
    assert pass_rate_interval(mine) == wilson_interval(7, 10)
    assert pass_rate_cell(mine).startswith("70.0% [")
    assert pass_rate_cell(bare) == "50.0% (no interval)"
    reading = community_reading([other, mine, bare], [run])
    by_row = {e.model: e for e in reading.entries}
    assert by_row["bcr_1"].estimate is not None and by_row["bcr_1"].estimate.n == 10
    assert by_row["bcr_2"].estimate is None and by_row["bcr_2"].mean == 0.9 and by_row["bcr_2"].tier is None
    assert set(reading.averages_only) == {"bcr_2", "bcr_3"}


def test_checkpoint_rows_are_holm_corrected_and_the_mde_said() -> None:
    a = [CallOutcome(f"e{i % 7}", frozenset({"cut_off"}) if i % 5 == 0 else frozenset()) for i in range(2000)]
    b = [CallOutcome(f"e{i % 7}", frozenset({"cut_off"}) if i % 4 == 0 else frozenset()) for i in range(2000)]
    rows = compare_outcomes(a, b)
    tests = row_tests(rows)
    assert tests and all(t.p_holm >= t.p_value for t in tests)
    sentence = checkpoint_mde_sentence(rows)
    assert sentence.startswith("with 2,000 calls in A and 2,000 in B, a change in the failure rate under ")


def test_checkpoint_holm_sentence_counts_what_survives() -> None:
    from application.compare.checkpoint_error_bars import holm_sentence

    a = [CallOutcome(f"e{i % 7}", frozenset({"cut_off"}) if i % 5 == 0 else frozenset()) for i in range(2000)]
    b = [CallOutcome(f"e{i % 7}", frozenset({"cut_off"}) if i % 4 == 0 else frozenset()) for i in range(2000)]
    rows = compare_outcomes(a, b)
    tests = row_tests(rows)
    kinds = [t for t in tests if t.section == "kind"]
    expected = (
        f"kinds: {sum(t.p_holm < 0.05 for t in kinds)} of {sum(t.p_value < 0.05 for t in kinds)} changes "
        f"at p < 0.05 hold after Holm across {len(kinds)}"
    )
    assert holm_sentence(rows).startswith(expected)


def test_model_error_bars_for_json_carry_estimate_tier_and_signed_pairs() -> None:
    from application.leaderboard.error_bars import model_error_bars

    reading = leaderboard_reading(_board({"big": 0.9, "small": 0.2}))
    big, small = model_error_bars(reading, "big"), model_error_bars(reading, "small")
    assert big["tier"] == 1 and big["tied_with_leader"] is True and small["tier"] == 2
    assert big["pairs"][0]["other"] == "small" and small["pairs"][0]["other"] == "big"
    assert big["pairs"][0]["difference"] == -small["pairs"][0]["difference"] > 0
    low, high = small["pairs"][0]["interval"]
    assert low <= small["pairs"][0]["difference"] <= high < 0
    assert big["estimate"]["method"] == "wilson" and big["board"]["mde_items"] == 40


def test_run_estimates_are_per_run_newest_first() -> None:
    from application.leaderboard.error_bars import run_estimates

    older = [
        Result(id=f"o{i}", eval_run_id="run-0", eval_id=f"ev{i}", score=float(i % 2), created_at=i) for i in range(20)
    ]
    newer = [
        Result(id=f"n{i}", eval_run_id="run-1", eval_id=f"ev{i}", score=1.0, created_at=100 + i) for i in range(20)
    ]
    unscored = [Result(id="u", eval_run_id="run-2", eval_id="ev0", score=None, created_at=1)]
    estimates = run_estimates(older + newer + unscored)
    assert [run for run, _ in estimates] == ["run-1", "run-0", "run-2"]
    assert estimates[0][1] is not None and estimates[0][1].mean == 1.0 and estimates[0][1].method == "wilson"
    assert estimates[2][1] is None and mean_cell(estimates[2][1]) == "—"
