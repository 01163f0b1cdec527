"""The sanitizer: exact notation, properties (hypothesis), and the hostile corpus."""

from __future__ import annotations

import io
import re
import unicodedata
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from textual.content import Content

from common.unsafe_chars import UNICODE_VERSION, UNSAFE_CATEGORIES, UNSAFE_RANGES, build_ranges
from diagnosis.markdown import code_block, code_span, escape_controls, plain, table_cell
from tests.support.hostile_payloads import HOSTILE, VERBATIM, assert_inert
from widgets.safe_text import (
    MARKER_STYLE,
    escape_markup,
    iter_pieces,
    one_line,
    one_line_text,
    safe_text,
    sanitize,
    show_whitespace,
)

_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff"
    "\ud800-\udfff\U000e0000-\U000e007f]"
)
_SGR = re.compile(r"\x1b\[[0-9;]*m")

# Text biased towards the dangerous code points, plus anything else.
_dangerous = st.sampled_from(
    [chr(c) for c in range(0x20)]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + list("\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060")
    + list("\u2066\u2067\u2068\u2069\ufeff\U000e0001\U000e0041\U000e007f\ud800\udfff")
    + list("[]/@=\\$ ")
)
hostile_text = st.text(alphabet=_dangerous | st.characters(), max_size=80)
#: Text with no character of the unsafe categories (Cc, Cf, Zl, Zp, Co, Cs, Cn), newline and tab aside.
clean_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn")) | st.sampled_from("\n\t"),
    max_size=80,
)


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]0;t\x07", "^[]0;t^G"),
        ("a\x00b", "a^@b"),
        ("a\x7fb", "a^?b"),
        ("safe\rEVIL", "safe^MEVIL"),
        ("x\r\ny", "x^M\ny"),
        ("\x9b2J", "\\x9b2J"),
        ("\x9d0;t\x9c", "\\x9d0;t\\x9c"),
        ("a\u202eb", "a<U+202E>b"),
        ("a\u200db", "a<U+200D>b"),
        ("a\ufeff", "a<U+FEFF>"),
        ("\U000e0041", "<U+E0041>"),
        ("\ud800", "<U+D800>"),
        ("tab\there\nnext", "tab\there\nnext"),
    ],
)
def test_sanitize_notation(raw: str, shown: str) -> None:
    assert sanitize(raw) == shown


def test_sanitize_none_and_empty() -> None:
    assert sanitize(None) == ""
    assert sanitize("") == ""
    assert one_line(None) == ""
    assert safe_text(None).plain == ""


def test_keep_newlines_false_shows_newline_and_tab_as_carets() -> None:
    assert sanitize("a\nb\tc", keep_newlines=False) == "a^Jb^Ic"


def test_max_len_cuts_original_and_says_how_much() -> None:
    assert sanitize("abcdefghij", max_len=4) == "abcd…(+6 chars)"
    assert sanitize("abcd", max_len=4) == "abcd"
    # The cut is counted on the original, so a marker is never split in half.
    assert sanitize("ab\x1bcdef", max_len=3) == "ab^[…(+4 chars)"


def test_one_line_is_single_line_and_marks_whitespace() -> None:
    assert one_line("a\nb\tc\r\n") == "a⏎b→c^M⏎"
    long = "x" * 500
    assert one_line(long, max_len=10) == "x" * 10 + "…(+490 chars)"


def test_one_line_text_styles_glyphs_and_markers() -> None:
    text = one_line_text("a\n\x1b")
    assert text.plain == "a⏎^["
    styles = {text.plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert styles["^["] == MARKER_STYLE
    assert styles["⏎"] == "dim"


def test_safe_text_never_parses_markup_and_styles_markers() -> None:
    text = safe_text("[bold]x[/bold] [@click=app.quit]q[/] \x1b[2J")
    assert text.plain == "[bold]x[/bold] [@click=app.quit]q[/] ^[[2J"
    marked = [text.plain[s.start : s.end] for s in text.spans if str(s.style) == MARKER_STYLE]
    assert marked == ["^["]
    assert not any("@click" in str(s.style) for s in text.spans)


def test_show_whitespace_glyphs() -> None:
    text = show_whitespace("a b\tc\nd")
    assert text.plain == "a·b→c⏎\nd"
    assert all(str(s.style) == "dim" for s in text.spans)


def test_iter_pieces_map_back_to_original() -> None:
    raw = "ab\x1b[2Jcd\u202eé"
    pieces = list(iter_pieces(raw))
    assert "".join(p[2] for p in pieces) == sanitize(raw)
    for start, end, shown, is_marker in pieces:
        if not is_marker:
            assert raw[start:end] == shown
        else:
            assert end - start == 1


# --------------------------------------------------------------------------- properties


@settings(max_examples=400)
@given(hostile_text)
def test_property_output_has_no_dangerous_characters(text: str) -> None:
    for keep in (True, False):
        out = sanitize(text, keep_newlines=keep)
        assert _FORBIDDEN.search(out) is None
        if not keep:
            assert "\n" not in out and "\t" not in out
    assert "\n" not in one_line(text)


@settings(max_examples=400)
@given(clean_text)
def test_property_clean_text_is_verbatim(text: str) -> None:
    assert sanitize(text) == text
    assert safe_text(text).plain == text


@settings(max_examples=400)
@given(hostile_text)
def test_property_idempotent(text: str) -> None:
    once = sanitize(text)
    assert sanitize(once) == once
    assert sanitize(one_line(text)) == one_line(text)


@settings(max_examples=300)
@given(hostile_text)
def test_property_pieces_join_to_sanitize(text: str) -> None:
    assert "".join(p[2] for p in iter_pieces(text, max_len=40)) == sanitize(text, max_len=40)


@settings(max_examples=150, deadline=None)
@given(hostile_text)
def test_property_rich_console_output_has_only_sgr_escapes(text: str) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=40)
    console.print(safe_text(text, style="bold red"))
    console.print(show_whitespace(text))
    assert "\x1b" not in _SGR.sub("", buffer.getvalue())


@settings(max_examples=300)
@given(hostile_text)
def test_property_escape_markup_round_trips_through_textual_markup(text: str) -> None:
    content = Content.from_markup(escape_markup(text))
    assert content.plain == sanitize(text)
    assert not any("@click" in str(span.style) for span in content.spans)


# --------------------------------------------------------------------------- hostile corpus


@pytest.mark.parametrize(("name", "payload"), HOSTILE, ids=[n for n, _ in HOSTILE])
def test_hostile_payload_is_inert_everywhere(name: str, payload: str) -> None:
    for out in (sanitize(payload), one_line(payload), sanitize(payload, keep_newlines=False)):
        assert_inert(out)
        assert _FORBIDDEN.search(out) is None
    assert "\n" not in one_line(payload)
    # Console render (cut: a 1 MB line wrapped at 80 columns is 12 500 lines of the same check).
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=80)
    console.print(safe_text(payload[:5000], style="italic"))
    console.print(one_line_text(payload))
    assert_inert(buffer.getvalue().replace("\n", ""))
    markup = Content.from_markup(escape_markup(payload[:5000]))
    assert markup.plain == sanitize(payload[:5000])


@pytest.mark.parametrize(("name", "payload"), VERBATIM, ids=[n for n, _ in VERBATIM])
def test_benign_text_stays_verbatim(name: str, payload: str) -> None:
    assert sanitize(payload) == payload
    assert one_line(payload) == payload
    assert safe_text(payload).plain == payload
    assert Content.from_markup(escape_markup(payload)).plain == payload


def test_one_mb_line_sanitizes_whole_and_previews_short() -> None:
    payload = dict(HOSTILE)["one-mb-line"]
    assert sanitize(payload) == payload
    assert one_line(payload) == "A" * 200 + "…(+999800 chars)"


def test_assert_inert_catches_each_kind() -> None:
    for bad in ("\x1b]0;t\x07", "\x1b[2J", "a\rb", "\x9b", "\x07", "\x1bPq"):
        with pytest.raises(AssertionError):
            assert_inert(bad)
    assert_inert("\x1b[1;31mred\x1b[0m")
    assert_inert("\x1b[3;1Hline", allow_cursor_position=True)
    with pytest.raises(AssertionError):
        assert_inert("\x1b[3;1Hline")


# --------------------------------------------------------------------------- one table for the app and the report

_ALL_CATEGORIES = [
    "Lu",
    "Ll",
    "Lt",
    "Lm",
    "Lo",
    "Mn",
    "Mc",
    "Me",
    "Nd",
    "Nl",
    "No",
    "Pc",
    "Pd",
    "Ps",
    "Pe",
    "Pi",
    "Pf",
    "Po",
    "Sm",
    "Sc",
    "Sk",
    "So",
    "Zs",
    "Zl",
    "Zp",
    "Cc",
    "Cf",
    "Cs",
    "Co",
    "Cn",
]
_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_TAGS = "".join(chr(c) for c in range(0xE0000, 0xE0080))
_SEP = "\u00b7"  # a middle dot (Po) between the characters walked, to split the rendering again


@cache
def _code_points_by_category() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for code in range(0x110000):
        found.setdefault(unicodedata.category(chr(code)), []).append(chr(code))
    return found


def _walk(category: str) -> list[str]:
    """Every code point of a small class; for the big ones (Cn, Co, letters...) every 61st plus both ends."""
    if category == "bidi":
        return list(_BIDI_CONTROLS)
    if category == "tags":
        return list(_TAGS)
    chars = _code_points_by_category()[category]
    return chars if len(chars) <= 5000 else sorted(set(chars[::61]) | {chars[0], chars[-1]})


def _raw_unsafe(text: str, keep: str) -> list[str]:
    """Characters of ``text`` in an unsafe category (by the running Python's own Unicode data)."""
    return [c for c in text if c not in keep and unicodedata.category(c) in UNSAFE_CATEGORIES]


def test_the_walk_covers_every_general_category() -> None:
    assert sorted(_code_points_by_category()) == sorted(_ALL_CATEGORIES)


def test_the_table_is_unicodes_own() -> None:
    """The shared table lists exactly the unsafe categories' code points (a superset on a newer Unicode)."""
    if unicodedata.unidata_version == UNICODE_VERSION:
        assert build_ranges() == list(UNSAFE_RANGES)
    else:  # later versions only assign code points that were unassigned (Cn), so the table still covers all
        for code in range(0x110000):
            if unicodedata.category(chr(code)) in UNSAFE_CATEGORIES:
                assert any(low <= code <= high for low, high in UNSAFE_RANGES), hex(code)


@pytest.mark.parametrize("category", ["Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn", "bidi", "tags"])
def test_every_unsafe_class_is_visible_and_inert_in_the_app_and_in_the_report(category: str) -> None:
    """Each character alone turns into a printable ASCII marker in both renderings; none survives raw
    in any of the report's code spans, blocks, cells or prose (newline and tab are layout: kept where
    the rendering keeps lines, shown as markers on one line)."""
    chars = [c for c in _walk(category) if c != _SEP]
    joined = _SEP.join(chars)
    renderings = {
        "app": (sanitize(joined, keep_newlines=False), ""),
        "app, lines kept": (sanitize(joined), "\n\t"),
        "report": (escape_controls(joined), "\n\t"),
    }
    for name, (shown, keep) in renderings.items():
        pieces = shown.split(_SEP)
        assert len(pieces) == len(chars), name
        for char, piece in zip(chars, pieces, strict=True):
            if char in keep:
                assert piece == char, (name, hex(ord(char)))
            else:
                assert piece != char and piece.isascii() and piece.isprintable(), (name, hex(ord(char)), piece)
    assert safe_text(joined).plain == sanitize(joined)
    assert not _raw_unsafe(one_line(joined, max_len=len(joined)), "")
    for shown in (code_span(joined), table_cell(joined)):
        assert not _raw_unsafe(shown, ""), category
    assert not _raw_unsafe(code_block(joined), "\n\t")
    assert not _raw_unsafe(plain(joined), "\n\t")


@pytest.mark.parametrize("category", [c for c in _ALL_CATEGORIES if c not in UNSAFE_CATEGORIES])
def test_every_other_class_is_kept_verbatim_by_both(category: str) -> None:
    """Letters, marks, numbers, punctuation, symbols and spaces are text: both renderings keep them."""
    chars = _walk(category)
    if unicodedata.unidata_version != UNICODE_VERSION:  # assigned since the table's version: escaped, and safe
        chars = [c for c in chars if not any(low <= ord(c) <= high for low, high in UNSAFE_RANGES)]
    joined = "".join(chars)
    assert sanitize(joined, keep_newlines=False) == joined
    assert escape_controls(joined) == joined


@pytest.mark.parametrize(
    ("raw", "app", "report"),
    [
        ("a\u061cb", "a<U+061C>b", "a<U+061C>b"),
        ("a\U000e0041b", "a<U+E0041>b", "a<U+E0041>b"),
        ("a\u2028b", "a<U+2028>b", "a<U+2028>b"),
        ("a\u2029b", "a<U+2029>b", "a<U+2029>b"),
        ("soft\u00adhyphen", "soft<U+00AD>hyphen", "soft<U+00AD>hyphen"),
        ("a\ue000b", "a<U+E000>b", "a<U+E000>b"),
        ("a\U0010fffdb", "a<U+10FFFD>b", "a<U+10FFFD>b"),
        ("a\uffffb", "a<U+FFFF>b", "a<U+FFFF>b"),
        ("smile \U0001f602 \u4f60\u597d", "smile \U0001f602 \u4f60\u597d", "smile \U0001f602 \u4f60\u597d"),
    ],
)
def test_the_cases_the_two_sanitizers_disagreed_on(raw: str, app: str, report: str) -> None:
    """The report let U+061C and tag characters through, the app U+2028: now both escape all three."""
    assert sanitize(raw) == app
    assert escape_controls(raw) == report


def test_the_command_line_the_report_and_the_app_show_a_control_alike() -> None:
    """One visible form for a control wherever it is shown: a table cell of a command, the
    markdown report and the app all write ESC as ``^[`` and a bidi override as ``<U+202E>``."""
    from cli.output import cell

    raw = "evil \x1b]0;t\x07 \u202egnp"
    shown = "evil ^[]0;t^G <U+202E>gnp"
    assert cell(raw, 80) == shown
    assert escape_controls(raw) == shown
    assert safe_text(raw).plain == shown
    assert code_span(raw) == f"`{shown}`"
