"""ASCII text whose only controls are ones the caller keeps (a prompt's line breaks in a Logs row)
is shown as it is without compiling the unsafe-character class: the Logs screen's first rows,
whose prompts hold line breaks, compiled it (~5 ms) before their first frame. The answers are
the table's, for every ASCII character in every position."""

from __future__ import annotations

import pytest

from common import unsafe_chars
from common.safe_strings import iter_pieces, sanitize
from common.unsafe_chars import LAYOUT, has_unsafe, is_unsafe, replace_unsafe, unsafe_positions
from widgets.safe_text import one_line_text


def test_a_prompt_with_line_breaks_and_tabs_is_drawn_without_the_character_class() -> None:
    unsafe_chars._pattern.cache_clear()
    prompt = "<|user|>\n. The model said:\tyes\n\nand then more"
    assert one_line_text(prompt, max_len=200).plain == prompt.replace("\n", "⏎").replace("\t", "→")
    assert list(iter_pieces(prompt, keep_newlines=True)) == [(0, len(prompt), prompt, False)]
    assert not has_unsafe(prompt, LAYOUT)
    assert unsafe_chars._pattern.cache_info().currsize == 0
    assert sanitize(prompt, keep_newlines=False) == prompt.replace("\n", "^J").replace("\t", "^I")


@pytest.mark.parametrize("keep", ["", "\n", "\t", LAYOUT])
def test_ascii_with_kept_and_other_controls_is_escaped_as_the_table_says(keep: str) -> None:
    for code in range(128):
        char = chr(code)
        for text in (f"a\nb{char}c\td", f"{char}\n", f"\t{char}", f"x{char}"):
            expected = [i for i, c in enumerate(text) if is_unsafe(c, keep)]
            assert list(unsafe_positions(text, keep)) == expected, (code, keep)
            assert has_unsafe(text, keep) is bool(expected)
            assert replace_unsafe(text, lambda c: "<X>", keep) == "".join(
                "<X>" if is_unsafe(c, keep) else c for c in text
            )
