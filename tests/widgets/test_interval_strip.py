"""The interval strip: each interval at its place on the 0-1 axis, groups drawn as one, an
average drawn as a dot with no bars, hostile labels inert."""

from __future__ import annotations

from widgets.interval_strip import StripRow, strip_text


def test_intervals_are_placed_on_the_axis_and_groups_headed() -> None:
    rows = [
        StripRow("alpha", 0.8, (0.7, 0.9), group="tier 1 · tied with the leader within noise"),
        StripRow("bravo", 0.75, (0.6, 0.85)),
        StripRow("charlie", 0.2, (0.1, 0.3), group="tier 2"),
    ]
    lines = strip_text(rows, 100).plain.splitlines()
    assert lines[0] == "tier 1 · tied with the leader within noise" and lines[3] == "tier 2"
    alpha, charlie = lines[1], lines[4]
    assert alpha.index("├") > charlie.index("┤")  # higher scores further right
    assert alpha.index("├") < alpha.index("●") < alpha.index("┤")
    assert alpha.rstrip().endswith("0.80 [0.70–0.90]")
    axis = lines[-1]
    assert axis.strip().startswith("0") and axis.rstrip().endswith("1") and "0.5" in axis


def test_an_average_only_row_has_a_dot_and_no_bars_and_labels_are_inert() -> None:
    rows = [StripRow("\x1b[31mevil\u202e", 0.9, None), StripRow("none", None, None)]
    text = strip_text(rows, 80).plain
    first, second = text.splitlines()[:2]
    assert "●" in first and "├" not in first and first.rstrip().endswith("0.90 (no interval)")
    assert "\x1b" not in text and "\u202e" not in text
    assert "●" not in second and second.rstrip().endswith("no score")
