"""One figure of a verdict read against the decision's line, and what would settle it.

A ``LineReading`` is one interval on the verdict's question ("is the candidate worse than the
baseline?", or "more than M points worse?"): a rate against parity less the margin, or a paired
difference against minus the margin. Its answer is yes (worse: the high end below the line), no
(the low end at or above it) or can't tell. ``samples_needed`` says what would settle a figure
that can't tell: about how many judged samples, if the figure held, never past the queue's cap
(past it, what to do instead). ``application.bakeoffs.verdict`` decides from these readings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from diagnosis.planning import SAMPLE_CAP, beyond_cap

if TYPE_CHECKING:
    from diagnosis.paired import PairedDifference

__all__ = [
    "CANNOT_TELL",
    "NO_NOT_WORSE",
    "PARITY",
    "YES_WORSE",
    "LineReading",
    "interval_text",
    "line_text",
    "paired_reading",
    "points",
    "rate_reading",
    "samples_needed",
]

PARITY = 0.5
YES_WORSE, NO_NOT_WORSE, CANNOT_TELL = "yes", "no", "can't tell"


def interval_text(ci: list[float] | None) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "[—, —]"


def points(value: float) -> str:
    return f"{value * 100:+.1f}"


@dataclass(frozen=True)
class LineReading:
    """One interval on the decision's question: ``center`` in ``[low, high]`` against ``line``
    (a rate against parity less the margin, or a difference against minus the margin)."""

    name: str
    value: str
    center: float
    low: float
    high: float
    line: float
    parity: float
    n: int | None

    @property
    def answer(self) -> str:
        if self.high < self.line:
            return YES_WORSE
        if self.low >= self.line:
            return NO_NOT_WORSE
        return CANNOT_TELL

    def said(self, line_text: str) -> str:
        if self.answer == YES_WORSE:
            return f"{YES_WORSE}: below {line_text} even at its high end"
        if self.answer == NO_NOT_WORSE:
            return f"{NO_NOT_WORSE}: at or above {line_text} even at its low end"
        return f"{CANNOT_TELL}: the interval crosses {line_text}"


def rate_reading(name: str, rate: float, ci: list[float], n: int | None, margin: float | None) -> LineReading:
    return LineReading(name, f"{rate:.3f} {interval_text(ci)}", rate, ci[0], ci[1], PARITY - (margin or 0.0), PARITY, n)


def paired_reading(name: str, paired: PairedDifference, margin: float | None, scale: float = 1.0) -> LineReading:
    low, high = paired.interval[0] / scale, paired.interval[1] / scale
    mean = paired.mean / scale
    value = f"{points(mean)} points [{points(low)}, {points(high)}]"
    return LineReading(name, value, mean, low, high, -(margin or 0.0), 0.0, paired.n)


def line_text(reading: LineReading) -> str:
    if reading.parity == PARITY:
        return f"{reading.line:.3f}"
    return f"{reading.line * 100:+.1f} points" if reading.line else "0 (no difference)"


def margin_at_cap(reading: LineReading, half_now: float) -> float | None:
    """The smallest margin a run at the queue's cap would settle as noninferior, if the
    centre held and the interval narrowed as 1/sqrt(n)."""
    if not reading.n:
        return None
    half_at_cap = half_now * math.sqrt(reading.n / SAMPLE_CAP)
    return max(0.0, reading.parity - reading.center + half_at_cap)


def samples_needed(reading: LineReading, calibrate: str) -> str:
    n, center, line = reading.n, reading.center, reading.line
    gap = abs(center - line)
    half = reading.high - center if center < line else center - reading.low  # the side that reaches the line
    if not n or gap < 0.005:
        return "the rate sits on the line: no number of samples separates it; " + beyond_cap(
            "settle it", None, margin_at_cap(reading, half) if n else None, calibrate
        )
    needed = max(n + 1, math.ceil(n * (half / gap) ** 2))
    if needed > SAMPLE_CAP:
        return beyond_cap(
            f"settle it if the figure holds at {reading.value.split(' [')[0]} (now {n} judged samples)",
            needed,
            margin_at_cap(reading, half),
            calibrate,
        )
    return (
        f"about {needed} judged samples (now {n}) if the figure holds at {reading.value.split(' [')[0]} "
        f"(rough; the queue takes up to {SAMPLE_CAP} a run)"
    )
