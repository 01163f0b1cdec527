"""Unit tests of application/health/windows.py: uptime, and the outage windows the app shares."""

from __future__ import annotations

from api_client.blahdev.shapes import Health, HealthCheck
from application.health.windows import OutageIndex, last_ok_before, outage_windows, uptime

MIN = 60_000
START = 1_000_000


def checks(pattern: str) -> list[HealthCheck]:
    """'o' ok, 'x' failed, '?' unknown, one a minute; returned newest first like the platform."""
    out = []
    for i, ch in enumerate(pattern):
        ok = {"o": True, "x": False, "?": None}[ch]
        out.append(
            HealthCheck(
                checked_at=START + i * MIN,
                ok=ok,
                status_code=None if ok else 503,
                error=None if ok is not False else f"down {i}",
            )
        )
    return list(reversed(out))


def at(i: int) -> int:
    return START + i * MIN


def test_windows_run_from_the_first_failed_check_to_the_next_ok_one() -> None:
    windows = outage_windows(checks("ooxxxoxoo"))
    assert [(w.start, w.end, w.failed_checks, w.last_failed_at) for w in windows] == [
        (at(2), at(5), 3, at(4)),
        (at(6), at(7), 1, at(6)),
    ]
    assert "down 2" in windows[0].errors


def test_unknown_checks_neither_open_nor_close_a_window() -> None:
    windows = outage_windows(checks("ox?xo"))
    assert len(windows) == 1 and windows[0].failed_checks == 2


def test_an_ongoing_outage_has_no_end_and_the_history_may_start_down() -> None:
    history = checks("xxoxx")
    windows = outage_windows(history)
    assert windows[-1].end is None
    assert last_ok_before(history, windows[0]) is None
    assert last_ok_before(history, windows[-1]) == at(2)


def test_marking_calls_with_the_index() -> None:
    index = OutageIndex(outage_windows(Health(checks=checks("ooxxoooxo"))))
    assert index.window_for(at(2) + 1) is not None  # between two failed checks
    assert index.window_for(at(3) + 30_000) is not None  # after the last failed check, not yet seen up
    assert index.window_for(at(4)) is None  # the ok check ends it
    assert index.window_for(at(0)) is None
    assert index.window_for(at(8) + 1) is None


def test_no_checks_means_no_numbers() -> None:
    up = uptime(None)
    assert up.ratio is None and up.span_ms is None and up.counted == 0
    assert outage_windows(None) == []


def test_uptime_counts_only_checks_that_said() -> None:
    up = uptime(Health(checks=checks("oox?o")))
    assert (up.ok, up.failed, up.unknown) == (3, 1, 1)
    assert up.ratio == 0.75
    assert up.span_ms == 4 * MIN
