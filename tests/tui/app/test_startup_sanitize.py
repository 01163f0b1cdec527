"""Plain ASCII text goes through the sanitizer without its regex: nothing in it to escape.

The character class of unsafe characters takes ~5 ms to compile per ``keep`` (the first
header, plot title or list row drew it at start-up) and scanning with it is the slow path; the
fast path must escape exactly what the table says, for every ASCII character.
"""

from __future__ import annotations

import pytest

from common import unsafe_chars
from common.safe_strings import is_clean, one_line, sanitize
from common.unsafe_chars import LAYOUT, has_unsafe, is_unsafe, replace_unsafe, unsafe_positions

KEEPS = ("", LAYOUT)


@pytest.mark.parametrize("keep", KEEPS)
def test_every_ascii_character_is_escaped_as_the_table_says(keep: str) -> None:
    for code in range(128):
        char = chr(code)
        for text in (char, f"a{char}b", f"{char}{char}"):
            unsafe = is_unsafe(char, keep)
            assert has_unsafe(text, keep) is unsafe, (code, keep)
            assert list(unsafe_positions(text, keep)) == [i for i, c in enumerate(text) if is_unsafe(c, keep)]
            assert replace_unsafe(text, lambda c: "<X>", keep) == "".join(
                "<X>" if is_unsafe(c, keep) else c for c in text
            )


def test_plain_labels_are_shown_as_they_are_without_compiling_the_character_class() -> None:
    unsafe_chars._pattern.cache_clear()
    assert one_line("blah-tui · model") == "blah-tui · model"  # not ASCII: the regex
    unsafe_chars._pattern.cache_clear()
    assert sanitize("latency (mean per bucket)", keep_newlines=False) == "latency (mean per bucket)"
    assert one_line("offline: archive-1000000.sqlite3", max_len=40) == "offline: archive-1000000.sqlite3"
    assert is_clean("model bench-model")
    assert unsafe_chars._pattern.cache_info().currsize == 0
    assert sanitize("bell\x07", keep_newlines=False) == "bell^G"  # a control still goes through it
    assert unsafe_chars._pattern.cache_info().currsize == 1
