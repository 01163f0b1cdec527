"""A log row's cells are cut as Rich cuts them, with or without its grapheme walk.

Drawing the Logs screen's first rows spent a third of each row in Rich's ``Text.truncate``
(it walks grapheme clusters even when every character is one cell); ``_truncate`` cuts
where what stays on screen is printable ASCII. It must give the very same text, ellipsis and
styles.
"""

from __future__ import annotations

import pytest
from rich.text import Text

from widgets.log_columns import _truncate

SAMPLES = [
    "",
    "ok",
    "case 999955 the tfinxpjlwo ybx hvddx uymz xrevonp aua",
    "exactly ten",
    "tab\there",  # not printable: Rich's path
    "naïve café",  # not ASCII
    "日本語のテキスト",  # two cells per character
    "emoji 👍🏽 and more text",
    "a" * 300,
    "case 1 the question " * 5 + "…(+120 chars)",  # a cut preview: ASCII, then its marker
    "ascii first, then 日本語 and 👍🏽",
    "abc\u0301def",  # a combining mark
]


def _styled(plain: str) -> Text:
    text = Text(plain, style="dim", end="")
    if len(plain) > 4:
        text.stylize("bold", 2, len(plain) - 1)
        text.stylize("red", len(plain) // 2)
    return text


@pytest.mark.parametrize("plain", SAMPLES)
def test_cells_are_cut_exactly_as_rich_cuts_them(plain: str) -> None:
    for width in range(60):
        ours, rich = _styled(plain), _styled(plain)
        _truncate(ours, width)
        rich.truncate(width, overflow="ellipsis")
        assert ours.plain == rich.plain, (plain, width)
        assert ours.spans == rich.spans, (plain, width)
        assert ours.cell_len == rich.cell_len, (plain, width)


def test_an_ascii_row_is_drawn_without_rich_s_grapheme_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.style import Style

    from application.logs.row import LogRow
    from widgets.log_columns import RowStyles, row_text

    walks: list[int] = []
    original = Text.truncate

    def counting(self: Text, *args: object, **kwargs: object) -> None:
        walks.append(1)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Text, "truncate", counting)
    row = LogRow(
        id="log_1",
        created_at=1_700_000_333_318,
        source="eval",
        latency_ms=135,
        finish_reason="stop",
        status="ok",
        badges=(),
        prompt_preview="case 1 the question " * 20,
        reply_preview="the answer " * 30,
    )
    styles = RowStyles(
        dim=Style(dim=True), error=Style(color="red"), warning=Style(color="yellow"), match=Style(bold=True), badges={}
    )
    line = row_text(row, 158, styles)
    assert line.cell_len == 158 and line.plain.endswith("…")
    assert walks == []
