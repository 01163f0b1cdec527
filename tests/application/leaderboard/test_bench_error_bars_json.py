"""`bench board --json`'s error bars: a Wilson interval from a row's counts, or why there is none."""

from __future__ import annotations

from api_client.blobfish.shapes_bench import CommunityRow
from application.leaderboard.bench_error_bars import pass_rate_json
from diagnosis.stats import wilson_interval


def test_a_row_with_counts_gets_its_wilson_interval() -> None:
    said = pass_rate_json(CommunityRow.model_validate({"community_run_id": "bcr_1", "graded": 40, "passed": 28}))
    rate = said["pass_rate"]
    assert isinstance(rate, dict) and (rate["low"], rate["high"]) == wilson_interval(28, 40)
    assert rate["estimate"] == 0.7 and "no interval" in str(said["mean_score"])


def test_a_row_without_usable_counts_gets_no_interval_and_says_why() -> None:
    for fields in ({}, {"graded": 0, "passed": 0}, {"graded": 10, "passed": 11}, {"pass_rate": 0.5}):
        said = pass_rate_json(CommunityRow.model_validate({"community_run_id": "bcr_2", **fields}))
        assert said["pass_rate"] is None and "no interval" in str(said["why"])
