"""diagnosis/early_stop.py: a running bake-off read after every sample. A clearly better
candidate is decided before the last sample; one as good as the baseline never wins (at most
"noninferior"), by simulation over 2,000 seeded runs, checked after every sample."""

from __future__ import annotations

import numpy as np
import pytest

from diagnosis.early_stop import (
    check_margin,
    criterion_reading,
    expected_samples,
    pass_rate_reading,
    remaining_cost,
    win_rate_reading,
)

RUNS = 2000
PLANNED = 300


def _first_decision(outcomes: list[str], margin: float | None) -> tuple[int | None, str]:
    """Read after every sample, as the watch does: where it first settles, and how."""
    for n in range(1, len(outcomes) + 1):
        reading = win_rate_reading("b", outcomes[:n], len(outcomes), margin)
        if reading.decided:
            return n, reading.settled
    return None, "undecided"


def _simulate(p: list[float], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.choice(np.array(["win", "tie", "loss"]), size=(RUNS, PLANNED), p=p)


def _decisions(p: list[float], seed: int, margin: float | None) -> tuple[np.ndarray, list[str]]:
    """Vectorised: the sequence's radius depends on n only (checked against the product's own
    reading on a few runs)."""
    from diagnosis.sequential import mixing_precision, radius

    runs = _simulate(p, seed)
    score = np.where(runs == "win", 1.0, np.where(runs == "tie", 0.5, 0.0))
    n = np.arange(1, PLANNED + 1)
    mean = np.cumsum(score, axis=1) / n
    rho = mixing_precision(PLANNED)
    half = np.array([radius(k, rho) for k in n])
    low, high = np.maximum(0, mean - half), np.minimum(1, mean + half)
    floor = 0.5 - (margin or 0.0)
    win, loss = low > 0.5, high < floor
    noninferior = (low > floor) if margin is not None else np.zeros_like(win)
    settled = win | loss | noninferior
    first = np.where(settled.any(axis=1), settled.argmax(axis=1), -1)
    kinds = []
    for row, at in enumerate(first):
        kinds.append("undecided" if at < 0 else "win" if win[row, at] else "loss" if loss[row, at] else "noninferior")
    for row in range(3):  # the product's own function, read after every sample, agrees
        at, kind = _first_decision(list(runs[row]), margin)
        assert (at or 0) - 1 == first[row] or (at is None and first[row] < 0)
        assert kind == kinds[row]
    return first, kinds


def test_a_clearly_better_candidate_stops_early_as_a_win() -> None:
    first, kinds = _decisions([0.6, 0.2, 0.2], 50, margin=None)  # win rate 70 %
    decided = first >= 0
    assert decided.mean() > 0.99 and all(k == "win" for k, d in zip(kinds, decided, strict=True) if d)
    assert np.median(first[decided] + 1) < PLANNED / 2  # measured: median 65 of 300, 90th percentile 104


def test_a_candidate_as_good_as_the_baseline_never_wins() -> None:
    _, kinds = _decisions([0.4, 0.2, 0.4], 51, margin=0.1)
    assert kinds.count("win") / RUNS <= 0.025  # measured: 0 with the margin; 0.0055 without one
    assert kinds.count("loss") / RUNS <= 0.025
    assert {"noninferior", "undecided"} >= set(kinds) - {"win", "loss"}
    assert kinds.count("noninferior") / RUNS > 0.5  # with a 10-point margin, mostly settled as noninferior


def test_readings_and_sentences() -> None:
    reading = win_rate_reading("b", ["win"] * 60 + ["failed"] * 3, 200)
    assert reading.decided and reading.settled == "win" and reading.readings == 60 and reading.read == 63
    assert reading.sentence().startswith("b: decided at 63 of 200 samples: win (win rate 100.0%, anytime-valid")
    assert win_rate_reading("b", [], 200).sentence() == "b: not decided at 0 of 200 samples (no reading yet)"
    worse = criterion_reading("b", ["fail"] * 80, ["pass"] * 80, 200, margin=0.05)
    assert worse.settled == "loss"
    rate = pass_rate_reading("m", ["pass"] * 90 + ["fail"] * 10, 200, 0.6, tpr=0.95, tnr=0.9)
    assert rate.settled == "win" and "corrected" in (rate.note or "")
    assert remaining_cost(120, 400, 2.5) == 700.0 and remaining_cost(120, 400, None) is None
    assert expected_samples(400, 0.2) is not None and expected_samples(400, 0.001) is None


def test_a_margin_outside_0_to_1_is_refused_with_its_value() -> None:
    with pytest.raises(ValueError, match=r"between 0 and 1.*1\.5"):
        check_margin(1.5)
    with pytest.raises(ValueError, match="margin"):
        win_rate_reading("b", ["win"], 10, margin=-0.1)
    assert check_margin(None) is None and check_margin(0.05) == 0.05
