"""Unit tests of tui/health_windows.py: outage windows, uptime, lookups."""

from __future__ import annotations

from api_client.models import HealthCheck
from tui.health_windows import OutageIndex, outage_at, outage_windows, uptime


def checks(pattern: str, *, step: int = 60_000, start: int = 1_000_000) -> list[HealthCheck]:
    """'o' ok, 'x' failed, '?' unknown; returned newest first like the platform."""
    out = []
    for i, ch in enumerate(pattern):
        ok = {"o": True, "x": False, "?": None}[ch]
        out.append(
            HealthCheck(
                checked_at=start + i * step,
                ok=ok,
                status_code=None if ok else 503,
                error=None if ok is not False else f"down {i}",
            )
        )
    return list(reversed(out))


def test_windows_are_runs_of_failed_checks_with_bounds() -> None:
    windows = outage_windows(checks("ooxxxoxoo"))
    assert [(w.count, w.start_ms, w.end_ms) for w in windows] == [
        (3, 1_120_000, 1_240_000),
        (1, 1_360_000, 1_360_000),
    ]
    first = windows[0]
    assert first.bounded_from == 1_060_000 and first.bounded_to == 1_300_000
    assert first.first_error == "down 2"
    assert first.status_codes == (503,)
    assert not first.ongoing
    assert first.duration_ms == 120_000


def test_unknown_checks_neither_open_nor_close_a_window() -> None:
    windows = outage_windows(checks("ox?xo"))
    assert len(windows) == 1 and windows[0].count == 2


def test_ongoing_outage_and_history_edges() -> None:
    windows = outage_windows(checks("xxoxx"))
    assert windows[0].bounded_from is None
    assert windows[-1].ongoing


def test_no_checks_means_no_numbers() -> None:
    up = uptime([])
    assert up.ratio is None and up.span_ms is None and up.counted == 0
    assert outage_windows([]) == []


def test_uptime_counts_only_checks_that_said() -> None:
    up = uptime(checks("oox?o"))
    assert (up.ok, up.failed, up.unknown) == (3, 1, 1)
    assert up.ratio == 0.75
    assert up.span_ms == 4 * 60_000


def test_index_lookup_with_and_without_slack() -> None:
    history = checks("ooxxoooxo")
    index = OutageIndex.from_checks(history)
    assert len(index) == 2 and index
    assert index.window_at(1_150_000) is not None  # between two failed checks
    assert index.window_at(1_190_000) is None  # after the last failed check, before the ok one
    assert index.window_at(1_000_000) is None
    loose = OutageIndex.from_checks(history, slack="bounds")
    assert loose.window_at(1_190_000) is not None
    assert loose.window_at(1_070_000) is not None
    assert loose.window_at(1_250_000) is None
    # the linear helper agrees
    windows = outage_windows(history)
    for ts in range(1_000_000, 1_500_000, 7_000):
        assert (outage_at(ts, windows) is None) == (index.window_at(ts) is None)
