"""``application.leaderboard.bench_board``: the board's order and its coverage sentence (no Textual)."""

from __future__ import annotations

from api_client.blobfish.shapes_bench import CommunityRow, Coverage
from application.leaderboard.bench_board import by_mean_score, coverage_sentence


def row(bcr: str, mean: float | None) -> CommunityRow:
    return CommunityRow(community_run_id=bcr, mean_score=mean)


def test_best_mean_score_first_ties_in_the_platforms_order_and_no_score_last_not_as_zero() -> None:
    rows = [row("a", None), row("b", 0.2), row("c", 0.9), row("d", 0.0), row("e", 0.9)]
    assert [r.community_run_id for r in by_mean_score(rows)] == ["c", "e", "b", "d", "a"]


def test_coverage_says_hosted_tasks_against_the_official_suite_or_that_it_was_not_recorded() -> None:
    assert (
        coverage_sentence(Coverage(hosted_tasks=12, official_suite=False))
        == "self-run, not the official suite (12 hosted tasks)"
    )
    assert (
        coverage_sentence(Coverage(hosted_tasks=100, official_suite=True))
        == "covers the official suite (100 hosted tasks)"
    )
    assert coverage_sentence(Coverage(official_suite=False)) == "self-run, not the official suite (— hosted tasks)"
    assert coverage_sentence(Coverage(hosted_tasks=3)) == "coverage not recorded"
    assert coverage_sentence(None) == "coverage not recorded"
