"""A paired reading of a switch, beside the queue's own gate (never instead of it).

**Paired difference.** The candidate and the incumbent answered the same prompts, so the
question "is the candidate worse?" is read prompt by prompt. Each prompt gives a difference
``d_i``: in a comparison run ``+½`` when the candidate won, ``−½`` when it lost, ``0`` for a
tie (the mean is ``(W − L)/2n``, which is exactly the printed win rate minus 50 %: ``0`` is
parity, and a margin reads in win-rate points);
in a criterion run ``pass_candidate − pass_incumbent`` (the mean is the difference of pass
rates). The interval is the normal one on the mean of the ``d_i``:
``mean ± z · sd / √n`` (sd with ``n − 1``). Pairing removes the prompt-to-prompt spread that
two independent intervals would carry (lm-evaluation-harness #3831: p 0.080 → 0.008).
Noninferiority at margin ``δ`` holds when the interval's lower end is above ``−δ``.

**Prediction-powered estimate** (Angelopoulos et al., Science 2023) of the win rate, from
``N`` judged pairs and the ``n`` of them a person labelled. With the judge's score
``f`` (win 1, tie ½, loss 0) and the person's ``y`` (candidate 1, tie ½, baseline 0)::

    θ̂     = mean_N(f) + mean_n(y − f)            (the judge's rate, rectified by the labels)
    Var(θ̂) = var_N(f)/N + var_n(y − f)/n

The labels alone would give ``mean_n(y)`` with ``var_n(y)/n``; the ratio of the two variances
says what the judge's readings are worth: the labels with the judge equal ``n_equivalent``
labels alone. "Label K more" recomputes the variance with ``n + K`` labels (same spreads).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, variance

from common.format import plural
from diagnosis.stats import Interval

_Z95 = NormalDist().inv_cdf(0.975)
COMPARISON_SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}
HUMAN_SCORE = {"candidate": 1.0, "tie": 0.5, "baseline": 0.0}
COMPARISON_DIFFERENCE = {"win": 0.5, "tie": 0.0, "loss": -0.5}


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """Mean per-prompt difference (candidate − incumbent) with its 95 % interval."""

    n: int
    mean: float
    interval: Interval
    margin: float | None

    @property
    def noninferior(self) -> bool | None:
        """Whether the interval's floor clears ``−margin`` (None without a margin)."""
        if self.margin is None:
            return None
        return self.interval[0] > -self.margin

    def sentence(self, scale: str) -> str:
        low, high = self.interval
        text = (
            f"paired difference ({scale}) over {plural(self.n, 'prompt')}: {self.mean * 100:+.1f} points "
            f"[{low * 100:+.1f}, {high * 100:+.1f}]"
        )
        if self.margin is None:
            return text
        verdict = "noninferior" if self.noninferior else "not shown noninferior"
        return f"{text}; margin {self.margin * 100:.1f} points: {verdict}"


def paired_difference(differences: Sequence[float], margin: float | None = None) -> PairedDifference | None:
    """The paired reading of per-prompt differences (None with fewer than 2 prompts)."""
    n = len(differences)
    if n < 2:
        return None
    mean = fmean(differences)
    half = _Z95 * math.sqrt(variance(differences) / n)
    return PairedDifference(n=n, mean=mean, interval=(mean - half, mean + half), margin=margin)


def comparison_differences(outcomes: Sequence[str]) -> list[float]:
    """A comparison arm's per-prompt differences (failed pairs carry no reading: left out)."""
    return [COMPARISON_DIFFERENCE[o] for o in outcomes if o in COMPARISON_DIFFERENCE]


def criterion_differences(candidate: Sequence[str], incumbent: Sequence[str]) -> list[int]:
    """Per-prompt pass differences where both answers were judged (unparsed left out)."""
    graded = ("pass", "fail")
    return [
        (c == "pass") - (i == "pass") for c, i in zip(candidate, incumbent, strict=True) if c in graded and i in graded
    ]


@dataclass(frozen=True, slots=True)
class PredictionPowered:
    """The prediction-powered win rate beside what the labels alone say."""

    estimate: float
    interval: Interval
    judged: int
    labelled: int
    labels_only: float
    labels_only_interval: Interval
    n_equivalent: float | None

    def half_width_with_more(self, more: int, spread_judge: float, spread_rectifier: float) -> float:
        return _Z95 * math.sqrt(spread_judge / self.judged + spread_rectifier / (self.labelled + more))


@dataclass(frozen=True, slots=True)
class PredictionPoweredReading:
    estimate: PredictionPowered
    more_labels: int
    half_width_after_more: float

    def sentences(self) -> list[str]:
        e = self.estimate
        low, high = e.interval
        said = [
            (
                f"prediction-powered win rate {e.estimate:.1%} [{low:.1%}-{high:.1%}] "
                f"from {plural(e.judged, 'judged pair')} and {plural(e.labelled, 'label')}"
            )
        ]
        if e.n_equivalent is not None:
            said.append(
                f"with the judge's readings {'this label is' if e.labelled == 1 else f'these {e.labelled} labels are'} "
                f"worth {e.n_equivalent:.0f} labels alone"
            )
        said.append(f"label {self.more_labels} more for ±{self.half_width_after_more * 100:.1f} points")
        return said


def prediction_powered(
    judge_scores: Sequence[float],
    labelled: Sequence[tuple[float, float]],
    more_labels: int = 30,
) -> PredictionPoweredReading | None:
    """``judge_scores``: the judge's score on every judged pair; ``labelled``: (judge score,
    person's score) on the pairs a person labelled. None with fewer than 2 labels."""
    big_n, n = len(judge_scores), len(labelled)
    if n < 2 or big_n < 2:
        return None
    rectifier = [y - f for f, y in labelled]
    spread_judge = variance(judge_scores)
    spread_rectifier = variance(rectifier)
    estimate = fmean(judge_scores) + fmean(rectifier)
    half = _Z95 * math.sqrt(spread_judge / big_n + spread_rectifier / n)
    human = [y for _, y in labelled]
    labels_mean = fmean(human)
    labels_half = _Z95 * math.sqrt(variance(human) / n)
    pp_variance = spread_judge / big_n + spread_rectifier / n
    n_equivalent = variance(human) / pp_variance if pp_variance > 0 else None
    reading = PredictionPowered(
        estimate=estimate,
        interval=(max(0.0, estimate - half), min(1.0, estimate + half)),
        judged=big_n,
        labelled=n,
        labels_only=labels_mean,
        labels_only_interval=(max(0.0, labels_mean - labels_half), min(1.0, labels_mean + labels_half)),
        n_equivalent=n_equivalent,
    )
    after = reading.half_width_with_more(more_labels, spread_judge, spread_rectifier)
    return PredictionPoweredReading(estimate=reading, more_labels=more_labels, half_width_after_more=after)
