"""Is a running bake-off already decided? The anytime-valid reading of its partial samples
(``diagnosis.sequential``), and what stopping now would save.

A bake-off's samples arrive in order while it runs (the queue's samples route answers while
RUNNING). After each, the confidence sequence of the quantity that decides the run is updated;
once it lies wholly on one side of its line the verdict cannot change (with 95 % confidence,
however often it was looked at), and the rest of the run is money spent on a settled question.

- Comparison run, per candidate: each pair scored win 1, tie ½, loss 0 (a failed pair carries
  no reading); the **win rate** against 50 %, and with a noninferiority margin ``δ`` (in win
  rate points, as the queue's gate reads it) "noninferior" once the floor is above ``0.5 − δ``.
- Criterion run, candidate against the incumbent: the **paired difference** of pass
  (``pass_candidate − pass_incumbent`` in [−1, 1]) against 0 and ``−δ``.
- Criterion run, one model against a required rate: the **pass rate**, corrected for the
  judge's measured error (Rogan–Gladen, ``tpr``/``tnr`` taken as known: their own uncertainty
  is not in this sequence, and the sentence says so).

"Decided at N of M samples" is said once the sequence settles; the remaining samples' cost is
:func:`remaining_cost` from the per-sample costs the caller measured (never a guess: None when
a part was not measured).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from diagnosis.sequential import ConfidenceSequence, Settled, confidence_sequence, decide, samples_to_decide
from diagnosis.stats import rogan_gladen

__all__ = [
    "EarlyReading",
    "check_margin",
    "criterion_reading",
    "expected_samples",
    "pass_rate_reading",
    "remaining_cost",
    "win_rate_reading",
]

Quantity = Literal["win rate", "paired difference", "pass rate"]
WIN_SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}
GRADED = ("pass", "fail")


def check_margin(margin: float | None) -> float | None:
    """The margin as given, or a ValueError naming it when it is outside 0-1."""
    if margin is not None and not 0.0 <= margin <= 1.0:  # also rejects NaN
        raise ValueError(f"the noninferiority margin must lie between 0 and 1 (a share of win rate), got {margin!r}")
    return margin


@dataclass(frozen=True, slots=True)
class EarlyReading:
    """Where one quantity of a running bake-off stands after ``read`` of ``planned`` samples."""

    subject: str  # the arm (or model) this reading is about
    quantity: Quantity
    read: int  # samples read so far (in order, failed pairs included)
    readings: int  # of them, the ones that carry a reading
    planned: int
    sequence: ConfidenceSequence | None
    settled: Settled
    margin: float | None = None
    note: str | None = None  # e.g. the judge's own uncertainty is not included

    @property
    def decided(self) -> bool:
        return self.settled != "undecided"

    def interval_text(self) -> str:
        if self.sequence is None:
            return "no reading yet"
        low, high = self.sequence.interval
        return f"{self.quantity} {self.sequence.mean:.1%}, anytime-valid 95% interval [{low:.1%}, {high:.1%}]"

    def sentence(self) -> str:
        """``arm b: decided at 120 of 400 samples: win (win rate 71.0%, anytime-valid ...)``."""
        words = {"win": "win", "loss": "loss", "noninferior": "noninferior (within the margin)"}
        head = (
            f"decided at {self.read} of {self.planned} samples: {words[self.settled]}"
            if self.decided
            else f"not decided at {self.read} of {self.planned} samples"
        )
        text = f"{self.subject}: {head} ({self.interval_text()})"
        return f"{text}; {self.note}" if self.note else text


def _reading(
    subject: str,
    quantity: Quantity,
    values: Sequence[float],
    read: int,
    planned: int,
    *,
    low: float,
    high: float,
    parity: float,
    margin: float | None,
    note: str | None = None,
) -> EarlyReading:
    sequence = confidence_sequence(sum(values), len(values), planned=max(planned, 1), low=low, high=high)
    return EarlyReading(
        subject,
        quantity,
        read,
        len(values),
        planned,
        sequence,
        decide(sequence, parity=parity, margin=margin).settled,
        margin,
        note,
    )


def win_rate_reading(
    subject: str, outcomes: Sequence[str | None], planned: int, margin: float | None = None
) -> EarlyReading:
    """A comparison arm's outcomes so far (in sample order) against 50 %."""
    values = [WIN_SCORE[o] for o in outcomes if o in WIN_SCORE]
    return _reading(
        subject, "win rate", values, len(outcomes), planned, low=0.0, high=1.0, parity=0.5, margin=check_margin(margin)
    )


def criterion_reading(
    subject: str,
    candidate: Sequence[str | None],
    incumbent: Sequence[str | None],
    planned: int,
    margin: float | None = None,
) -> EarlyReading:
    """A candidate's pass/fail against the incumbent's on the same samples so far."""
    values = [
        float((c == "pass") - (i == "pass"))
        for c, i in zip(candidate, incumbent, strict=False)
        if c in GRADED and i in GRADED
    ]
    return _reading(
        subject,
        "paired difference",
        values,
        min(len(candidate), len(incumbent)),
        planned,
        low=-1.0,
        high=1.0,
        parity=0.0,
        margin=check_margin(margin),
    )


def pass_rate_reading(
    subject: str,
    outcomes: Sequence[str | None],
    planned: int,
    required: float,
    *,
    tpr: float | None = None,
    tnr: float | None = None,
) -> EarlyReading:
    """A model's pass rate so far against ``required``; corrected for the judge when its
    ``tpr``/``tnr`` are given (the observed sequence's ends mapped through Rogan–Gladen)."""
    if not 0.0 <= required <= 1.0:
        raise ValueError(f"the required pass rate must lie between 0 and 1, got {required!r}")
    values = [1.0 if o == "pass" else 0.0 for o in outcomes if o in GRADED]
    reading = _reading(
        subject, "pass rate", values, len(outcomes), planned, low=0.0, high=1.0, parity=required, margin=None
    )
    if tpr is None or tnr is None or reading.sequence is None:
        return reading
    low, high = reading.sequence.interval
    corrected = [rogan_gladen(v, tpr, tnr) for v in (reading.sequence.mean, low, high)]
    if any(v is None for v in corrected):
        return replace(
            reading, sequence=None, settled="undecided", note="the judge is no better than chance: no corrected rate"
        )
    mean, c_low, c_high = (v for v in corrected if v is not None)
    sequence = ConfidenceSequence(reading.sequence.n, mean, (c_low, c_high), reading.sequence.alpha, planned)
    return replace(
        reading,
        sequence=sequence,
        settled=decide(sequence, parity=required).settled,
        note="corrected for the judge's measured error (its own uncertainty not included)",
    )


def remaining_cost(read: int, planned: int, per_sample: float | None) -> float | None:
    """What the samples not yet run would cost (``per_sample``: generations and judge calls of
    one sample, in the queue's unit); None when that cost was not measured."""
    if per_sample is None:
        return None
    return max(0, planned - read) * per_sample


def expected_samples(planned: int, assumed_effect: float, *, quantity: Quantity = "win rate") -> int | None:
    """About how many samples the sequence needs to decide when the true effect is
    ``assumed_effect`` (win rate above 50 %, or pass-rate points): for the plan, beside the
    fixed-n figure. None when it would not decide within ``planned``."""
    low, high = (-1.0, 1.0) if quantity == "paired difference" else (0.0, 1.0)
    return samples_to_decide(abs(assumed_effect), planned=planned, low=low, high=high)
