"""The Logs screen's pure helpers: totals line, tail state words, time buckets, badges."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from api_client.blahdev.records import parse_call
from api_client.blahdev.shapes import LogEntry, LogStats, SourceStats
from application.logs.badges import fallback_badges
from application.logs.series import bucket_calls
from tui.screens.logs.status import stats_text, tail_state_text


def _state(phase: str, **kw: object) -> SimpleNamespace:
    base = {"retry_in": None, "reason": None, "may_have_missed": False, "cursor": None, "missed_reason": None}
    base.update(kw)
    return SimpleNamespace(phase=phase, **base)


def test_stats_line_shows_totals_rate_latency_and_sources() -> None:
    stats = LogStats(
        total=4000,
        errors=120,
        mean_latency_ms=812.4,
        by_source={"eval": SourceStats(total=3000, errors=30, mean_latency_ms=700.0), "chat": SourceStats(total=0)},
    )
    plain = stats_text(stats).plain
    assert "calls 4,000" in plain
    assert "errors 120 (3.0%)" in plain
    assert "mean latency 812 ms" in plain
    assert "eval 3,000 (err 1.0%, 700 ms)" in plain
    # a source with nothing to average says so instead of 0
    assert "chat 0 (err —, —)" in plain


def test_stats_line_never_invents_numbers() -> None:
    plain = stats_text(LogStats()).plain
    assert "calls —" in plain and "errors — (—)" in plain and "mean latency —" in plain
    assert "0" not in plain
    assert "couldn't load: boom" in stats_text(None, error="boom").plain
    assert "not available offline" in stats_text(None, offline=True).plain


def test_tail_state_words() -> None:
    assert "live" in tail_state_text(_state("live")).plain
    retry = tail_state_text(_state("retrying", retry_in=4.2, reason="HTTP 503")).plain
    assert "reconnecting in 4 s: HTTP 503" in retry
    assert "in 2 s" in tail_state_text(_state("retrying", retry_in=9.0), retry_left=2.0).plain
    stopped = tail_state_text(_state("stopped", reason="model not found")).plain
    assert "stopped: model not found" in stopped
    missed = tail_state_text(_state("live", may_have_missed=True, missed_reason="a full page in one ms")).plain
    assert "entries may be missing" in missed and "one ms" in missed
    offline = tail_state_text(None, offline_source=Path("/tmp/dump.jsonl")).plain
    assert offline.startswith("○ offline: /tmp/dump.jsonl")


def test_tail_state_reason_is_sanitised() -> None:
    text = tail_state_text(_state("stopped", reason="bad\x1b]52;c;AAAA\x07[@click=app.quit]x[/]"))
    assert "\x1b" not in text.plain and "\x07" not in text.plain
    assert not any("@click" in str(span.style) for span in text.spans)


def test_buckets_leave_gaps_not_zeros() -> None:
    minute = 60_000
    points = [(0, 100, False), (1000, 300, True), (10 * minute, None, True)]
    series = bucket_calls(points, target_buckets=20)
    assert series.bucket_ms == minute
    assert series.calls[0] == 2 and series.calls[-1] == 1
    assert series.mean_latency_ms[0] == 200
    assert series.error_rate_pct[0] == 50
    # an empty minute is a gap; a bucket with no latency recorded has no latency
    assert series.mean_latency_ms[5] is None and series.error_rate_pct[5] is None
    assert series.mean_latency_ms[-1] is None and series.error_rate_pct[-1] == 100
    assert bucket_calls([]).empty


def test_fallback_badges() -> None:
    def entry(**kw: object) -> LogEntry:
        return LogEntry.model_validate({"id": "x", "created_at": 1, **kw})

    assert fallback_badges(entry(error="boom")) == ("error",)
    assert fallback_badges(entry(response="  \n")) == ("empty",)
    assert fallback_badges(entry(response="abc", finish_reason="length")) == ("truncation",)
    assert fallback_badges(entry(response="fine", finish_reason="stop")) == ()


def _entries() -> list[LogEntry]:
    raw = [
        {"id": "a", "created_at": 10, "source": "eval", "prompt": "What is a cat?", "response": "A cat is an animal."},
        {"id": "b", "created_at": 20, "source": "chat", "prompt": "hi", "response": None, "error": "HTTP 502"},
        {"id": "c", "created_at": 20, "source": "chat", "prompt": "loop?", "response": "  "},
        {
            "id": "d",
            "created_at": 30,
            "source": "eval",
            "prompt": "Name a CAT",
            "response": "Tom",
            "finish_reason": "length",
        },
    ]
    return [LogEntry.model_validate(item) for item in raw]


def test_memory_rows_filter_order_and_neighbours() -> None:
    from api_client.archives.archive import LogFilter
    from application.logs.rows import MemoryRows

    rows = MemoryRows()
    entries = _entries()
    assert [e.id for e in rows.add(entries[2:], fallback_badges)] == ["c", "d"]
    assert [e.id for e in rows.add(entries, fallback_badges)] == ["a", "b"]  # each entry once
    assert [rows.row(i).id for i in range(len(rows))] == ["a", "b", "c", "d"]  # (created_at, id)
    assert rows.neighbours("b") == ("a", "c") and rows.neighbours("a") == (None, "b")
    assert rows.oldest_ms() == 10 and rows.newest_ms() == 30

    def shown(flt: LogFilter) -> list[str]:
        rows.set_filter(flt)
        return [rows.row(i).id for i in range(len(rows))]

    assert shown(LogFilter(source="eval")) == ["a", "d"]
    assert rows.neighbours("d") == ("a", None)  # neighbours within the filtered view
    assert shown(LogFilter(errors_only=True)) == ["b"]
    assert shown(LogFilter(badge="empty")) == ["c"]
    assert shown(LogFilter(badge="truncation", source="eval")) == ["d"]
    assert shown(LogFilter(text="cat")) == ["a", "d"]  # case-insensitive, prompt or reply
    assert shown(LogFilter(text="cat animal")) == ["a"]  # every word must match
    assert shown(LogFilter(text="502")) == ["b"]  # errors are searched too
    assert rows.row(0).status == "error" and rows.row(0).reply_preview == "HTTP 502"
    assert rows.find("b") is entries[1] and rows.position("b") == 0


def test_badges_are_computed_on_a_cut_copy_of_huge_calls() -> None:
    from application.logs.badges import BADGE_TEXT_CAP, capped

    entry = parse_call(
        {
            "id": "x",
            "created_at": 1,
            "prompt": "P" * (3 * BADGE_TEXT_CAP) + "END",
            "response": "R" * (5 * BADGE_TEXT_CAP),
        }
    )
    cut = capped(entry)
    assert cut.response == "R" * BADGE_TEXT_CAP
    assert cut.prompt is not None and len(cut.prompt) == BADGE_TEXT_CAP and cut.prompt.endswith("END")
    small = parse_call({"id": "y", "created_at": 1, "prompt": "p", "response": "r"})
    assert capped(small) is small
