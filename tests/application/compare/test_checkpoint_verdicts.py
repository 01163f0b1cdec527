"""Did the new checkpoint get better? The rows' numbers and verdicts against hand computations
(``diagnosis.checkpoint``): a clear improvement, a clear regression, a sample too small to
tell, and rows with no calls on a side."""

from __future__ import annotations

import pytest

from diagnosis.checkpoint import (
    ANY_FAILURE,
    BETTER,
    NO_CHANGE,
    WORSE,
    CallOutcome,
    compare_counts,
    compare_outcomes,
)


def calls(n: int, *, failing: int, kind: str = "loop", eval_id: str | None = None) -> list[CallOutcome]:
    """``n`` calls of which the first ``failing`` carry ``kind``."""
    return [CallOutcome(eval_id, frozenset({kind}) if i < failing else frozenset()) for i in range(n)]


def test_a_clear_improvement_is_better_with_newcombes_published_interval() -> None:
    # Newcombe (1998b), Table II example: 56/70 against 48/80, difference 0.2000,
    # 95 % interval 0.0524 to 0.3339. Here as failure rates: 56 of 70 calls failed before,
    # 48 of 80 after, so B − A = −0.2000 in (−0.3339, −0.0524): fewer failures, "better".
    row = compare_counts("kind", "loop", a_failures=56, a_calls=70, b_failures=48, b_calls=80)
    assert row.difference == pytest.approx(-0.2)
    assert row.difference_interval == pytest.approx((-0.3339, -0.0524), abs=5e-5)
    assert row.verdict == BETTER
    # Wilson for 56/70, by hand with z² = 3.841459: centre (0.8 + z²/140) / (1 + z²/70)
    # = 0.827439 / 1.054878 = 0.784393; half-width 1.959964 / 1.054878 · √(0.16/70 + z²/19600)
    # = 1.858013 · 0.049817 = 0.092561; so 0.6918 to 0.8770.
    assert row.a is not None and row.a.interval == pytest.approx((0.6918, 0.8770), abs=5e-5)
    # n per side for 0.8 against 0.6 (Fleiss, alpha 0.05 two-sided, power 0.8), by hand:
    # p̄ = 0.7; (1.959964·√(2·0.7·0.3) + 0.841621·√(0.8·0.2 + 0.6·0.4))² / 0.2²
    # = (1.270202 + 0.532287)² / 0.04 = 81.22, rounded up to 82.
    assert row.n_needed == 82 and row.n_needed_note is None


def test_a_clear_regression_is_worse() -> None:
    row = compare_counts("eval", "ev-1", a_failures=48, a_calls=80, b_failures=56, b_calls=70)
    assert row.difference == pytest.approx(0.2)
    assert row.difference_interval == pytest.approx((0.0524, 0.3339), abs=5e-5)
    assert row.verdict == WORSE
    assert row.n_needed == 82


def test_too_small_a_sample_is_no_detectable_change_with_the_calls_it_would_take() -> None:
    # 2 of 10 failed before, 1 of 10 after: halved, but ten calls cannot tell.
    row = compare_counts("kind", "refusal", a_failures=2, a_calls=10, b_failures=1, b_calls=10)
    assert row.difference == pytest.approx(-0.1)
    assert row.difference_interval is not None
    low, high = row.difference_interval
    assert low < 0 < high
    assert row.verdict == NO_CHANGE == "no detectable change at this sample size"
    # 0.2 against 0.1, by hand: p̄ = 0.15; (1.959964·√0.255 + 0.841621·√0.25)² / 0.01
    # = (0.989733 + 0.420811)² / 0.01 = 198.96 -> 199 calls per side (the textbook figure).
    assert row.n_needed == 199


def test_equal_rates_need_no_sample_size_and_say_why() -> None:
    row = compare_counts("kind", "empty", a_failures=3, a_calls=30, b_failures=1, b_calls=10)
    assert row.difference == pytest.approx(0.0)
    assert row.verdict == NO_CHANGE
    assert row.n_needed is None and row.n_needed_note == "same rate"


def test_a_row_with_no_calls_says_so_and_invents_nothing() -> None:
    row = compare_counts("eval", "ev-new", a_failures=0, a_calls=0, b_failures=2, b_calls=5)
    assert row.a is None and row.b is not None and row.b.rate == pytest.approx(0.4)
    assert row.difference is None and row.difference_interval is None and row.n_needed is None
    assert row.verdict == "no calls in A"
    both = compare_counts("eval", "ev-gone", a_failures=0, a_calls=0, b_failures=0, b_calls=0)
    assert both.verdict == "no calls in A or B" and both.a is None and both.b is None


def test_rows_any_failure_then_each_kind_found_then_each_eval_regressions_first() -> None:
    before = [
        *calls(40, failing=30, kind="loop", eval_id="ev-fixed"),
        *calls(40, failing=2, kind="refusal", eval_id="ev-broken"),
        *calls(20, failing=0, eval_id="ev-old-only"),
        CallOutcome(None, frozenset({"template_mismatch"})),  # a cause only: not a failure
    ]
    after = [
        *calls(40, failing=2, kind="loop", eval_id="ev-fixed"),
        *calls(40, failing=30, kind="refusal", eval_id="ev-broken"),
        CallOutcome(None, frozenset()),
    ]
    rows = compare_outcomes(before, after)
    assert [(r.section, r.name) for r in rows] == [
        ("overall", ANY_FAILURE),
        ("kind", "template_mismatch"),
        ("kind", "loop"),
        ("kind", "refusal"),
        ("eval", "ev-broken"),
        ("eval", "ev-fixed"),
        ("eval", "ev-old-only"),
    ]
    overall = rows[0]
    assert overall.a is not None and (overall.a.failures, overall.a.calls) == (32, 101)
    assert overall.b is not None and (overall.b.failures, overall.b.calls) == (32, 81)
    by_name = {r.name: r for r in rows}
    assert by_name["template_mismatch"].a is not None and by_name["template_mismatch"].a.failures == 1
    assert by_name["loop"].verdict == BETTER and by_name["refusal"].verdict == WORSE
    assert by_name["ev-broken"].verdict == WORSE and by_name["ev-fixed"].verdict == BETTER
    assert by_name["ev-old-only"].verdict == "no calls in B"
    assert by_name["ev-fixed"].a is not None and (by_name["ev-fixed"].a.failures, by_name["ev-fixed"].a.calls) == (
        30,
        40,
    )


def test_a_cause_only_kind_is_marked_so_its_rate_above_any_failure_reads_right() -> None:
    from application.compare.checkpoint_format import row_label
    from diagnosis.checkpoint import CallOutcome, compare_outcomes
    from diagnosis.kinds import CAUSE_ONLY_KINDS

    cause = next(iter(CAUSE_ONLY_KINDS))
    calls = [CallOutcome(None, frozenset({cause}))] * 3 + [CallOutcome(None, frozenset())]
    rows = {row.name: row for row in compare_outcomes(calls, calls)}
    assert rows["any failure"].a is not None and rows["any failure"].a.failures == 0
    assert rows[cause].a is not None and rows[cause].a.failures == 3
    assert row_label(rows[cause]).endswith("(cause only)")
    assert "(cause only)" not in row_label(rows["any failure"])
