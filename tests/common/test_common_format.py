"""common.format: the one way the app writes times, durations, latency, sizes, counts and a
missing value; common.lru: the one bounded least-recently-used mapping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from common.format import (
    DASH,
    TIME_WIDTHS,
    format_count,
    format_duration,
    format_latency,
    format_size,
    format_time,
    format_timestamp,
    format_utc,
)
from common.lru import BoundedLRU


def ms(*args: int, tz: timezone = UTC) -> int:
    return int(datetime(*args, tzinfo=tz).timestamp() * 1000)


# ----------------------------------------------------------------------------- times


def test_missing_times_are_the_dash_everywhere() -> None:
    assert format_time(None) == DASH == "—"
    assert format_timestamp(None) == DASH
    assert format_utc(None) == DASH
    assert format_utc(None, missing="unknown") == "unknown"


def test_the_list_time_shows_milliseconds_and_the_date_only_when_asked() -> None:
    at = ms(2025, 6, 15, 15, 6, 40) + 123
    assert format_time(at, UTC) == "15:06:40.123"
    assert format_time(at, UTC, "day") == "Jun 15 15:06:40.123"
    assert format_time(at, UTC, "year") == "2025-06-15 15:06:40.123"
    for dates, width in TIME_WIDTHS.items():
        assert len(format_time(at, UTC, dates)) == width


def test_times_across_midnight_and_new_year_follow_the_zone() -> None:
    new_year_utc = ms(2025, 12, 31, 23, 59, 59) + 999
    assert format_time(new_year_utc, UTC, "year") == "2025-12-31 23:59:59.999"
    plus_two = timezone(timedelta(hours=2))
    assert format_time(new_year_utc, plus_two, "year") == "2026-01-01 01:59:59.999"
    assert format_time(new_year_utc, plus_two, "day") == "Jan 01 01:59:59.999"
    assert format_timestamp(new_year_utc, UTC) == "2025-12-31 23:59:59.999 UTC"
    assert format_timestamp(new_year_utc, plus_two) == "2026-01-01 01:59:59.999 UTC+02:00"
    assert format_utc(new_year_utc + 1) == "2026-01-01 00:00:00Z"


def test_platform_times_in_utc_in_each_screens_shape() -> None:
    at = ms(2026, 11, 29, 10, 4, 41) + 500
    assert format_utc(at) == "2026-11-29 10:04:41Z"  # runs, results, health, webhooks, training
    assert format_utc(at, seconds=False, zone=" UTC") == "2026-11-29 10:04 UTC"  # models
    assert format_utc(at, date=False, zone="") == "10:04:41"  # chatroom, run watch
    assert format_utc(at, zone="") == "2026-11-29 10:04:41"  # games rows
    assert format_utc(at, zone=" UTC", missing="unknown") == "2026-11-29 10:04:41 UTC"  # reports


def test_a_time_no_clock_can_mean_is_never_invented() -> None:
    absurd = 10**20
    assert format_time(absurd, UTC) == DASH
    assert format_timestamp(absurd, UTC) == DASH
    assert format_utc(absurd) == str(absurd)  # shown as sent


# ----------------------------------------------------------------------------- durations and latency


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(None, DASH), (float("nan"), DASH), (0, "0s"), (42, "42s"), (185, "3m 05s"), (3720, "1h 02m"), (90061, "25h 01m")],
)
def test_durations(seconds: float | None, shown: str) -> None:
    assert format_duration(seconds) == shown


@pytest.mark.parametrize(
    ("latency_ms", "shown"),
    [
        (None, DASH),
        (0, "0 ms"),
        (812, "812 ms"),
        (812.4, "812 ms"),
        (9_999, "9999 ms"),
        (9_999.6, "10.0 s"),  # never "10000 ms"
        (10_000, "10.0 s"),
        (15_300, "15.3 s"),
        (59_940, "59.9 s"),
        (59_960, "1m 00s"),  # never "60.0 s"
        (245_000, "4m 05s"),
        (7_380_000, "2h 03m"),
    ],
)
def test_latency_has_one_format_ms_then_seconds_then_minutes(latency_ms: float | None, shown: str) -> None:
    assert format_latency(latency_ms) == shown


def test_latency_fits_the_log_lists_seven_cells() -> None:
    widest = max((format_latency(v) for v in range(0, 20_000_000, 997)), key=len)
    assert len(widest) <= 7, widest


# ----------------------------------------------------------------------------- sizes and counts


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (None, DASH),
        (0, "0 B"),
        (1023, "1023 B"),
        (1024, "1.0 KiB"),
        (181_000, "176.8 KiB"),
        (1_240_000, "1.2 MiB"),
        (1024**2 - 1, "1.0 MiB"),  # never "1024.0 KiB"
        (3 * 1024**3 + 400 * 1024**2, "3.4 GiB"),
        (5 * 1024**4, "5.0 TiB"),
    ],
)
def test_sizes_in_binary_units(size: int | None, shown: str) -> None:
    assert format_size(size) == shown


def test_counts_have_thousands_separators_and_missing_is_not_zero() -> None:
    assert format_count(1234567) == "1,234,567"
    assert format_count(0) == "0"
    assert format_count(None) == DASH


# ----------------------------------------------------------------------------- the bounded LRU


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: BoundedLRU[str, int] = BoundedLRU(2)
    cache["a"] = 1
    cache["b"] = 2
    assert cache.get("a") == 1  # a use: "b" is now the oldest
    cache["c"] = 3
    assert "b" not in cache and cache.keys() == ["a", "c"]
    assert cache.peek("a") == 1  # not a use: "a" stays the oldest
    cache["d"] = 4
    assert cache.keys() == ["c", "d"] and len(cache) == 2
    assert cache.get("gone", 0) == 0 and cache.peek("gone") is None
    cache["c"] = 30  # replacing makes it the newest
    assert cache.keys() == ["d", "c"] and cache["c"] == 30
    assert cache.pop("d") == 4 and cache.keys() == ["c"]
    cache.clear()
    assert len(cache) == 0


def test_as_a_bounded_set_a_replayed_id_is_refused_and_does_not_keep_itself_alive() -> None:
    seen: BoundedLRU[str, None] = BoundedLRU(3)
    assert [seen.add(i) for i in ("a", "b", "c")] == [True, True, True]
    assert seen.add("a") is False  # a duplicate
    assert seen.add("d") is True
    assert "a" not in seen  # the duplicate did not refresh it: the oldest still went
    assert seen.keys() == ["b", "c", "d"]


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        BoundedLRU(0)
