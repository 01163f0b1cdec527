"""TextViewer and its pure layout: verbatim + inert, whitespace, tokens, finding spans, 1 MB."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult

from tests.support.hostile_payloads import assert_segments_inert
from widgets.safe_text import MARKER_STYLE, sanitize
from widgets.text_layout import TextLayout, template_token_spans
from widgets.text_viewer import TextViewer

SIZE = (60, 12)


class ViewerApp(App[None]):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield TextViewer(self.text)


def visible(viewer: TextViewer) -> list[str]:
    return [viewer.render_line(y).text.rstrip() for y in range(viewer.scrollable_content_region.height)]


def styled(text: Text, fragment: str) -> list[str]:
    """Style strings of the spans covering exactly ``fragment``'s first occurrence."""
    start = text.plain.index(fragment)
    end = start + len(fragment)
    return [str(s.style) for s in text.spans if s.start <= start and s.end >= end]


# --------------------------------------------------------------------------- pure layout


def test_finding_offsets_map_through_sanitizer_markers() -> None:
    raw = "\x1b[2J\u202ethe bad answer"
    layout = TextLayout(raw)
    assert layout.display == "^[[2J<U+202E>the bad answer"
    start = raw.index("bad")
    layout.set_findings([(start, start + 3, Style(bold=True))])
    line = layout.line_text(*layout.lines(80)[0])
    assert "bold" in styled(line, "bad")
    assert "bold" not in styled(line, "the")
    assert MARKER_STYLE in styled(line, "^[")


def test_finding_offsets_map_through_whitespace_glyphs() -> None:
    raw = "a\tb\nc d\x00target"
    layout = TextLayout(raw, show_whitespace=True)
    assert layout.display == "a→   b⏎\nc d^@target"
    start = raw.index("target")
    assert layout.display[layout.to_display(start) :].startswith("target")
    assert layout.to_display(len(raw)) == len(layout.display)


@settings(max_examples=200)
@given(st.text(max_size=60), st.booleans())
def test_property_plain_characters_map_to_themselves(raw: str, whitespace: bool) -> None:
    layout = TextLayout(raw, show_whitespace=whitespace)
    for index, char in enumerate(raw):
        if sanitize(char) == char and char not in "\t\n":
            assert layout.display[layout.to_display(index)] == char


@settings(max_examples=200)
@given(st.text(max_size=120), st.integers(min_value=1, max_value=30))
def test_property_wrapping_covers_everything_within_width(raw: str, width: int) -> None:
    layout = TextLayout(raw)
    lines = layout.lines(width)
    shown = "".join(layout.display[s:e] for s, e in lines)
    assert shown == layout.display.replace("\n", "")
    for s, e in lines:
        text = layout.line_text(s, e)
        assert text.cell_len <= max(width, 2)  # a wide char never fits in 1 cell


def test_template_tokens_found_at_word_boundaries_only() -> None:
    raw = "<|im_start|>user\nhi<|im_end|> USER: x SUPERUSER: y [INST] </s>"
    found = [raw[s:e] for s, e in template_token_spans(raw)]
    assert found == ["<|im_start|>", "<|im_end|>", "USER:", "[INST]", "</s>"]


# --------------------------------------------------------------------------- widget


async def test_hostile_text_is_shown_verbatim_and_inert() -> None:
    raw = "safe\rEVIL \x1b]52;c;QUFB\x07 [@click=app.quit]x[/] 中文 😀"
    app = ViewerApp(raw)
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.query_one(TextViewer)
        await pilot.pause()
        joined = "".join(visible(viewer))
        assert "safe^MEVIL" in joined and "^[]52;c;QUFB^G" in joined and "[@click=app.quit]x[/]" in joined
        assert "中文 😀" in joined
        for y in range(4):
            assert_segments_inert(viewer.render_line(y))


async def test_whitespace_toggle_shows_glyphs_and_back() -> None:
    app = ViewerApp("two  spaces\tand tab\nnext line")
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.query_one(TextViewer)
        await pilot.pause()
        assert visible(viewer)[:2] == ["two  spaces    and tab", "next line"]
        await pilot.press("w")
        await pilot.pause()
        assert viewer.show_whitespace
        assert visible(viewer)[:2] == ["two··spaces→···and·tab⏎", "next·line"]
        dots = [s for s in viewer.render_line(0) if "·" in s.text]
        assert dots and all(s.style is not None and s.style.dim for s in dots)
        await pilot.press("w")
        await pilot.pause()
        assert visible(viewer)[0] == "two  spaces    and tab"


async def test_template_tokens_and_finding_spans_are_styled() -> None:
    raw = "<|im_start|>user\nWhat is 2+2?<|im_end|>\nThe answer is five."
    app = ViewerApp(raw)
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.query_one(TextViewer)
        await pilot.pause()
        token_style = viewer.get_component_rich_style("text-viewer--token", partial=True)
        first = list(viewer.render_line(0))
        token = next(s for s in first if s.text == "<|im_start|>")
        assert token.style is not None and token.style.color == token_style.color
        start = raw.index("five")
        viewer.highlight_spans([(start, start + 4, "bold red"), (0, 3, "not a [style")])
        await pilot.pause()
        last = list(viewer.render_line(2))
        five = next(s for s in last if s.text == "five")
        assert five.style is not None and five.style.bold and five.style.color is not None
        assert five.style.color.name == "red"
        viewer.set_text("other text")
        await pilot.pause()
        assert visible(viewer)[0] == "other text"
        assert all(s.style is None or not s.style.bold for s in viewer.render_line(0))


async def test_one_megabyte_single_line_scrolls_to_the_end() -> None:
    raw = "A" * 999_990 + "THE END!!\x1b"
    app = ViewerApp(raw)
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.query_one(TextViewer)
        await pilot.pause()
        width = viewer.scrollable_content_region.width
        assert viewer.line_count == math.ceil((len(raw) + 1) / width)  # ESC shows as 2 chars
        viewer.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        assert "".join(visible(viewer)).endswith("THE END!!^[")


async def test_wide_characters_never_overflow_the_width() -> None:
    app = ViewerApp("表" * 500 + " mixed ascii " + "😀" * 100)
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.query_one(TextViewer)
        await pilot.pause()
        width = viewer.scrollable_content_region.width
        for y in range(SIZE[1]):
            assert viewer.render_line(y).cell_length == width


async def test_a_long_text_is_wrapped_only_at_the_width_it_is_shown_at() -> None:
    """Before its first layout the viewer is 0 cells wide: wrapping then cut a megabyte into a
    million one-cell lines (half a second of a frozen screen) that the next resize threw away."""
    widths: list[int] = []
    original = TextLayout.lines

    def recording(layout: TextLayout, width: int) -> list[tuple[int, int]]:
        if width != layout._width:
            widths.append(width)
        return original(layout, width)

    class LoadsOnMount(App[None]):  # as the Inspector does: the call arrives as the screen opens
        def compose(self) -> ComposeResult:
            yield TextViewer("")

        def on_mount(self) -> None:
            self.query_one(TextViewer).set_text("word " * 200_000)

    app = LoadsOnMount()
    TextLayout.lines = recording  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            viewer = app.query_one(TextViewer)
            await pilot.pause()
            assert widths == [viewer.scrollable_content_region.width]
    finally:
        TextLayout.lines = original  # type: ignore[method-assign]
