"""Bucket calls over time for the Logs screen's latency / error-rate plot.

A bucket with no calls is a gap (None), never 0; a bucket whose calls all failed has an error
rate but no latency when the platform recorded none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["CallPoint", "Series", "bucket_calls"]

CallPoint = tuple[int, int | None, bool]
"""``(created_at ms, latency_ms or None, failed)`` of one call."""


@dataclass(frozen=True)
class Series:
    """Per-bucket values; ``xs`` are the bucket starts (ms), one per bucket, oldest first."""

    xs: list[int] = field(default_factory=list)
    mean_latency_ms: list[float | None] = field(default_factory=list)
    error_rate_pct: list[float | None] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    bucket_ms: int = 0

    @property
    def empty(self) -> bool:
        return not any(self.calls)


_NICE_STEPS_MS = [
    1_000,
    5_000,
    15_000,
    60_000,
    5 * 60_000,
    15 * 60_000,
    30 * 60_000,
    3_600_000,
    3 * 3_600_000,
    6 * 3_600_000,
    12 * 3_600_000,
    86_400_000,
]


def _bucket_size(span_ms: int, target: int) -> int:
    for step in _NICE_STEPS_MS:
        if span_ms / step <= target:
            return step
    return max(1, span_ms // max(1, target))


def bucket_calls(points: Iterable[CallPoint], *, target_buckets: int = 48) -> Series:
    """Group calls into at most ~``target_buckets`` time buckets of a readable size."""
    items = sorted(points, key=lambda p: p[0])
    if not items:
        return Series()
    first, last = items[0][0], items[-1][0]
    size = _bucket_size(max(1, last - first), target_buckets)
    start = first - first % size
    count = (last - start) // size + 1
    totals = [0] * count
    failures = [0] * count
    latency_sum = [0] * count
    latency_n = [0] * count
    for created_at, latency, failed in items:
        index = (created_at - start) // size
        totals[index] += 1
        failures[index] += 1 if failed else 0
        if latency is not None:
            latency_sum[index] += latency
            latency_n[index] += 1
    return Series(
        xs=[start + i * size for i in range(count)],
        mean_latency_ms=[latency_sum[i] / latency_n[i] if latency_n[i] else None for i in range(count)],
        error_rate_pct=[100 * failures[i] / totals[i] if totals[i] else None for i in range(count)],
        calls=totals,
        bucket_ms=size,
    )
